import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, newUser, startTestServer, type TestServer, type TestUser } from '../../../test/harness.js';

type Dialog = Record<string, unknown> & { id: string; prompt_config: Record<string, unknown> };

let server: TestServer;
let alice: TestUser;
let bob: TestUser;

const pc = (system = 'You are a helpful assistant.', parameters: unknown[] = []) => ({ system, parameters });

async function setDialog(user: TestUser, body: Record<string, unknown>) {
  return call<Dialog>(server, '/v1/dialog/set', { token: user.token, body });
}

async function createKb(user: TestUser, name: string, embdId?: string): Promise<string> {
  const res = await call<{ kb_id: string }>(server, '/v1/kb/create', {
    token: user.token,
    body: { name, ...(embdId ? { embd_id: embdId } : {}) },
  });
  expect(res.body.code, res.body.message).toBe(0);
  return (res.body.data as { kb_id: string }).kb_id;
}

beforeAll(async () => {
  server = await startTestServer();
  alice = await newUser(server, 'alice');
  bob = await newUser(server, 'bob');
});

afterAll(async () => {
  await server.close();
});

describe('POST /v1/dialog/set — create', () => {
  it('stores every default of API.md §8', async () => {
    const res = await setDialog(alice, { prompt_config: pc() });
    expect(res.body.code).toBe(0);
    const d = res.body.data as Dialog;
    expect(d).toMatchObject({
      name: 'New Dialog',
      description: 'A helpful dialog',
      icon: '',
      language: 'English',
      top_n: 6,
      top_k: 1024,
      rerank_id: '',
      similarity_threshold: 0.1,
      vector_similarity_weight: 0.3,
      prompt_type: 'simple',
      do_refer: '1',
      status: '1',
      kb_ids: [],
      kb_names: [],
      meta_data_filter: {},
      llm_setting: {
        temperature: 0.1,
        top_p: 0.3,
        frequency_penalty: 0.7,
        presence_penalty: 0.4,
        max_tokens: 512,
      },
    });
    expect(d.id).toMatch(/^[0-9a-f]{32}$/);
    expect(d.prompt_config).toMatchObject({
      system: 'You are a helpful assistant.',
      prologue: "Hi! I'm your assistant. What can I do for you?",
      parameters: [],
      // No knowledge base: the empty response is cleared (SPEC §5).
      empty_response: '',
      quote: true,
      keyword: false,
      refine_multiturn: false,
      self_rag: false,
      tavily_api_key: '',
    });
    expect(typeof d.create_date).toBe('string');
  });

  it('refuses bad names with the contract messages', async () => {
    const cases: Array<[unknown, string]> = [
      ['', "Dialog name can't be empty."],
      ['  ', "Dialog name can't be empty."],
      ['a'.repeat(256), 'Dialog name length is 256 which is larger than 255'],
      [0, 'Dialog name must be string.'],
      [null, 'Dialog name must be string.'],
    ];
    for (const [name, message] of cases) {
      const res = await setDialog(alice, { name, prompt_config: pc() });
      expect(res.body).toMatchObject({ code: 102, message });
    }
    const ok = await setDialog(alice, { name: 'a'.repeat(255), prompt_config: pc() });
    expect(ok.body.code).toBe(0);
  });

  it('requires prompt_config and checks that required parameters are used', async () => {
    expect((await setDialog(alice, { name: 'x' })).body).toMatchObject({
      code: 101,
      message: 'required argument are missing: prompt_config; ',
    });
    const unused = await setDialog(alice, {
      prompt_config: pc('Hello', [{ key: 'unused_param', optional: false }]),
    });
    expect(unused.body).toMatchObject({ code: 102, message: "Parameter 'unused_param' is not used" });
    const optional = await setDialog(alice, {
      prompt_config: pc('Hi {opt}', [{ key: 'opt', optional: true }]),
    });
    expect(optional.body.code).toBe(0);
  });

  it('trims names and suffixes duplicates case-insensitively', async () => {
    const a = await setDialog(alice, { name: '  Helper ', prompt_config: pc() });
    const b = await setDialog(alice, { name: 'helper', prompt_config: pc() });
    const c = await setDialog(alice, { name: 'Helper', prompt_config: pc() });
    expect([a, b, c].map((r) => (r.body.data as Dialog).name)).toEqual(['Helper', 'helper(1)', 'Helper(2)']);
    // Another tenant's names do not count.
    expect(((await setDialog(bob, { name: 'Helper', prompt_config: pc() })).body.data as Dialog).name).toBe(
      'Helper',
    );
  });

  it('validates llm_setting.max_tokens (a number ≥ 0, default 512)', async () => {
    const neg = await setDialog(alice, { prompt_config: pc(), llm_setting: { max_tokens: -1 } });
    expect(neg.body).toMatchObject({ code: 100, message: '`llm_setting.max_tokens` must be at least 0.' });
    const nan = await setDialog(alice, { prompt_config: pc(), llm_setting: { max_tokens: 'many' } });
    expect(nan.body).toMatchObject({ code: 100, message: '`llm_setting.max_tokens` must be a number.' });
    const partial = await setDialog(alice, { prompt_config: pc(), llm_setting: { temperature: 0.5 } });
    expect((partial.body.data as Dialog).llm_setting).toEqual({ temperature: 0.5, max_tokens: 512 });
    const zero = await setDialog(alice, {
      prompt_config: pc(),
      llm_setting: { temperature: 0.8, max_tokens: 0 },
    });
    expect((zero.body.data as Dialog).llm_setting).toEqual({ temperature: 0.8, max_tokens: 0 });
  });

  it('sets the {knowledge} parameter and keeps the empty response when knowledge bases are chosen', async () => {
    const kb = await createKb(alice, 'kb-knowledge');
    const res = await setDialog(alice, {
      kb_ids: [kb],
      prompt_config: { system: 'Use {knowledge}', empty_response: 'Nothing found.' },
    });
    expect(res.body.code).toBe(0);
    const d = res.body.data as Dialog;
    expect(d.prompt_config.parameters).toEqual([{ key: 'knowledge', optional: false }]);
    expect(d.prompt_config.empty_response).toBe('Nothing found.');
    expect(d.kb_ids).toEqual([kb]);
    expect(d.kb_names).toEqual(['kb-knowledge']);
  });

  it('refuses knowledge bases of different embedding models, and foreign or unknown ones', async () => {
    const a = await createKb(alice, 'kb-embd-a', 'model-a@OpenAI');
    const b = await createKb(alice, 'kb-embd-b', 'model-b@Ollama');
    const mixed = await setDialog(alice, { kb_ids: [a, b], prompt_config: pc() });
    expect(mixed.body).toMatchObject({
      code: 102,
      message: 'Datasets use different embedding models: model-a@OpenAI, model-b@Ollama',
    });
    const bobKb = await createKb(bob, 'bob-kb');
    expect((await setDialog(alice, { kb_ids: [bobKb], prompt_config: pc() })).body).toMatchObject({
      code: 109,
      message: 'No authorization.',
    });
    expect((await setDialog(alice, { kb_ids: ['f'.repeat(32)], prompt_config: pc() })).body.code).toBe(109);
  });
});

