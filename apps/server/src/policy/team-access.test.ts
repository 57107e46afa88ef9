/**
 * Team sharing end to end (API.md §1.6) over HTTP with three accounts: the owner of a team, a
 * `normal` member of it (membership row written directly: the team routes belong to another area),
 * and an outsider. A "team" knowledge base is listed and usable by the member and refused to the
 * outsider; a "me" knowledge base is refused to both — on the KB, document, chunk and retrieval
 * routes. The owner (and its API key, which acts as the owner) reaches both.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, newUser, startTestServer, type TestServer, type TestUser } from '../../test/harness.js';
import { joinTeam, upload } from '../modules/kb/test-support.js';

let server: TestServer;
let owner: TestUser;
let member: TestUser;
let outsider: TestUser;
let apiKey: string;
const kb = { team: '', me: '' };
const doc = { team: '', me: '' };
const chunk = { team: '', me: '' };

type Body = { code: number; message: string; data?: unknown };
const post = async (token: string, route: string, body: unknown = {}): Promise<Body> =>
  (await call(server, route, { token, body })).body;
const get = async (token: string, route: string): Promise<Body> =>
  (await call(server, route, { token })).body;

const NO_AUTH = { code: 109, message: 'No authorization.' };
const DATASET_OWNER = { code: 103, message: 'Only owner of dataset authorized for this operation.' };

async function makeKb(permission: 'me' | 'team'): Promise<string> {
  const res = await post(owner.token, '/v1/kb/create', { name: `${permission} kb`, embd_id: '', permission });
  expect(res.code).toBe(0);
  return (res.data as { kb_id: string }).kb_id;
}

async function makeDocWithChunk(kbId: string, text: string): Promise<[string, string]> {
  const up = await upload(server, owner.token, { kb_id: kbId }, [{ name: `${text}.txt`, data: text }]);
  expect(up.body.code).toBe(0);
  const docId = (up.body.data as Array<{ id: string }>)[0].id;
  const created = await post(owner.token, '/v1/chunk/create', {
    doc_id: docId,
    content_with_weight: `Lighthouse keepers log the ${text} weather every night.`,
  });
  expect(created.code).toBe(0);
  return [docId, (created.data as { chunk_id: string }).chunk_id];
}

beforeAll(async () => {
  server = await startTestServer();
  owner = await newUser(server, 'owner');
  member = await newUser(server, 'member');
  outsider = await newUser(server, 'outsider');
  await joinTeam(server, member.id, owner.id, 'normal');
  kb.team = await makeKb('team');
  kb.me = await makeKb('me');
  [doc.team, chunk.team] = await makeDocWithChunk(kb.team, 'shared');
  [doc.me, chunk.me] = await makeDocWithChunk(kb.me, 'private');
  const key = await post(owner.token, '/v1/system/new_token');
  expect(key.code).toBe(0);
  apiKey = `Bearer ${(key.data as { token: string }).token}`;
}, 120_000);

afterAll(async () => {
  await server?.close();
});

describe('knowledge-base routes', () => {
  it('kb/list: the member sees the team KB, the outsider nothing of the team, the owner both', async () => {
    const listed = async (token: string) =>
      ((await post(token, '/v1/kb/list')).data as { kbs: Array<{ id: string }> }).kbs.map((k) => k.id);
    expect((await listed(owner.token)).sort()).toEqual([kb.team, kb.me].sort());
    expect((await listed(apiKey)).sort()).toEqual([kb.team, kb.me].sort());
    expect(await listed(member.token)).toEqual([kb.team]);
    expect(await listed(outsider.token)).toEqual([]);
  });

  it('kb/detail, tags and basic_info: usable by the member for the team KB only', async () => {
    expect((await get(member.token, `/v1/kb/detail?kb_id=${kb.team}`)).code).toBe(0);
    expect(await get(member.token, `/v1/kb/detail?kb_id=${kb.me}`)).toMatchObject(DATASET_OWNER);
    expect(await get(outsider.token, `/v1/kb/detail?kb_id=${kb.team}`)).toMatchObject(DATASET_OWNER);
    expect((await get(member.token, `/v1/kb/${kb.team}/tags`)).code).toBe(0);
    expect((await get(member.token, `/v1/kb/basic_info?kb_id=${kb.team}`)).code).toBe(0);
    for (const [token, id] of [
      [member.token, kb.me],
      [outsider.token, kb.team],
      [outsider.token, kb.me],
    ]) {
      expect(await get(token, `/v1/kb/${id}/tags`)).toMatchObject(NO_AUTH);
      expect(await get(token, `/v1/kb/basic_info?kb_id=${id}`)).toMatchObject(NO_AUTH);
    }
  });

  it('changing or removing a KB stays with its creator, even for team members', async () => {
    const update = { kb_id: kb.team, name: 'renamed', description: '', parser_id: 'naive' };
    expect(await post(member.token, '/v1/kb/update', update)).toMatchObject(NO_AUTH);
    expect(await post(outsider.token, '/v1/kb/update', update)).toMatchObject(NO_AUTH);
    expect(await post(member.token, '/v1/kb/rm', { kb_id: kb.team })).toMatchObject(NO_AUTH);
    expect(await post(outsider.token, '/v1/kb/rm', { kb_id: kb.me })).toMatchObject(NO_AUTH);
  });
});

describe('document routes', () => {
  it('list, infos, get and set_meta: the member works in the team KB only', async () => {
    const docs = await post(member.token, `/v1/document/list?kb_id=${kb.team}`);
    expect((docs.data as { docs: Array<{ id: string }> }).docs.map((d) => d.id)).toEqual([doc.team]);
    expect((await post(member.token, '/v1/document/infos', { doc_ids: [doc.team] })).code).toBe(0);
    const bytes = await fetch(`${server.url}/v1/document/get/${doc.team}`, {
      headers: { Authorization: member.token },
    });
    expect(await bytes.text()).toBe('shared');
    const meta = { doc_id: doc.team, meta: JSON.stringify({ topic: 'weather' }) };
    expect((await post(member.token, '/v1/document/set_meta', meta)).code).toBe(0);

    for (const [token, kbId, docId] of [
      [member.token, kb.me, doc.me],
      [outsider.token, kb.team, doc.team],
      [outsider.token, kb.me, doc.me],
    ]) {
      expect(await post(token, `/v1/document/list?kb_id=${kbId}`)).toMatchObject(DATASET_OWNER);
      expect(await post(token, '/v1/document/infos', { doc_ids: [docId] })).toMatchObject(NO_AUTH);
      expect(await get(token, `/v1/document/get/${docId}`)).toMatchObject({
        code: 102,
        message: 'Document not found!',
      });
      const setMeta = { doc_id: docId, meta: '{}' };
      expect(await post(token, '/v1/document/set_meta', setMeta)).toMatchObject(NO_AUTH);
    }
  });

  it('creating and uploading documents: into the team KB for the member, nowhere for the outsider', async () => {
    expect((await post(member.token, '/v1/document/create', { kb_id: kb.team, name: 'm.txt' })).code).toBe(0);
    expect(await post(member.token, '/v1/document/create', { kb_id: kb.me, name: 'm.txt' })).toMatchObject(
      NO_AUTH,
    );
    expect(
      await post(outsider.token, '/v1/document/create', { kb_id: kb.team, name: 'o.txt' }),
    ).toMatchObject(NO_AUTH);
    const files = [{ name: 'up.txt', data: 'uploaded' }];
    expect((await upload(server, member.token, { kb_id: kb.team }, files)).body.code).toBe(0);
    expect((await upload(server, member.token, { kb_id: kb.me }, files)).body).toMatchObject(NO_AUTH);
    expect((await upload(server, outsider.token, { kb_id: kb.team }, files)).body).toMatchObject(NO_AUTH);
  });
});

describe('chunk routes', () => {
  it('list, get and create: the member reaches the team KB’s chunks only', async () => {
    const listed = await post(member.token, '/v1/chunk/list', { doc_id: doc.team });
    expect((listed.data as { chunks: Array<{ chunk_id: string }> }).chunks.map((c) => c.chunk_id)).toEqual([
      chunk.team,
    ]);
    expect((await get(member.token, `/v1/chunk/get?chunk_id=${chunk.team}`)).code).toBe(0);
    const added = { doc_id: doc.team, content_with_weight: 'A member adds a note.' };
    expect((await post(member.token, '/v1/chunk/create', added)).code).toBe(0);

    for (const [token, docId, chunkId] of [
      [member.token, doc.me, chunk.me],
      [outsider.token, doc.team, chunk.team],
      [outsider.token, doc.me, chunk.me],
    ]) {
      expect(await post(token, '/v1/chunk/list', { doc_id: docId })).toMatchObject(NO_AUTH);
      expect(await get(token, `/v1/chunk/get?chunk_id=${chunkId}`)).toMatchObject(NO_AUTH);
      const create = { doc_id: docId, content_with_weight: 'intrusion' };
      expect(await post(token, '/v1/chunk/create', create)).toMatchObject(NO_AUTH);
    }
  });
});

describe('retrieval', () => {
  const question = 'lighthouse weather';

  it('retrieval_test: the member searches the team KB; "me" KBs and outsiders get 103', async () => {
    const hits = async (token: string, kbIds: string[]) => {
      const res = await post(token, '/v1/chunk/retrieval_test', { kb_id: kbIds, question });
      expect(res.code).toBe(0);
      return (res.data as { chunks: Array<{ chunk_id: string }> }).chunks.map((c) => c.chunk_id);
    };
    expect(await hits(member.token, [kb.team])).toContain(chunk.team);
    expect(await hits(owner.token, [kb.team, kb.me])).toEqual(expect.arrayContaining([chunk.team, chunk.me]));
    expect(await hits(apiKey, [kb.me])).toEqual([chunk.me]);
    for (const [token, kbIds] of [
      [member.token, [kb.me]],
      [member.token, [kb.team, kb.me]],
      [outsider.token, [kb.team]],
      [outsider.token, [kb.me]],
    ] as const) {
      expect(await post(token, '/v1/chunk/retrieval_test', { kb_id: kbIds, question })).toMatchObject(
        DATASET_OWNER,
      );
    }
  });

  it('assistants may be built over the team KB by the member, over nothing of the owner’s otherwise', async () => {
    const assistant = (kbIds: string[]) => ({ kb_ids: kbIds, prompt_config: { system: 'Use {knowledge}' } });
    expect((await post(member.token, '/v1/dialog/set', assistant([kb.team]))).code).toBe(0);
    expect(await post(member.token, '/v1/dialog/set', assistant([kb.me]))).toMatchObject(NO_AUTH);
    expect(await post(outsider.token, '/v1/dialog/set', assistant([kb.team]))).toMatchObject(NO_AUTH);
  });
});
