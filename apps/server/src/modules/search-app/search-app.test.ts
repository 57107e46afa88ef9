import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, newUser, startTestServer, type TestServer, type TestUser } from '../../../test/harness.js';
import { startOpenAIStandin, type OpenAIChatBody, type Standin } from '../../../test/standins/index.js';
import { answers, createKb, postSse, seedChunks, wireModels } from '../../chat/test-fixtures.js';
import { joinTeam } from '../kb/test-support.js';

/** Search apps (API.md §15) over HTTP, their config driving the search, and the share page's searchbots. */

let server: TestServer;
let llm: Standin;
let llmB: Standin;
let embed: Standin;
let owner: TestUser;
let stranger: TestUser;
let member: TestUser;
let kbId: string;
let marsDoc: string;
let jupiterDoc: string;
let reply: (body: OpenAIChatBody) => string = () => 'ok';
let replyB: (body: OpenAIChatBody) => string = () => 'from B';

const MODEL_B = 'standin-chat-b@OpenAI-API-Compatible';

async function createApp(user: TestUser, name: string): Promise<string> {
  const res = await call<{ search_id: string }>(server, '/v1/search/create', {
    token: user.token,
    body: { name, description: 'planets' },
  });
  expect(res.body.code).toBe(0);
  return res.body.data!.search_id;
}

async function update(user: TestUser, body: Record<string, unknown>) {
  return call<Record<string, unknown>>(server, '/v1/search/update', { token: user.token, body });
}

async function virtualDoc(name: string, meta: Record<string, unknown>): Promise<string> {
  const res = await call<{ id: string }>(server, '/v1/document/create', {
    token: owner.token,
    body: { name, kb_id: kbId },
  });
  expect(res.body.code).toBe(0);
  const id = res.body.data!.id;
  const set = await call(server, '/v1/document/set_meta', {
    token: owner.token,
    body: { doc_id: id, meta: JSON.stringify(meta) },
  });
  expect(set.body.code).toBe(0);
  return id;
}

beforeAll(async () => {
  llm = await startOpenAIStandin({ reply: (b) => reply(b) });
  llmB = await startOpenAIStandin({ reply: (b) => replyB(b) });
  embed = await startOpenAIStandin();
  server = await startTestServer({ MODEL_MAX_RETRIES: '0' });
  owner = await newUser(server, 'searchowner');
  stranger = await newUser(server, 'stranger');
  member = await newUser(server, 'member');
  await joinTeam(server, member.id, owner.id);
  await wireModels(server, owner, llm, { embed });
  const added = await call(server, '/v1/llm/add_llm', {
    token: owner.token,
    body: {
      llm_factory: 'OpenAI-API-Compatible',
      llm_name: 'standin-chat-b',
      model_type: 'chat',
      api_base: llmB.url,
      api_key: 'sk-test',
      max_tokens: 8192,
      verify: false,
    },
  });
  expect(added.body.code).toBe(0);
  kbId = await createKb(server, owner, 'Astronomy');
  marsDoc = await virtualDoc('mars.txt', { planet: 'mars', inner: 'yes' });
  jupiterDoc = await virtualDoc('jupiter.txt', { planet: 'jupiter', inner: 'no' });
  await seedChunks(server, kbId, owner.id, [
    {
      content: 'Mars is the fourth planet from the Sun, a small rocky planet.',
      doc: 'mars.txt',
      docId: marsDoc,
    },
    {
      content: 'Jupiter is the largest planet of the solar system, a gas giant planet.',
      doc: 'jupiter.txt',
      docId: jupiterDoc,
    },
  ]);
});

afterAll(async () => {
  await server?.close();
  await llm?.close();
  await llmB?.close();
  await embed?.close();
});