describe('POST /v1/dialog/set — update', () => {
  it('merges the request into the stored row and answers with live kb names', async () => {
    const kb = await createKb(alice, 'kb-update');
    const created = (
      await setDialog(alice, { name: 'To update', kb_ids: [kb], prompt_config: pc('Use {knowledge}') })
    ).body.data as Dialog;
    const res = await setDialog(alice, {
      dialog_id: created.id,
      name: 'Updated',
      top_n: 3,
      icon: null,
      prompt_config: { system: 'Now {knowledge}!', parameters: [{ key: 'knowledge', optional: false }] },
    });
    expect(res.body.code).toBe(0);
    const d = res.body.data as Dialog;
    expect(d).toMatchObject({
      id: created.id,
      name: 'Updated',
      top_n: 3,
      top_k: 1024,
      icon: '',
      kb_ids: [kb],
      kb_names: ['kb-update'],
    });
    expect(d.prompt_config.system).toBe('Now {knowledge}!');
    expect(d.prompt_config.prologue).toBe("Hi! I'm your assistant. What can I do for you?");
    const got = await call<Dialog>(server, `/v1/dialog/get?dialog_id=${created.id}`, { token: alice.token });
    expect((got.body.data as Dialog).name).toBe('Updated');
  });

  it('refuses {knowledge} without a knowledge base or web search (update only)', async () => {
    const created = await setDialog(alice, {
      prompt_config: pc('Answer with {knowledge}', [{ key: 'knowledge', optional: true }]),
    });
    expect(created.body.code).toBe(0);
    const id = (created.body.data as Dialog).id;
    const refused = await setDialog(alice, {
      dialog_id: id,
      kb_ids: [],
      prompt_config: pc('Answer with {knowledge}', [{ key: 'knowledge', optional: true }]),
    });
    expect(refused.body).toMatchObject({
      code: 102,
      message: 'Please remove `{knowledge}` in system prompt since no dataset / web search used here.',
    });
    const web = await setDialog(alice, {
      dialog_id: id,
      prompt_config: {
        ...pc('Answer with {knowledge}', [{ key: 'knowledge', optional: true }]),
        tavily_api_key: 'tvly-x',
      },
    });
    expect(web.body.code).toBe(0);
  });

  it('answers "Dialog not found!" for unknown and foreign dialogs', async () => {
    const mine = (await setDialog(alice, { prompt_config: pc() })).body.data as Dialog;
    for (const id of ['0'.repeat(32), mine.id]) {
      const res = await setDialog(bob, { dialog_id: id, name: 'hijack', prompt_config: pc() });
      expect(res.body).toMatchObject({ code: 102, message: 'Dialog not found!' });
      const get = await call(server, `/v1/dialog/get?dialog_id=${id}`, { token: bob.token });
      expect(get.body).toMatchObject({ code: 102, message: 'Dialog not found!' });
    }
    expect((await call(server, '/v1/dialog/get', { token: bob.token })).body).toMatchObject({
      code: 101,
      message: 'required argument are missing: dialog_id; ',
    });
  });
});

