/**
 * The OpenAI-compatible agent route through the official `openai` client (plain and streamed, with
 * the reference chunks of a Retrieval tool), its refusals, and the embed bots (`chatbots`,
 * `agentbots`) with the beta token — another tenant's beta token is refused like an unknown id.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, newUser, startTestServer, type TestServer, type TestUser } from '../../../test/harness.js';
import { startOpenAIStandin, type Standin } from '../../../test/standins/index.js';
import { parseSse } from '../../chat/sse.js';
import { parseJson } from '../../db/json.js';
import { CHAT_MODEL, createKb, seedChunks, wireModels } from '../../chat/test-fixtures.js';
import {
  answerText,
  editorDsl,
  llmParams,
  postRun,
  simpleFlow,
  toolAwareReply,
  trail,
} from '../canvas/test-support.js';
import { api } from './test-support.js';

let server: TestServer;
let llm: Standin;
let alice: TestUser;
let bob: TestUser;
const keys: Record<string, { token: string; beta: string }> = {};
let echoId: string;
let researcherId: string;
let kbId: string;

async function keysOf(user: TestUser) {
  const res = await call<{ token: string; beta: string }>(server, '/v1/system/new_token', {
    method: 'POST',
    token: user.token,
  });
  return res.body.data!;
}

beforeAll(async () => {
  // After a tool result the answer cites the first chunk (`[ID:0]`), which puts the reference on `message_end`.
  llm = await startOpenAIStandin({
    reply: (b) => {
      const r = toolAwareReply(b);
      return b.messages.some((m) => m.role === 'tool') ? { ...r, content: `${r.content} [ID:0]` } : r;
    },
  });
  server = await startTestServer({ MODEL_MAX_RETRIES: '0' });
  alice = await newUser(server, 'alice');
  bob = await newUser(server, 'bob');
  await wireModels(server, alice, llm);
  keys.alice = await keysOf(alice);
  keys.bob = await keysOf(bob);
  const dsl = simpleFlow(CHAT_MODEL);
  Object.assign((dsl.components.begin as { obj: { params: Record<string, unknown> } }).obj.params, {
    prologue: 'Hello, visitor!',
    inputs: { lang: { type: 'line', name: 'Language', optional: true } },
  });
  const echo = await api<{ id: string }>(server, keys.alice.token, 'POST', '/api/v1/agents', {
    title: 'Echo',
    dsl,
  });
  echoId = echo.data!.id;
  kbId = await createKb(server, alice, 'Facts');
  await seedChunks(server, kbId, alice.id, [
    { content: 'The Loire is the longest river in France.', doc: 'rivers.txt' },
  ]);
  const researcher = editorDsl([
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
  const made = await api<{ id: string }>(server, keys.alice.token, 'POST', '/api/v1/agents', {
    title: 'Researcher',
    dsl: researcher,
  });
  researcherId = made.data!.id;
});

afterAll(async () => {
  await server?.close();
  await llm?.close();
});

describe('/api/v1/agents_openai through the openai client', () => {
  it('answers chat.completion and streamed chunks ending with usage', async () => {
    const client = new OpenAI({
      apiKey: keys.alice.token,
      baseURL: `${server.url}/api/v1/agents_openai/${echoId}`,
    });
    const completion = await client.chat.completions.create({
      model: 'my-agent',
      messages: [{ role: 'user', content: 'hello agent' }],
      stream: false,
    });
    expect(completion.object).toBe('chat.completion');
    expect(completion.model).toBe('my-agent');
    expect(completion.choices[0]).toMatchObject({ index: 0, finish_reason: 'stop' });
    expect(completion.choices[0].message.content).toContain('You said: hello agent');
    expect(completion.usage!.total_tokens).toBe(
      completion.usage!.prompt_tokens + completion.usage!.completion_tokens,
    );
    expect(completion.usage!.completion_tokens).toBeGreaterThan(0);

    const stream = await client.chat.completions.create({
      model: 'my-agent',
      messages: [
        { role: 'system', content: 'ignored' },
        { role: 'user', content: 'streamed question' },
      ],
      stream: true,
    });
    const chunks: OpenAI.ChatCompletionChunk[] = [];
    for await (const ch of stream) chunks.push(ch);
    const text = chunks.map((ch) => ch.choices[0]?.delta?.content ?? '').join('');
    expect(text).toContain('You said: streamed question');
    expect(chunks.every((ch) => ch.object === 'chat.completion.chunk')).toBe(true);
    const last = chunks.at(-1)!;
    expect(last.choices[0].finish_reason).toBe('stop');
    expect(last.usage!.total_tokens).toBeGreaterThan(0);
    expect(chunks.slice(0, -1).every((ch) => ch.usage === null)).toBe(true);
  });

  it('gives the Retrieval tool chunks with extra_body.reference, streamed and not', async () => {
    const client = new OpenAI({
      apiKey: keys.alice.token,
      baseURL: `${server.url}/api/v1/agents_openai/${researcherId}`,
    });
    const plain = await client.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'longest river France' }],
      stream: false,
      extra_body: { reference: true, reference_metadata: { include: true } },
    } as OpenAI.ChatCompletionCreateParamsNonStreaming);
    expect(plain.choices[0].message.content).toContain('Loire');
    const reference = (plain.choices[0].message as unknown as { reference: Array<Record<string, unknown>> })
      .reference;
    expect(reference[0]).toMatchObject({
      dataset_id: kbId,
      document_name: 'rivers.txt',
      document_metadata: {},
    });
    expect(String(reference[0].content)).toContain('Loire');

    const stream = await client.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'longest river France' }],
      stream: true,
      extra_body: { reference: true },
    } as OpenAI.ChatCompletionCreateParamsStreaming);
    const chunks: OpenAI.ChatCompletionChunk[] = [];
    for await (const ch of stream) chunks.push(ch);
    const delta = chunks.at(-1)!.choices[0].delta as unknown as { reference: Array<Record<string, unknown>> };
    expect(delta.reference[0]).toMatchObject({ dataset_id: kbId, document_name: 'rivers.txt' });
    expect(delta.reference[0]).not.toHaveProperty('document_metadata');
  });

  it('continues a session with session_id; the raw stream ends with data:[DONE]', async () => {
    const session = await api<{ id: string }>(
      server,
      keys.alice.token,
      'POST',
      `/api/v1/agents/${echoId}/sessions`,
      {},
    );
    const res = await fetch(`${server.url}/api/v1/agents_openai/${echoId}/chat/completions`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${keys.alice.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        model: 'm',
        messages: [{ role: 'user', content: 'in session' }],
        session_id: session.data!.id,
      }),
    });
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect((await res.text()).endsWith('data:[DONE]\n\n')).toBe(true);
    const [listed] = (
      await api<Array<{ messages: Array<{ content: string }> }>>(
        server,
        keys.alice.token,
        'GET',
        `/api/v1/agents/${echoId}/sessions?id=${session.data!.id}`,
      )
    ).data!;
    expect(listed.messages.map((m) => m.content)).toEqual([
      'in session',
      expect.stringContaining('in session'),
    ]);
  });

  it('refuses as chats_openai does, and foreign agents', async () => {
    const route = `/api/v1/agents_openai/${echoId}/chat/completions`;
    const key = keys.alice.token;
    expect(await api(server, key, 'POST', route, { messages: [] })).toMatchObject({
      code: 102,
      message: 'You have to provide messages.',
    });
    expect(
      await api(server, key, 'POST', route, { messages: [{ role: 'assistant', content: 'x' }] }),
    ).toMatchObject({
      code: 102,
      message: 'The last content of this conversation is not from user.',
    });
    expect(
      await api(server, key, 'POST', route, { messages: [{ role: 'user', content: 'x' }], extra_body: [] }),
    ).toMatchObject({ code: 102, message: 'extra_body must be an object.' });
    expect(
      await api(server, keys.bob.token, 'POST', route, { messages: [{ role: 'user', content: 'x' }] }),
    ).toMatchObject({ code: 102, message: `You don't own the agent ${echoId}` });
    expect(await api(server, 'lectern-nope', 'POST', route, { messages: [] })).toMatchObject({ code: 109 });
  });
});

describe('embed bots with the beta token', () => {
  it('chatbots: info, a new session per first question, then the session continued', async () => {
    const chat = await api<{ id: string }>(server, keys.alice.token, 'POST', '/api/v1/chats', {
      name: 'Embedded',
      prompt: { opener: 'Ask me anything.' },
    });
    const id = chat.data!.id;
    const beta = keys.alice.beta;
    expect(await api(server, beta, 'GET', `/api/v1/chatbots/${id}/info`)).toEqual({
      code: 0,
      data: { title: 'Embedded', avatar: '', prologue: 'Ask me anything.', has_tavily_key: false },
    });
    const first = await api<{ answer: string; session_id: string }>(
      server,
      beta,
      'POST',
      `/api/v1/chatbots/${id}/completions`,
      {
        question: 'first question',
        stream: false,
      },
    );
    expect(first.code, first.message).toBe(0);
    expect(first.data!.answer).toContain('first question');
    const res = await fetch(`${server.url}/api/v1/chatbots/${id}/completions`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${beta}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ question: 'second question', session_id: first.data!.session_id }),
    });
    const events = parseSse(await res.text()) as Array<{
      code: number;
      data: { answer?: string; session_id?: string } | true;
    }>;
    expect(events.at(-1)).toEqual({ code: 0, message: '', data: true });
    expect(
      events
        .slice(0, -1)
        .every(
          (e) => e.code === 0 && (e.data as { session_id: string }).session_id === first.data!.session_id,
        ),
    ).toBe(true);
    const stored = await server.ctx.db.kysely
      .selectFrom('api_4_conversation')
      .select(['message', 'round'])
      .where('id', '=', first.data!.session_id)
      .executeTakeFirstOrThrow();
    expect(stored.round).toBe(2);
    expect(parseJson<Array<{ role: string }>>(stored.message, []).map((m) => m.role)).toEqual([
      'assistant',
      'user',
      'assistant',
      'user',
      'assistant',
    ]);

    const route = `/api/v1/chatbots/${id}/completions`;
    expect(await api(server, beta, 'POST', route, { question: '' })).toMatchObject({
      code: 102,
      message: '`question` is required.',
    });
    expect(await api(server, beta, 'POST', route, { question: 'x', session_id: 'nope' })).toMatchObject({
      code: 102,
      message: 'Session not found!',
    });
    expect(await api(server, keys.bob.beta, 'POST', route, { question: 'x' })).toMatchObject({
      code: 102,
      message: 'Dialog not found!',
    });
    expect(await api(server, keys.bob.beta, 'GET', `/api/v1/chatbots/${id}/info`)).toMatchObject({
      code: 102,
      message: `Can't find dialog by ID: ${id}`,
    });
    // The API key itself is not a beta token; a one-part header is refused.
    expect(await api(server, keys.alice.token, 'GET', `/api/v1/chatbots/${id}/info`)).toMatchObject({
      code: 102,
      message: 'Authentication error: API key is invalid!',
    });
    const onePart = await call(server, `/api/v1/chatbots/${id}/info`, { headers: { Authorization: beta } });
    expect(onePart.body).toMatchObject({ code: 102, message: 'Authorization is not valid!' });
  });

  it('agentbots: the Begin inputs, and a turn streaming every event with its session', async () => {
    const beta = keys.alice.beta;
    expect(await api(server, beta, 'GET', `/api/v1/agentbots/${echoId}/inputs`)).toEqual({
      code: 0,
      data: {
        title: 'Echo',
        avatar: null,
        inputs: { lang: { type: 'line', name: 'Language', optional: true } },
        prologue: 'Hello, visitor!',
        mode: 'conversational',
      },
    });
    const route = `/api/v1/agentbots/${echoId}/completions`;
    const r = await postRun(
      server,
      route,
      { question: 'embedded hello', inputs: { lang: { value: 'en' } } },
      `Bearer ${beta}`,
    );
    expect(trail(r.frames)[0]).toBe('workflow_started');
    expect(trail(r.frames).at(-1)).toBe('workflow_finished');
    expect(answerText(r.frames)).toContain('You said: embedded hello');
    const sessionId = r.frames[0].session_id as string;
    expect(r.frames.every((f) => f.session_id === sessionId)).toBe(true);
    const plain = await api<{ data: { content: string } }>(server, beta, 'POST', route, {
      question: 'again',
      session_id: sessionId,
      stream: false,
    });
    expect(plain.data!.data.content).toContain('You said: again');
    expect(await api(server, keys.bob.beta, 'POST', route, { question: 'x', stream: false })).toMatchObject({
      code: 102,
      message: `Can't find agent by ID: ${echoId}`,
    });
    expect(await api(server, keys.bob.beta, 'GET', `/api/v1/agentbots/${echoId}/inputs`)).toMatchObject({
      code: 102,
      message: `Can't find agent by ID: ${echoId}`,
    });
    expect(await api(server, 'unknown-beta', 'GET', `/api/v1/agentbots/${echoId}/inputs`)).toMatchObject({
      code: 102,
      message: 'Authentication error: API key is invalid!',
    });
  });
});
