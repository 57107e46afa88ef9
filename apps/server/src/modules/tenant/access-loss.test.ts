/**
 * "A member who quits or is removed loses access at once" (issue 13, API.md §1.6), with three
 * accounts and the real team routes: the owner's team knowledge base (document, chunk) and team
 * agent are usable by the member only while the membership is `normal` — not while the invitation
 * is pending, not after quitting, not after being removed, never by the outsider. The member's own
 * assistant over the team knowledge base stops retrieving from it on the next question too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, newUser, startTestServer, type TestServer, type TestUser } from '../../../test/harness.js';
import { startOpenAIStandin, type OpenAIChatBody, type Standin } from '../../../test/standins/index.js';
import {
  EMBD_MODEL,
  answers,
  createConversation,
  createDialog,
  postSse,
  wireModels,
} from '../../chat/test-fixtures.js';
import { saveCanvas, simpleFlow } from '../canvas/test-support.js';
import { upload } from '../kb/test-support.js';

const FACT = 'The harbour lighthouse is painted red and white.';

let server: TestServer;
let llm: Standin;
let owner: TestUser;
let member: TestUser;
let outsider: TestUser;
let kbId = '';
let docId = '';
let chunkId = '';
let canvasId = '';
let dialogId = '';
const prompts: string[] = [];

type Body = { code: number; message: string; data?: unknown };
const post = async (user: TestUser, route: string, body: unknown = {}): Promise<Body> =>
  (await call(server, route, { token: user.token, body })).body;
const get = async (user: TestUser, route: string): Promise<Body> =>
  (await call(server, route, { token: user.token })).body;
const del = async (user: TestUser, route: string): Promise<Body> =>
  (await call(server, route, { token: user.token, method: 'DELETE' })).body;
const put = async (user: TestUser, route: string): Promise<Body> =>
  (await call(server, route, { token: user.token, method: 'PUT' })).body;

async function must(res: Promise<Body>): Promise<unknown> {
  const body = await res;
  expect(body.code, body.message).toBe(0);
  return body.data;
}

/** Which of the shared things `user` reaches right now: route → answered with code 0. */
async function reach(user: TestUser): Promise<Record<string, boolean>> {
  const ok = async (res: Promise<Body>) => (await res).code === 0;
  const kbs = (await post(user, '/v1/kb/list')).data as { kbs: Array<{ id: string }> };
  const agents = (await get(user, '/v1/canvas/list')).data as { canvas: Array<{ id: string }> };
  const team = (await get(user, '/v1/canvas/listteam')).data as { kbs: Array<{ id: string }> };
  const bytes = await fetch(`${server.url}/v1/document/get/${docId}`, {
    headers: { Authorization: user.token },
  });
  return {
    'kb/list': kbs.kbs.some((k) => k.id === kbId),
    'kb/detail': await ok(get(user, `/v1/kb/detail?kb_id=${kbId}`)),
    'document/list': await ok(post(user, `/v1/document/list?kb_id=${kbId}`)),
    'document/infos': await ok(post(user, '/v1/document/infos', { doc_ids: [docId] })),
    'document/get': (await bytes.text()) === 'harbour notes',
    'chunk/list': await ok(post(user, '/v1/chunk/list', { doc_id: docId })),
    'chunk/get': await ok(get(user, `/v1/chunk/get?chunk_id=${chunkId}`)),
    'chunk/retrieval_test': await ok(
      post(user, '/v1/chunk/retrieval_test', { kb_id: [kbId], question: 'lighthouse' }),
    ),
    'canvas/list': agents.canvas.some((c) => c.id === canvasId),
    'canvas/listteam': team.kbs.some((c) => c.id === canvasId),
    'canvas/get': await ok(get(user, `/v1/canvas/get/${canvasId}`)),
  };
}

const everything = async (user: TestUser) => Object.values(await reach(user));

/** The member asks its own assistant (built over the team KB); true when the fact reached the prompt. */
async function memberAssistantSeesTheFact(): Promise<boolean> {
  const before = prompts.length;
  const conversation = await createConversation(server, member, dialogId);
  const res = await postSse(
    server,
    '/v1/conversation/completion',
    {
      conversation_id: conversation,
      messages: [{ role: 'user', content: 'What colour is the lighthouse?' }],
    },
    member.token,
  );
  expect(res.status).toBe(200);
  const final = answers(res).at(-1)!;
  const cited = final.reference.chunks.some((c) => String(c.content_with_weight ?? c.content).includes(FACT));
  const prompted = prompts.slice(before).some((p) => p.includes(FACT));
  expect(cited).toBe(prompted);
  return prompted;
}