describe('create / detail / list / update / rm (API.md §15)', () => {
  it('creates with the §15 defaults, suffixes a taken name, and shows it in detail', async () => {
    const id = await createApp(owner, 'Planets');
    const again = await createApp(owner, 'planets');
    const detail = await call<Record<string, unknown>>(server, `/v1/search/detail?search_id=${id}`, {
      token: owner.token,
    });
    expect(detail.body).toMatchObject({
      code: 0,
      data: {
        id,
        name: 'Planets',
        description: 'planets',
        tenant_id: owner.id,
        created_by: owner.id,
        status: '1',
        search_config: {
          kb_ids: [],
          doc_ids: [],
          similarity_threshold: 0.2,
          vector_similarity_weight: 0.3,
          use_kg: false,
          rerank_id: '',
          top_k: 1024,
          summary: false,
          chat_id: '',
          llm_setting: {},
          cross_languages: [],
          highlight: false,
          keyword: false,
          web_search: false,
          related_search: false,
          query_mindmap: false,
          meta_data_filter: {},
        },
      },
    });
    const second = await call<{ name: string }>(server, `/v1/search/detail?search_id=${again}`, {
      token: owner.token,
    });
    expect(second.body.data!.name).toBe('planets(1)');
  });

  it('refuses bad names with the contract messages', async () => {
    const send = (body: unknown) => call(server, '/v1/search/create', { token: owner.token, body });
    expect((await send({})).body).toMatchObject({
      code: 101,
      message: 'required argument are missing: name; ',
    });
    expect((await send({ name: 7 })).body).toMatchObject({
      code: 102,
      message: 'Search name must be string.',
    });
    expect((await send({ name: '  ' })).body).toMatchObject({
      code: 102,
      message: "Search name can't be empty.",
    });
    expect((await send({ name: 'é'.repeat(128) })).body).toMatchObject({
      code: 102,
      message: 'Search name length is 256 which is large than 255.',
    });
  });

  it('lists the apps of the caller’s teams with paging, keywords and owner data', async () => {
    const id = await createApp(owner, 'Listed galaxy');
    const list = (token: string, query = '', body: unknown = {}) =>
      call<{ search_apps: Array<Record<string, unknown>>; total: number }>(
        server,
        `/v1/search/list${query}`,
        {
          token,
          body,
        },
      );
    const mine = await list(owner.token, '?keywords=GALAXY');
    expect(mine.body.data!.total).toBe(1);
    expect(mine.body.data!.search_apps[0]).toMatchObject({
      id,
      name: 'Listed galaxy',
      nickname: 'searchowner',
      tenant_id: owner.id,
    });
    const paged = await list(owner.token, '?page=1&page_size=1&orderby=name&desc=false');
    expect(paged.body.data!.search_apps).toHaveLength(1);
    expect(paged.body.data!.total).toBeGreaterThan(1);
    expect((await list(stranger.token)).body.data).toEqual({ search_apps: [], total: 0 });
    // A normal member of the owner's team sees the team's apps; owner_ids narrows.
    const team = await list(member.token, '?keywords=galaxy');
    expect(team.body.data!.search_apps.map((a) => a.id)).toEqual([id]);
    expect((await list(member.token, '', { owner_ids: [member.id] })).body.data!.total).toBe(0);
    expect((await list(owner.token, '?page=x')).body).toMatchObject({
      code: 100,
      message: '`page` must be an integer.',
    });
  });

  it('updates: shallow-merged config, checks in the contract order', async () => {
    const id = await createApp(owner, 'To update');
    await createApp(owner, 'Taken name');
    const base = { search_id: id, name: 'Updated', tenant_id: owner.id };
    const ok = await update(owner, {
      ...base,
      description: 'new words',
      search_config: { kb_ids: [kbId], top_k: 50, custom_key: 'kept' },
    });
    expect(ok.body.code).toBe(0);
    expect(ok.body.data).toMatchObject({
      name: 'Updated',
      description: 'new words',
      search_config: { kb_ids: [kbId], top_k: 50, custom_key: 'kept', similarity_threshold: 0.2 },
    });
    const merged = await update(owner, { ...base, search_config: { similarity_threshold: 0.5 } });
    expect(merged.body.data).toMatchObject({
      search_config: { kb_ids: [kbId], top_k: 50, custom_key: 'kept', similarity_threshold: 0.5 },
    });

    expect((await update(owner, { search_id: id })).body).toMatchObject({
      code: 101,
      message: 'required argument are missing: name,search_config,tenant_id; ',
    });
    expect(
      (await update(stranger, { ...base, tenant_id: stranger.id, search_config: {} })).body,
    ).toMatchObject({
      code: 109,
      message: 'No authorization.',
    });
    // Team members use the app; only its creator changes it.
    expect((await update(member, { ...base, search_config: {} })).body.code).toBe(109);
    expect((await update(owner, { ...base, search_id: 'f'.repeat(32), search_config: {} })).body.code).toBe(
      109,
    );
    expect((await update(owner, { ...base, tenant_id: member.id, search_config: {} })).body).toMatchObject({
      code: 102,
      message: `Cannot find search ${id}`,
    });
    expect((await update(owner, { ...base, name: 'taken NAME', search_config: {} })).body).toMatchObject({
      code: 102,
      message: 'Duplicated search name.',
    });
    for (const bad of [[], 'x', null, 3]) {
      expect((await update(owner, { ...base, search_config: bad })).body).toMatchObject({
        code: 102,
        message: 'search_config must be a JSON object',
      });
    }
    expect((await update(owner, { ...base, search_config: { similarity_threshold: 2 } })).body).toMatchObject(
      {
        code: 100,
        message: '`similarity_threshold` must be between 0 and 1.',
      },
    );
    expect((await update(owner, { ...base, search_config: { top_k: 0 } })).body).toMatchObject({
      code: 100,
      message: '`top_k` must be greater than 0.',
    });
    expect((await update(owner, { ...base, search_config: { kb_ids: 'x' } })).body).toMatchObject({
      code: 100,
      message: '`kb_ids` must be a list of strings.',
    });
    const foreignKb = await createKb(server, stranger, 'Private');
    expect((await update(owner, { ...base, search_config: { kb_ids: [foreignKb] } })).body).toMatchObject({
      code: 109,
      message: 'No authorization.',
    });
  });

  it('detail and rm refuse foreign, unknown and removed apps', async () => {
    const id = await createApp(owner, 'Short lived');
    const detail = (user: TestUser, sid = id) =>
      call(server, `/v1/search/detail?search_id=${sid}`, { token: user.token });
    expect((await detail(stranger)).body).toMatchObject({
      code: 103,
      message: 'Has no permission for this operation.',
    });
    expect((await detail(owner, 'nope')).body.code).toBe(103);
    expect((await detail(member)).body.code).toBe(0);
    const rm = (user: TestUser, body: unknown) => call(server, '/v1/search/rm', { token: user.token, body });
    expect((await rm(owner, {})).body).toMatchObject({
      code: 101,
      message: 'required argument are missing: search_id; ',
    });
    expect((await rm(stranger, { search_id: id })).body).toMatchObject({
      code: 109,
      message: 'No authorization.',
    });
    expect((await rm(member, { search_id: id })).body.code).toBe(109);
    expect((await rm(owner, { search_id: id })).body).toMatchObject({ code: 0, data: true });
    expect((await detail(owner)).body.code).toBe(103);
    expect((await rm(owner, { search_id: id })).body.code).toBe(109);
  });
});

