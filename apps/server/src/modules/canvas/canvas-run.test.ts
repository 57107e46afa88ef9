/**
 * Agent runs over HTTP with the OpenAI stand-in: the editor's Run (`completion`), sessions
 * (`<id>/completion` with `return_trace`), the RAGFlow v0.24 example DSL run unchanged, malformed
 * DSLs, foreign canvases, a model error mid-run, a runaway loop, cancel, trace replay, uploads and
 * debug of one component.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import imageLingo from '../../../../../packages/agent-core/test/fixtures/image_lingo.json' with { type: 'json' };
import { call, newUser, startTestServer, type TestServer, type TestUser } from '../../../test/harness.js';
import { startOpenAIStandin, type OpenAIChatBody, type Standin } from '../../../test/standins/index.js';
import type { ChatScript } from '../../../test/standins/openai.js';
import { CHAT_MODEL, createKb, seedChunks, wireModels } from '../../chat/test-fixtures.js';
import {
  answerText,
  editorDsl,
  llmParams,
  postRun,
  saveCanvas,
  simpleFlow,
  toolAwareReply,
  trail,
} from './test-support.js';

let server: TestServer;
let llm: Standin;
let owner: TestUser;
let stranger: TestUser;
let reply: (b: OpenAIChatBody) => string | ChatScript = toolAwareReply;
let canvasId: string;

beforeAll(async () => {
  llm = await startOpenAIStandin({ reply: (b) => reply(b) });
  server = await startTestServer({ MODEL_MAX_RETRIES: '0' });
  owner = await newUser(server, 'builder');
  stranger = await newUser(server, 'stranger');
  await wireModels(server, owner, llm);
  canvasId = (await saveCanvas(server, owner, { title: 'Echo', dsl: simpleFlow(CHAT_MODEL) })).id;
});

afterAll(async () => {
  await server?.close();
  await llm?.close();
});

async function canvasDsl(id = canvasId) {
  const res = await call<{ dsl: Record<string, unknown> }>(server, `/v1/canvas/get/${id}`, {
    token: owner.token,
  });
  return res.body.data!.dsl as { history: unknown[]; path: string[]; globals: Record<string, unknown> };
}

describe('POST /v1/canvas/completion', () => {
  it('streams the run events bare and saves the turn into the canvas', async () => {
    reply = toolAwareReply;
    const r = await postRun(
      server,
      '/v1/canvas/completion',
      { id: canvasId, query: 'hello there' },
      owner.token,
    );
    expect(r.contentType).toBe('text/event-stream; charset=utf-8');
    expect(trail(r.frames)).toEqual([
      'workflow_started',
      'node_started:begin',
      'node_finished:begin',
      'node_started:LLM:Writer',
      'node_started:Message:Reply',
      ...trail(r.frames.filter((f) => f.event === 'message')),
      'message_end',
      'node_finished:LLM:Writer',
      'node_finished:Message:Reply',
      'workflow_finished',
    ]);
    expect(answerText(r.frames)).toContain('You said: hello there');
    const ids = new Set(r.frames.map((f) => f.message_id));
    expect(ids.size).toBe(1);
    const dsl = await canvasDsl();
    expect(dsl.history).toEqual([
      ['user', 'hello there'],
      ['assistant', expect.objectContaining({ content: expect.stringContaining('hello there') })],
    ]);
    expect(dsl.globals['sys.query']).toBe('hello there');
  });

  it('the run log replays the events (trace) and the task row ended', async () => {
    const r = await postRun(server, '/v1/canvas/completion', { id: canvasId, query: 'again' }, owner.token);
    const first = r.frames[0] as { message_id: string; task_id: string };
    const trace = await call<{ events: unknown[]; status: string; task_id: string }>(
      server,
      `/v1/canvas/trace?canvas_id=${canvasId}&message_id=${first.message_id}`,
    );
    expect(trace.body.data!.status).toBe('finished');
    expect(trace.body.data!.events).toEqual(r.frames);
    const task = await server.ctx.db.kysely
      .selectFrom('task')
      .selectAll()
      .where('id', '=', first.task_id)
      .executeTakeFirstOrThrow();
    expect(task).toMatchObject({ kind: 'agent_run', progress: 1 });
    const none = await call(server, `/v1/canvas/trace?canvas_id=${canvasId}&message_id=nope`);
    expect(none.body).toMatchObject({ code: 0, data: {} });
  });

  it('runs the RAGFlow v0.24 example DSL exactly as saved (unknown model → default, with a note)', async () => {
    const saved = await saveCanvas(server, owner, { title: 'ImageLingo', dsl: imageLingo.dsl });
    const r = await postRun(
      server,
      '/v1/canvas/completion',
      { id: saved.id, query: 'menu words' },
      owner.token,
    );
    const t = trail(r.frames);
    expect(t[0]).toBe('workflow_started');
    expect(t.at(-1)).toBe('workflow_finished');
    expect(t).toContain('node_finished:Agent:CoolPandasCrash');
    const agentDone = r.frames.find(
      (f) =>
        f.event === 'node_finished' &&
        (f.data as { component_id: string }).component_id === 'Agent:CoolPandasCrash',
    )!.data as { note?: string; error: string | null };
    expect(agentDone.error).toBeNull();
    expect(agentDone.note).toContain(CHAT_MODEL);
    expect(answerText(r.frames)).toContain('menu words');
  });

  it('an Agent calls a Retrieval tool through function calling and cites the KB', async () => {
    const kbId = await createKb(server, owner, 'Facts');
    await seedChunks(server, kbId, owner.id, [
      { content: 'The Loire is the longest river in France.', doc: 'rivers.txt' },
    ]);
    const dsl = editorDsl([
      { id: 'begin', name: 'begin', downstream: ['Agent:Researcher'] },
      {
        id: 'Agent:Researcher',
        name: 'Researcher',
        params: {
          ...llmParams(CHAT_MODEL, '{sys.query}'),
          max_rounds: 2,
          tools: [
            {
              component_name: 'Retrieval',
              name: 'Retrieval',
              params: { kb_ids: [kbId], description: 'Facts' },
            },
          ],
        },
        downstream: ['Message:Out'],
      },
      { id: 'Message:Out', name: 'Out', params: { content: ['{Agent:Researcher@content}'] } },
    ]);
    const saved = await saveCanvas(server, owner, { title: 'Researcher', dsl });
    reply = toolAwareReply;
    const r = await postRun(
      server,
      '/v1/canvas/completion',
      { id: saved.id, query: 'longest river France' },
      owner.token,
    );
    expect(trail(r.frames).at(-1)).toBe('workflow_finished');
    expect(answerText(r.frames)).toContain('Loire');
    const calls = llm.modelCalls().map((c) => c.body as OpenAIChatBody);
    const withTools = calls.filter((b) => Array.isArray(b.tools));
    expect(withTools.length).toBeGreaterThanOrEqual(2);
    expect(withTools.at(-1)!.messages.some((m) => m.role === 'tool')).toBe(true);
  });

  it('a model error mid-run ends with the error event and saves nothing', async () => {
    const before = await canvasDsl();
    llm.fail('500', 1);
    const r = await postRun(server, '/v1/canvas/completion', { id: canvasId, query: 'fail me' }, owner.token);
    const last = r.frames.at(-1)!;
    expect(last).toMatchObject({ code: 500, data: false });
    expect(String(last.message)).toMatch(/Writer/);
    expect(trail(r.frames)).toContain('node_finished:LLM:Writer!');
    expect(await canvasDsl()).toEqual(before);
    const first = r.frames[0] as { message_id: string };
    const log = await call<{ status: string }>(
      server,
      `/v1/canvas/trace?canvas_id=${canvasId}&message_id=${first.message_id}`,
    );
    expect(log.body.data!.status).toBe('error');
  });

  it('a runaway loop stops at the component loop limit with a message', async () => {
    const dsl = editorDsl([
      { id: 'begin', name: 'begin', downstream: ['LLM:Retrier'] },
      {
        id: 'LLM:Retrier',
        name: 'Retrier',
        params: llmParams(CHAT_MODEL, 'x', {
          loop_limit: 3,
          exception_method: 'goto',
          exception_goto: ['Concentrator:Again'],
        }),
      },
      { id: 'Concentrator:Again', name: 'Again', downstream: ['LLM:Retrier'] },
    ]);
    // Its own stand-in, failing every call, so no fault is left over for the other tests.
    const failing = await startOpenAIStandin();
    const user = await newUser(server, 'looper');
    await wireModels(server, user, failing);
    failing.fail('500', 100);
    const saved = await saveCanvas(server, user, { title: 'Loop', dsl });
    const r = await postRun(server, '/v1/canvas/completion', { id: saved.id, query: 'go' }, user.token);
    await failing.close();
    expect(trail(r.frames).filter((t) => t === 'node_started:LLM:Retrier')).toHaveLength(4);
    expect(trail(r.frames).at(-1)).toBe(
      'error:Retrier: Retrier reached its loop limit of 3 runs; the run stops here',
    );
  });

  it('refuses a canvas the caller cannot access, an unknown one, and a malformed saved DSL', async () => {
    const foreign = await postRun(
      server,
      '/v1/canvas/completion',
      { id: canvasId, query: 'x' },
      stranger.token,
    );
    expect(foreign.json).toMatchObject({
      code: 103,
      message: 'Only owner of canvas authorized for this operation.',
    });
    const unknown = await postRun(
      server,
      '/v1/canvas/completion',
      { id: 'f'.repeat(32), query: 'x' },
      owner.token,
    );
    expect(unknown.json).toMatchObject({ code: 102, message: 'canvas not found.' });
    // A DSL that went bad in storage (set refuses it): the run answers a JSON error naming the component.
    const bad = await saveCanvas(server, owner, { title: 'Soon bad', dsl: simpleFlow(CHAT_MODEL) });
    const broken = simpleFlow(CHAT_MODEL) as { components: Record<string, { downstream: string[] }> };
    broken.components['LLM:Writer'].downstream = ['Message:Gone'];
    await server.ctx.db.kysely
      .updateTable('user_canvas')
      .set({ dsl: JSON.stringify(broken) })
      .where('id', '=', bad.id)
      .execute();
    const r = await postRun(server, '/v1/canvas/completion', { id: bad.id, query: 'x' }, owner.token);
    expect(r.json?.code).toBe(102);
    expect(r.json?.message).toContain('Writer');
  });

  it('cancel stops a running run; the canvas keeps its DSL', async () => {
    const slow = await startOpenAIStandin({ chunkDelayMs: 200, reply: () => 'one two three four five six' });
    const user = await newUser(server, 'canceller');
    await wireModels(server, user, slow);
    const saved = await saveCanvas(server, user, { title: 'Slow', dsl: simpleFlow(CHAT_MODEL) });
    const res = await fetch(`${server.url}/v1/canvas/completion`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: user.token },
      body: JSON.stringify({ id: saved.id, query: 'slowly' }),
    });
    const reader = res.body!.getReader();
    const first = JSON.parse(
      new TextDecoder()
        .decode((await reader.read()).value)
        .split('\n\n')[0]
        .slice(5),
    ) as {
      task_id: string;
      message_id: string;
    };
    const cancel = await call(server, `/v1/canvas/cancel/${first.task_id}`, {
      method: 'PUT',
      token: user.token,
    });
    expect(cancel.body).toMatchObject({ code: 0, data: true });
    let rest = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read())
      rest += new TextDecoder().decode(chunk.value);
    expect(rest).toContain('Task has been canceled');
    const log = await call<{ status: string }>(
      server,
      `/v1/canvas/trace?canvas_id=${saved.id}&message_id=${first.message_id}`,
    );
    expect(log.body.data!.status).toBe('cancelled');
    const kept = await call<{ dsl: { history: unknown[] } }>(server, `/v1/canvas/get/${saved.id}`, {
      token: user.token,
    });
    expect(kept.body.data!.dsl.history).toEqual([]);
    const other = await call(server, `/v1/canvas/cancel/${first.task_id}`, {
      method: 'PUT',
      token: stranger.token,
    });
    expect(other.body.code).toBe(103);
    await slow.close();
  });

  it('a client that disconnects does not stop the run: it finishes, saves, and trace has it all', async () => {
    const slow = await startOpenAIStandin({ chunkDelayMs: 30, reply: () => 'alpha beta gamma delta' });
    const user = await newUser(server, 'leaver');
    await wireModels(server, user, slow);
    const saved = await saveCanvas(server, user, { title: 'Leave', dsl: simpleFlow(CHAT_MODEL) });
    const controller = new AbortController();
    const res = await fetch(`${server.url}/v1/canvas/completion`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: user.token },
      body: JSON.stringify({ id: saved.id, query: 'bye' }),
      signal: controller.signal,
    });
    const reader = res.body!.getReader();
    const first = JSON.parse(
      new TextDecoder()
        .decode((await reader.read()).value)
        .split('\n\n')[0]
        .slice(5),
    ) as {
      task_id: string;
      message_id: string;
    };
    controller.abort();
    await server.ctx.agents.runs.get(first.task_id)?.finished;
    const log = await call<{ status: string; events: Array<{ event?: string }> }>(
      server,
      `/v1/canvas/trace?canvas_id=${saved.id}&message_id=${first.message_id}`,
    );
    expect(log.body.data!.status).toBe('finished');
    expect(log.body.data!.events.at(-1)!.event).toBe('workflow_finished');
    const got = await call<{ dsl: { history: unknown[] } }>(server, `/v1/canvas/get/${saved.id}`, {
      token: user.token,
    });
    expect(got.body.data!.dsl.history).toHaveLength(2);
    await slow.close();
  });
});

describe('POST /v1/canvas/<id>/completion (sessions)', () => {
  it('forwards only message/message_end, ends with [DONE], and keeps the turn in the session', async () => {
    reply = toolAwareReply;
    const r = await postRun(
      server,
      `/v1/canvas/${canvasId}/completion`,
      { question: 'first turn' },
      owner.token,
    );
    expect([...new Set(trail(r.frames))]).toEqual(['message', 'message_end', '[DONE]']);
    const sessionId = r.frames[0].session_id as string;
    expect(sessionId).toBeTruthy();
    const again = await postRun(
      server,
      `/v1/canvas/${canvasId}/completion`,
      { query: 'second turn', session_id: sessionId, return_trace: true },
      owner.token,
    );
    const finished = again.frames.filter((f) => f.event === 'node_finished');
    expect(finished.map((f) => (f.data as { component_id: string }).component_id)).toEqual([
      'begin',
      'LLM:Writer',
      'Message:Reply',
    ]);
    expect((finished.at(-1)!.data as { trace: unknown[] }).trace).toHaveLength(3);
    const s = await call<{
      message: Array<{ role: string; content: string }>;
      round: number;
      reference: unknown[];
    }>(server, `/v1/canvas/${canvasId}/sessions/${sessionId}`, { token: owner.token });
    expect(s.body.data!.round).toBe(2);
    expect(s.body.data!.message.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(s.body.data!.message[3].content).toContain('second turn');
    expect(s.body.data!.reference).toHaveLength(2);
  });

  it('another tenant cannot run a session of the canvas', async () => {
    const r = await postRun(server, `/v1/canvas/${canvasId}/completion`, { query: 'x' }, stranger.token);
    expect(r.json).toMatchObject({ code: 103 });
  });
});

describe('upload, debug, input forms', () => {
  it('uploads a file and a run reads it through a file input', async () => {
    const form = new FormData();
    form.append('file', new Blob(['The secret word is heliotrope.'], { type: 'text/plain' }), 'note.txt');
    const up = await fetch(`${server.url}/v1/canvas/upload/${canvasId}`, { method: 'POST', body: form });
    const body = (await up.json()) as { code: number; data: { id: string; name: string; size: number } };
    expect(body).toMatchObject({ code: 0, data: { name: 'note.txt', size: 30, extension: 'txt' } });
    const dsl = editorDsl([
      {
        id: 'begin',
        name: 'begin',
        params: { mode: 'task', inputs: { doc: { name: 'Document', type: 'file', optional: false } } },
        downstream: ['Message:Show'],
      },
      { id: 'Message:Show', name: 'Show', params: { content: ['Doc: {begin@doc}'] } },
    ]);
    const saved = await saveCanvas(server, owner, { title: 'Reader', dsl });
    const r = await postRun(
      server,
      '/v1/canvas/completion',
      {
        id: saved.id,
        inputs: { doc: { name: 'Document', type: 'file', optional: false, value: [body.data] } },
      },
      owner.token,
    );
    expect(answerText(r.frames)).toContain('heliotrope');
    const none = await fetch(`${server.url}/v1/canvas/upload/${'0'.repeat(32)}`, {
      method: 'POST',
      body: form,
    });
    expect(await none.json()).toMatchObject({ code: 102, message: 'canvas not found.' });
  });

  it('debug runs one component with given inputs; input_elements and input_form list what it reads', async () => {
    const els = await call<Array<{ key: string }>>(
      server,
      `/v1/canvas/input_elements?id=${canvasId}&component_id=LLM:Writer`,
      { token: owner.token },
    );
    expect(els.body.data!.map((e) => e.key)).toEqual(['sys.query']);
    const form = await call<Record<string, { type: string }>>(
      server,
      `/v1/canvas/input_form?id=${canvasId}&component_id=LLM:Writer`,
      { token: owner.token },
    );
    expect(Object.keys(form.body.data!)).toEqual(['sys.query']);
    const dbg = await call<{ content: string }>(server, '/v1/canvas/debug', {
      token: owner.token,
      body: { id: canvasId, component_id: 'LLM:Writer', params: { 'sys.query': { value: 'debug text' } } },
    });
    expect(dbg.body.code).toBe(0);
    expect(dbg.body.data!.content).toContain('debug text');
    const foreign = await call(server, '/v1/canvas/debug', {
      token: stranger.token,
      body: { id: canvasId, component_id: 'LLM:Writer', params: {} },
    });
    expect(foreign.body.code).toBe(103);
  });
});