describe('listing and removal', () => {
  it('lists the caller’s dialogs newest first with only live knowledge bases', async () => {
    const user = await newUser(server, 'lister');
    const kb1 = await createKb(user, 'live-kb');
    const kb2 = await createKb(user, 'doomed-kb');
    const first = (
      await setDialog(user, { name: 'first', kb_ids: [kb1, kb2], prompt_config: pc('{knowledge}') })
    ).body.data as Dialog;
    await new Promise((r) => setTimeout(r, 5));
    const second = (await setDialog(user, { name: 'second', prompt_config: pc() })).body.data as Dialog;
    const rm = await call(server, '/v1/kb/rm', { token: user.token, body: { kb_id: kb2 } });
    expect(rm.body.code).toBe(0);

    const list = await call<Dialog[]>(server, '/v1/dialog/list', { token: user.token });
    const rows = list.body.data as Dialog[];
    expect(rows.map((d) => d.id)).toEqual([second.id, first.id]);
    expect(rows[1]).toMatchObject({ kb_ids: [kb1], kb_names: ['live-kb'] });
    const get = (await call<Dialog>(server, `/v1/dialog/get?dialog_id=${first.id}`, { token: user.token }))
      .body.data as Dialog;
    expect(get).toMatchObject({ kb_ids: [kb1], kb_names: ['live-kb'] });
  });

  it('pages and filters dialog/next, never showing another tenant’s dialogs', async () => {
    const user = await newUser(server, 'pager');
    for (const name of ['alpha one', 'beta two', 'alpha three'])
      await setDialog(user, { name, prompt_config: pc() });
    const all = await call<{ dialogs: Dialog[]; total: number }>(server, '/v1/dialog/next', {
      token: user.token,
      body: {},
    });
    expect(all.body.data?.total).toBe(3);
    expect(all.body.data?.dialogs[0]).toMatchObject({ name: 'alpha three', nickname: 'pager' });
    expect(Object.keys(all.body.data?.dialogs[0] ?? {})).toContain('tenant_avatar');
    const filtered = await call<{ dialogs: Dialog[]; total: number }>(
      server,
      '/v1/dialog/next?keywords=ALPHA&page=1&page_size=1&orderby=create_time&desc=false',
      { token: user.token, body: {} },
    );
    expect(filtered.body.data?.total).toBe(2);
    expect(filtered.body.data?.dialogs.map((d) => d.name)).toEqual(['alpha one']);
    const foreign = await call<{ dialogs: Dialog[]; total: number }>(server, '/v1/dialog/next', {
      token: user.token,
      body: { owner_ids: [alice.id] },
    });
    expect(foreign.body.data).toEqual({ dialogs: [], total: 0 });
  });

  it('soft-deletes the owner’s dialogs and refuses others (103), all or nothing', async () => {
    const d1 = (await setDialog(alice, { name: 'rm me', prompt_config: pc() })).body.data as Dialog;
    const d2 = (await setDialog(bob, { name: 'not yours', prompt_config: pc() })).body.data as Dialog;
    const refused = await call(server, '/v1/dialog/rm', {
      token: alice.token,
      body: { dialog_ids: [d1.id, d2.id] },
    });
    expect(refused.body).toMatchObject({
      code: 103,
      message: 'Only owner of dialog authorized for this operation.',
      data: false,
    });
    expect((await call(server, `/v1/dialog/get?dialog_id=${d1.id}`, { token: alice.token })).body.code).toBe(
      0,
    );
    const unknown = await call(server, '/v1/dialog/remove', {
      token: alice.token,
      body: { dialog_ids: ['1'.repeat(32)] },
    });
    expect(unknown.body.code).toBe(103);
    const done = await call(server, '/v1/dialog/remove', {
      token: alice.token,
      body: { dialog_ids: [d1.id] },
    });
    expect(done.body).toEqual({ code: 0, message: 'success', data: true });
    expect((await call(server, `/v1/dialog/get?dialog_id=${d1.id}`, { token: alice.token })).body.code).toBe(
      102,
    );
    const list = (await call<Dialog[]>(server, '/v1/dialog/list', { token: alice.token })).body
      .data as Dialog[];
    expect(list.some((d) => d.id === d1.id)).toBe(false);
  });

  it('offers no public agents until canvases exist', async () => {
    const res = await call(server, '/v1/dialog/list-public-agent', { token: alice.token });
    expect(res.body).toEqual({ code: 0, message: 'success', data: [] });
  });

  it('needs a login', async () => {
    const res = await call(server, '/v1/dialog/list');
    expect(res.status).toBe(401);
  });
});