describe('search_config drives ask, related_questions, mindmap and retrieval_test', () => {
  let appId: string;
  beforeAll(async () => {
    appId = await createApp(owner, 'Driven');
    const res = await update(owner, {
      search_id: appId,
      name: 'Driven',
      tenant_id: owner.id,
      search_config: {
        kb_ids: [kbId],
        chat_id: MODEL_B,
        llm_setting: { temperature: 0.77 },
        similarity_threshold: 0.01,
        meta_data_filter: { method: 'manual', manual: [{ key: 'inner', op: '=', value: 'yes' }] },
      },
    });
    expect(res.body.code).toBe(0);
  });

  it('ask answers with the app’s model, settings and knowledge bases (none in the request)', async () => {
    llmB.requests.length = 0;
    replyB = () => 'Mars is the fourth planet.';
    const r = await postSse(
      server,
      '/v1/conversation/ask',
      { question: 'planet', kb_ids: [], search_id: appId },
      owner.token,
    );
    const events = answers(r);
    expect(
      events
        .filter((e) => !e.final)
        .map((e) => e.answer)
        .join(''),
    ).toBe('Mars is the fourth planet.');
    // The metadata filter keeps the inner planet's document only.
    const final = events[events.length - 1];
    expect(final.reference.chunks.map((c) => c.document_id)).toEqual([marsDoc]);
    const sent = llmB.modelCalls().at(-1)!.body as OpenAIChatBody & { temperature?: number };
    expect(sent.temperature).toBe(0.77);
    expect(JSON.stringify(sent.messages)).toContain('fourth planet from the Sun');
    expect(JSON.stringify(sent.messages)).not.toContain('gas giant');
  });

  it('ask without the app searches both documents with the default model', async () => {
    reply = () => 'Both.';
    const r = await postSse(
      server,
      '/v1/conversation/ask',
      { question: 'planet', kb_ids: [kbId] },
      owner.token,
    );
    const final = answers(r).at(-1)!;
    expect(new Set(final.reference.chunks.map((c) => c.document_id))).toEqual(new Set([marsDoc, jupiterDoc]));
  });

  it('a foreign search_id is refused: error event for ask, 109 for the others', async () => {
    const r = await postSse(
      server,
      '/v1/conversation/ask',
      { question: 'planet', kb_ids: [], search_id: appId },
      stranger.token,
    );
    expect(r.events[0]).toMatchObject({ code: 500, message: 'No authorization.' });
    const related = await call(server, '/v1/conversation/related_questions', {
      token: stranger.token,
      body: { question: 'planet', search_id: appId },
    });
    expect(related.body).toMatchObject({ code: 109, message: 'No authorization.' });
    const map = await call(server, '/v1/conversation/mindmap', {
      token: stranger.token,
      body: { question: 'planet', kb_ids: [], search_id: appId },
    });
    expect(map.body.code).toBe(109);
  });

  it('related_questions and mindmap use the app’s chat model', async () => {
    replyB = () => '1. moons of mars\n2. red planet';
    const related = await call<string[]>(server, '/v1/conversation/related_questions', {
      token: member.token,
      body: { question: 'mars', search_id: appId },
    });
    expect(related.body).toMatchObject({ code: 0, data: ['moons of mars', 'red planet'] });
    replyB = () => '# Mars\n## Facts\n- fourth planet';
    const map = await call(server, '/v1/conversation/mindmap', {
      token: owner.token,
      body: { question: 'planet', kb_ids: [], search_id: appId },
    });
    expect(map.body).toMatchObject({ code: 0, data: { id: 'Mars', children: [{ id: 'Facts' }] } });
    expect(JSON.stringify(llmB.modelCalls().at(-1)!.body)).not.toContain('gas giant');
  });

  it('retrieval_test takes the app’s knowledge bases and filter', async () => {
    const res = await call<{ chunks: Array<{ doc_id: string }> }>(server, '/v1/chunk/retrieval_test', {
      token: owner.token,
      body: { kb_id: [], question: 'planet', search_id: appId },
    });
    expect(res.body.code).toBe(0);
    expect(res.body.data!.chunks.map((c) => c.doc_id)).toEqual([marsDoc]);
  });
});

