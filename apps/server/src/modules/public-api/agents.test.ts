/**
 * `/api/v1/agents…` with an API key (API.md §17): CRUD over the canvas service, sessions, and
 * completions (SSE like `/v1/canvas/<id>/completion`, or one collected answer), each with bad input
 * and another tenant's key. The agent runs against the OpenAI stand-in (Begin → LLM → Message).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newUser, startTestServer, type TestServer, type TestUser } from '../../../test/harness.js';
import { startOpenAIStandin, type Standin } from '../../../test/standins/index.js';
import { CHAT_MODEL, wireModels } from '../../chat/test-fixtures.js';
import { answerText, editorDsl, postRun, simpleFlow, trail } from '../canvas/test-support.js';
import { api, apiKeyOf } from './test-support.js';

let server: TestServer;
let llm: Standin;
let alice: TestUser;
let bob: TestUser;
let key: string;
let bobKey: string;

beforeAll(async () => {
  llm = await startOpenAIStandin();
  server = await startTestServer({ MODEL_MAX_RETRIES: '0' });
  alice = await newUser(server, 'alice');
  bob = await newUser(server, 'bob');
  await wireModels(server, alice, llm);
  key = await apiKeyOf(server, alice);
  bobKey = await apiKeyOf(server, bob);
});

afterAll(async () => {
  await server?.close();
  await llm?.close();
});

type Agent = { id: string; title: string; description: string | null; dsl: Record<string, unknown> };

async function createAgent(title: string, dsl: unknown = simpleFlow(CHAT_MODEL)): Promise<Agent> {
  const res = await api<Agent>(server, key, 'POST', '/api/v1/agents', { title, dsl });
  expect(res.code, res.message).toBe(0);
  return res.data!;
}

describe('agent CRUD', () => {
  it('creates (DSL as object or JSON text), refuses missing fields, bad DSLs and duplicate titles', async () => {
    expect(await api(server, key, 'POST', '/api/v1/agents', { title: 'x' })).toEqual({
      code: 101,
      data: false,
      message: 'No DSL data in request.',
    });
    expect(await api(server, key, 'POST', '/api/v1/agents', { dsl: simpleFlow(CHAT_MODEL) })).toEqual({
      code: 101,
      data: false,
      message: 'No title in request.',
    });
    const made = await createAgent('Writer');
    expect(made).toMatchObject({ title: 'Writer', description: null });
    expect(made.dsl).toHaveProperty('components.begin');
    const text = await api<Agent>(server, key, 'POST', '/api/v1/agents', {
      title: ' Texted ',
      dsl: JSON.stringify(simpleFlow(CHAT_MODEL)),
      description: 'from JSON text',
    });
    expect(text.data).toMatchObject({ title: 'Texted', description: 'from JSON text' });
    expect(
      await api(server, key, 'POST', '/api/v1/agents', { title: 'Writer', dsl: simpleFlow(CHAT_MODEL) }),
    ).toMatchObject({
      code: 102,
      message: 'Agent with title Writer already exists.',
    });
    const broken = await api(server, key, 'POST', '/api/v1/agents', { title: 'Broken', dsl: '{nope' });
    expect(broken).toMatchObject({ code: 102, message: 'The DSL is not valid JSON.' });
    const invalid = await api(server, key, 'POST', '/api/v1/agents', {
      title: 'Invalid',
      dsl: editorDsl([{ id: 'begin', name: 'begin', downstream: ['Nope:X'] }]),
    });
    expect(invalid.code).toBe(102);
    const titles = (await api<Agent[]>(server, key, 'GET', '/api/v1/agents')).data!.map((a) => a.title);
    expect(titles).not.toContain('Broken');
    expect(titles).not.toContain('Invalid');
    // Another tenant sees none of them.
    expect((await api<Agent[]>(server, bobKey, 'GET', '/api/v1/agents')).data).toEqual([]);
  });

  it('lists with page/page_size/orderby/desc and the exact id/title filters', async () => {
    const a = await createAgent('List A');
    const b = await createAgent('List B');
    const byTitle = await api<Agent[]>(server, key, 'GET', '/api/v1/agents?title=List%20A');
    expect(byTitle.data!.map((x) => x.id)).toEqual([a.id]);
    const byId = await api<Agent[]>(server, key, 'GET', `/api/v1/agents?id=${b.id}`);
    expect(byId.data!.map((x) => x.title)).toEqual(['List B']);
    // A page past the matches is empty, not "doesn't exist"; a page far past any table too.
    expect(await api(server, key, 'GET', '/api/v1/agents?title=List%20A&page=2')).toEqual({
      code: 0,
      data: [],
    });
    expect(await api(server, key, 'GET', '/api/v1/agents?page=1e308')).toEqual({ code: 0, data: [] });
    expect(await api(server, key, 'GET', '/api/v1/agents?title=Missing')).toMatchObject({
      code: 102,
      message: "The agent doesn't exist.",
    });
    expect(await api(server, bobKey, 'GET', `/api/v1/agents?id=${a.id}`)).toMatchObject({
      code: 102,
      message: "The agent doesn't exist.",
    });
    const asc = await api<Agent[]>(server, key, 'GET', '/api/v1/agents?orderby=title&desc=false');
    const titles = asc.data!.map((x) => x.title);
    expect(titles).toEqual([...titles].sort());
    const page2 = await api<Agent[]>(
      server,
      key,
      'GET',
      '/api/v1/agents?orderby=title&desc=false&page=2&page_size=1',
    );
    expect(page2.data!.map((x) => x.title)).toEqual([titles[1]]);
    expect(await api(server, key, 'GET', '/api/v1/agents?page=0')).toMatchObject({
      code: 100,
      message: '`page` must be a positive integer.',
    });
  });

  it('updates title, description and DSL; only the owner may change or delete', async () => {
    const agent = await createAgent('Editable');
    expect(
      await api(server, key, 'PUT', `/api/v1/agents/${agent.id}`, { title: 'Edited', description: 'd' }),
    ).toEqual({
      code: 0,
      data: true,
    });
    const dsl = simpleFlow(CHAT_MODEL);
    (dsl.components.begin as { obj: { params: Record<string, unknown> } }).obj.params.prologue = 'Welcome!';
    expect(await api(server, key, 'PUT', `/api/v1/agents/${agent.id}`, { dsl })).toEqual({
      code: 0,
      data: true,
    });
    const [now] = (await api<Agent[]>(server, key, 'GET', `/api/v1/agents?id=${agent.id}`)).data!;
    expect(now).toMatchObject({ title: 'Edited', description: 'd' });
    expect(now.dsl).toHaveProperty('components.begin.obj.params.prologue', 'Welcome!');
    const owner = { code: 103, data: false, message: 'Only owner of canvas authorized for this operation.' };
    expect(await api(server, bobKey, 'PUT', `/api/v1/agents/${agent.id}`, { title: 'Mine' })).toEqual(owner);
    expect(await api(server, key, 'PUT', '/api/v1/agents/unknown', { title: 'x' })).toEqual(owner);
    expect(await api(server, bobKey, 'DELETE', `/api/v1/agents/${agent.id}`)).toEqual(owner);
    expect(
      (await api(server, key, 'PUT', `/api/v1/agents/${agent.id}`, { dsl: { components: 3 } })).code,
    ).toBe(102);
    expect(await api(server, key, 'DELETE', `/api/v1/agents/${agent.id}`)).toEqual({ code: 0, data: true });
    expect((await api(server, key, 'GET', `/api/v1/agents?id=${agent.id}`)).code).toBe(102);
  });
});

describe('agent sessions and completions', () => {
  it('creates, lists (id filter, dsl=false) and deletes sessions; foreign agents are refused', async () => {
    const agent = await createAgent('Sessions');
    const route = `/api/v1/agents/${agent.id}/sessions`;
    const s1 = await api<{ id: string; agent_id: string; user_id: string; dsl: unknown }>(
      server,
      key,
      'POST',
      route,
      {
        name: 'first',
      },
    );
    expect(s1.data).toMatchObject({ agent_id: agent.id, name: 'first', user_id: alice.id, source: 'agent' });
    expect(s1.data!.dsl).toHaveProperty('components');
    const s2 = await api<{ id: string; user_id: string }>(
      server,
      key,
      'POST',
      `${route}?user_id=visitor`,
      {},
    );
    expect(s2.data!.user_id).toBe('visitor');
    const all = await api<Array<{ id: string }>>(server, key, 'GET', route);
    expect(all.data!.map((s) => s.id).sort()).toEqual([s1.data!.id, s2.data!.id].sort());
    const one = await api<Array<{ id: string; dsl?: unknown }>>(
      server,
      key,
      'GET',
      `${route}?id=${s1.data!.id}&dsl=false`,
    );
    expect(one.data!.map((s) => s.id)).toEqual([s1.data!.id]);
    expect(one.data![0]).not.toHaveProperty('dsl');
    const foreign = { code: 102, message: `You don't own the agent ${agent.id}` };
    expect(await api(server, bobKey, 'POST', route, {})).toMatchObject(foreign);
    expect(await api(server, bobKey, 'GET', route)).toMatchObject(foreign);
    expect(await api(server, bobKey, 'DELETE', route, { ids: null })).toMatchObject(foreign);
    expect(await api(server, key, 'DELETE', route, { ids: [s1.data!.id, 'nope'] })).toMatchObject({
      code: 102,
      message: "The agent doesn't own the session nope",
    });
    expect((await api<unknown[]>(server, key, 'GET', route)).data).toHaveLength(2);
    expect(await api(server, key, 'DELETE', route, { ids: [s1.data!.id] })).toEqual({ code: 0, data: null });
    expect((await api<unknown[]>(server, key, 'GET', route)).data).toHaveLength(1);
    expect(await api(server, key, 'DELETE', route, {})).toEqual({ code: 0, data: null });
    expect((await api<unknown[]>(server, key, 'GET', route)).data).toEqual([]);
  });

  it('streams a turn like /v1 (session frames, trace, [DONE]) and answers stream:false in one envelope', async () => {
    const agent = await createAgent('Runner');
    const route = `/api/v1/agents/${agent.id}/completions`;
    const r = await postRun(server, route, { question: 'hello agent', return_trace: true }, `Bearer ${key}`);
    expect(r.contentType).toBe('text/event-stream; charset=utf-8');
    const events = trail(r.frames);
    expect(events.at(-1)).toBe('[DONE]');
    expect(events).toContain('message_end');
    expect(events).toContain('node_finished:Message:Reply');
    expect(events).not.toContain('workflow_started');
    expect(answerText(r.frames)).toContain('You said: hello agent');
    const sessionId = r.frames[0].session_id as string;
    expect(r.frames.filter((f) => f.event).every((f) => f.session_id === sessionId)).toBe(true);
    const traced = r.frames.filter((f) => f.event === 'node_finished').at(-1)!.data as { trace: unknown[] };
    expect(traced.trace.length).toBeGreaterThanOrEqual(3);

    const plain = await api<{
      event: string;
      session_id: string;
      data: { content: string; trace?: unknown };
    }>(server, key, 'POST', route, { question: 'and again', session_id: sessionId, stream: false });
    expect(plain.code, plain.message).toBe(0);
    expect(plain.data).toMatchObject({ event: 'workflow_finished', session_id: sessionId });
    expect(plain.data!.data.content).toContain('You said: and again');
    expect(plain.data!.data).not.toHaveProperty('trace');
    const [session] = (
      await api<Array<{ messages: Array<{ role: string; content: string; reference?: unknown[] }> }>>(
        server,
        key,
        'GET',
        `/api/v1/agents/${agent.id}/sessions?id=${sessionId}`,
      )
    ).data!;
    expect(session.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(session.messages[3].reference).toEqual([]);

    expect(
      await api(server, key, 'POST', route, { question: 'x', session_id: 'nope', stream: false }),
    ).toMatchObject({
      code: 102,
      message: 'Session not found!',
    });
    expect(await api(server, bobKey, 'POST', route, { question: 'x', stream: false })).toMatchObject({
      code: 102,
      message: `You don't own the agent ${agent.id}`,
    });
    expect(await api(server, 'lectern-nope', 'POST', route, { question: 'x' })).toMatchObject({ code: 109 });
  });

  it('a failing model ends the stream with the error event and stream:false with its envelope', async () => {
    const agent = await createAgent('Failing');
    const route = `/api/v1/agents/${agent.id}/completions`;
    llm.fail('500', 1);
    const r = await postRun(server, route, { question: 'fail' }, `Bearer ${key}`);
    expect(r.frames.at(-2)).toMatchObject({ code: 500, data: false });
    expect(trail(r.frames).at(-1)).toBe('[DONE]');
    llm.fail('500', 1);
    const plain = await api(server, key, 'POST', route, { question: 'fail', stream: false });
    expect(plain.code).toBe(500);
    expect(plain.message).toMatch(/Writer/);
  });
});