beforeAll(async () => {
  llm = await startOpenAIStandin({
    reply: (b: OpenAIChatBody) => {
      prompts.push(b.messages.map((m) => (typeof m.content === 'string' ? m.content : '')).join('\n'));
      return 'It is red and white.';
    },
  });
  server = await startTestServer({ MODEL_MAX_RETRIES: '0' });
  owner = await newUser(server, 'owner');
  member = await newUser(server, 'member');
  outsider = await newUser(server, 'outsider');
  await wireModels(server, owner, llm);
  await wireModels(server, member, llm);
  await wireModels(server, outsider, llm);

  kbId = (
    (await must(
      post(owner, '/v1/kb/create', { name: 'Harbour', embd_id: EMBD_MODEL, permission: 'team' }),
    )) as {
      kb_id: string;
    }
  ).kb_id;
  const up = await upload(server, owner.token, { kb_id: kbId }, [
    { name: 'harbour.txt', data: 'harbour notes' },
  ]);
  expect(up.body.code, up.body.message).toBe(0);
  docId = (up.body.data as Array<{ id: string }>)[0].id;
  chunkId = (
    (await must(post(owner, '/v1/chunk/create', { doc_id: docId, content_with_weight: FACT }))) as {
      chunk_id: string;
    }
  ).chunk_id;
  canvasId = (
    await saveCanvas(server, owner, {
      title: 'Harbour agent',
      dsl: simpleFlow('standin-chat@OpenAI-API-Compatible'),
      permission: 'team',
    })
  ).id;

  // The member joins through the team routes and builds an assistant over the team KB.
  await must(post(owner, `/v1/tenant/${owner.id}/user`, { email: member.email }));
  await must(put(member, `/v1/tenant/agree/${owner.id}`));
  dialogId = (
    await createDialog(server, member, {
      name: 'Harbour helper',
      kb_ids: [kbId],
      similarity_threshold: 0,
      vector_similarity_weight: 0,
      prompt_config: { system: 'Answer from the knowledge.\n{knowledge}', empty_response: 'Nothing found.' },
    })
  ).id;
}, 120_000);

afterAll(async () => {
  await server?.close();
  await llm?.close();
});

describe('access to a team knowledge base and agent follows the membership at once', () => {
  it('the member reaches everything shared, the outsider nothing', async () => {
    expect(await reach(member)).toEqual(
      Object.fromEntries(Object.keys(await reach(owner)).map((k) => [k, true])),
    );
    expect(await everything(outsider)).not.toContain(true);
    expect(await memberAssistantSeesTheFact()).toBe(true);
    // The outsider can't build an assistant over it either.
    const attempt = await post(outsider, '/v1/dialog/set', {
      name: 'Intruder',
      kb_ids: [kbId],
      prompt_config: { system: '{knowledge}' },
    });
    expect(attempt.code).toBe(109);
  });

  it('quitting ends it on the next call, for the routes and for the member’s own assistant', async () => {
    await must(del(member, `/v1/tenant/${owner.id}/user/${member.id}`));
    expect(await everything(member)).not.toContain(true);
    expect(await memberAssistantSeesTheFact()).toBe(false);
    // The owner keeps everything (`listteam` lists other teams' agents only).
    const ownerMisses = Object.entries(await reach(owner)).filter(([, reached]) => !reached);
    expect(ownerMisses.map(([route]) => route)).toEqual(['canvas/listteam']);
  });

  it('a pending invitation shares nothing; agreeing brings it back; removal ends it again', async () => {
    await must(post(owner, `/v1/tenant/${owner.id}/user`, { email: member.email }));
    expect(await everything(member)).not.toContain(true);
    expect(await memberAssistantSeesTheFact()).toBe(false);

    await must(put(member, `/v1/tenant/agree/${owner.id}`));
    expect(await everything(member)).not.toContain(false);
    expect(await memberAssistantSeesTheFact()).toBe(true);

    await must(del(owner, `/v1/tenant/${owner.id}/user/${member.id}`));
    expect(await everything(member)).not.toContain(true);
    expect(await memberAssistantSeesTheFact()).toBe(false);
    expect(await everything(outsider)).not.toContain(true);
  });
});