describe('/api/v1/searchbots (share page, beta token)', () => {
  let appId: string;
  let beta: string;
  const auth = () => ({ Authorization: `Bearer ${beta}` });
  beforeAll(async () => {
    appId = await createApp(owner, 'Shared search');
    await update(owner, {
      search_id: appId,
      name: 'Shared search',
      tenant_id: owner.id,
      search_config: { kb_ids: [kbId], doc_ids: [jupiterDoc], similarity_threshold: 0.01 },
    });
    const key = await call<{ beta: string }>(server, '/v1/system/new_token', {
      token: owner.token,
      body: {},
    });
    beta = key.body.data!.beta;
  });

  it('refuses a missing, one-part or unknown beta token', async () => {
    const url = `/api/v1/searchbots/detail?search_id=${appId}`;
    expect((await call(server, url)).body).toMatchObject({
      code: 102,
      message: 'Authorization is not valid!',
    });
    expect((await call(server, url, { headers: { Authorization: beta } })).body).toMatchObject({
      code: 102,
      message: 'Authorization is not valid!',
    });
    expect((await call(server, url, { headers: { Authorization: 'Bearer nope' } })).body).toMatchObject({
      code: 102,
      message: 'Authentication error: API key is invalid!',
    });
  });

  it('shows the app, runs ask / retrieval / related / mindmap with its config', async () => {
    const detail = await call(server, `/api/v1/searchbots/detail?search_id=${appId}`, { headers: auth() });
    expect(detail.body).toMatchObject({ code: 0, data: { id: appId, name: 'Shared search' } });

    reply = () => 'Jupiter is the largest.';
    const res = await fetch(`${server.url}/api/v1/searchbots/ask`, {
      method: 'POST',
      headers: { ...auth(), 'Content-Type': 'application/json' },
      body: JSON.stringify({ question: 'planet', search_id: appId }),
    });
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const text = await res.text();
    expect(text).toContain('"answer":"largest."');
    expect(text).toContain(jupiterDoc);
    expect(text).not.toContain(marsDoc);

    const hits = await call<{ chunks: Array<{ doc_id: string }> }>(
      server,
      '/api/v1/searchbots/retrieval_test',
      {
        headers: auth(),
        body: { question: 'planet', search_id: appId },
      },
    );
    expect(hits.body.code).toBe(0);
    expect(hits.body.data!.chunks.map((c) => c.doc_id)).toEqual([jupiterDoc]);

    reply = () => '1. gas giants';
    const related = await call(server, '/api/v1/searchbots/related_questions', {
      headers: auth(),
      body: { question: 'jupiter', search_id: appId },
    });
    expect(related.body).toMatchObject({ code: 0, data: ['gas giants'] });

    reply = () => '# Jupiter\n- largest';
    const map = await call(server, '/api/v1/searchbots/mindmap', {
      headers: auth(),
      body: { question: 'planet', search_id: appId },
    });
    expect(map.body).toMatchObject({ code: 0, data: { id: 'Jupiter' } });
  });

  it('keeps a beta token inside its tenant and checks the body', async () => {
    const key = await call<{ beta: string }>(server, '/v1/system/new_token', {
      token: stranger.token,
      body: {},
    });
    const foreign = { Authorization: `Bearer ${key.body.data!.beta}` };
    const detail = await call(server, `/api/v1/searchbots/detail?search_id=${appId}`, { headers: foreign });
    expect(detail.body).toMatchObject({ code: 103, message: 'Has no permission for this operation.' });
    const related = await call(server, '/api/v1/searchbots/related_questions', {
      headers: foreign,
      body: { question: 'x', search_id: appId },
    });
    expect(related.body).toMatchObject({ code: 109, message: 'No authorization.' });
    const missing = await call(server, '/api/v1/searchbots/mindmap', {
      headers: auth(),
      body: { question: 'x' },
    });
    expect(missing.body).toMatchObject({ code: 101, message: 'required argument are missing: search_id; ' });
  });
});
