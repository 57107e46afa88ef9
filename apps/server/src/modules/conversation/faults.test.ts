import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, newUser, startTestServer, type TestServer, type TestUser } from '../../../test/harness.js';
import {
  startOpenAIStandin,
  type ChatScript,
  type OpenAIChatBody,
  type Standin,
} from '../../../test/standins/index.js';
import {
  answers,
  createConversation,
  createDialog,
  createKb,
  postSse,
  seedChunks,
  wireModels,
} from '../../chat/test-fixtures.js';

let server: TestServer;
let llm: Standin;
let embed: Standin;
let tavily: http.Server;
let tavilyRequests: Array<Record<string, unknown>> = [];
let user: TestUser;
let dialogId: string;
let reply: (body: OpenAIChatBody) => string | ChatScript = () => 'Paris is the capital of France.';

type Conv = { message: unknown[]; reference: unknown[] };

async function conv(id: string): Promise<Conv> {
  return (await call<Conv>(server, `/v1/conversation/get?conversation_id=${id}`, { token: user.token })).body
    .data as Conv;
}

const question = [{ role: 'user', content: 'What is the capital of France?', id: 'q1' }];

beforeAll(async () => {
  llm = await startOpenAIStandin({ reply: (b) => reply(b) });
  embed = await startOpenAIStandin();
  // A stand-in for the Tavily search API (POST /search).
  tavily = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = JSON.parse(raw) as Record<string, unknown>;
      tavilyRequests.push(body);
      if (body.api_key !== 'tvly-good') {
        res.writeHead(401, { 'content-type': 'application/json' }).end('{"detail":{"error":"Unauthorized"}}');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          query: body.query,
          results: [
            {
              title: 'Lectern news',
              url: 'https://example.com/news',
              content: 'Lectern 2.0 was released on Monday.',
              score: 0.9,
            },
          ],
        }),
      );
    });
  });
  await new Promise<void>((r) => tavily.listen(0, '127.0.0.1', r));
  server = await startTestServer({
    MODEL_MAX_RETRIES: '0',
    MODEL_TIMEOUT_MS: '1500',
    TAVILY_BASE_URL: `http://127.0.0.1:${(tavily.address() as AddressInfo).port}`,
  });
  user = await newUser(server, 'faulty');
  await wireModels(server, user, llm, { embed });
  const kb = await createKb(server, user, 'Facts');
  await seedChunks(server, kb, user.id, [{ content: 'Paris is the capital of France.', doc: 'fr.txt' }]);
  dialogId = (await createDialog(server, user, { kb_ids: [kb], prompt_config: { system: '{knowledge}' } }))
    .id;
});

afterAll(async () => {
  await server?.close();
  await llm?.close();
  await embed?.close();
  await new Promise((r) => tavily?.close(r));
});

describe('a failing model: error event, terminator, conversation unchanged', () => {
  const cases: Array<[string, 'malformed' | 'stall' | 'hang' | '500', RegExp]> = [
    ['errors', '500', /^OpenAI-API-Compatible: 500 Internal Server Error — The server had an error/],
    ['times out', 'hang', /no answer within 1500 ms \(time limit\)/],
    ['closes the stream midway', 'malformed', /malformed response/],
    ['stalls mid-stream', 'stall', /no answer within 1500 ms \(time limit\)/],
  ];
  for (const [what, fault, message] of cases) {
    it(`when the LLM ${what}`, async () => {
      reply = () => 'Paris is the capital of France, a long answer that streams in many pieces.';
      const id = await createConversation(server, user, dialogId);
      const before = await conv(id);
      llm.fail(fault, 1);
      const r = await postSse(
        server,
        '/v1/conversation/completion',
        { conversation_id: id, messages: question },
        user.token,
      );
      expect(llm.modelCalls().at(-1)?.path).toBe('/v1/chat/completions');
      const error = r.events.find((e) => e.code === 500);
      expect(error, r.raw).toBeDefined();
      expect(error?.message).toMatch(message);
      expect(error?.data).toEqual({ answer: `**ERROR**: ${error?.message}`, reference: [] });
      expect(r.events[r.events.length - 1]).toEqual({ code: 0, message: '', data: true });
      expect(r.events.some((e) => (e.data as { final?: boolean })?.final === true)).toBe(false);
      expect(await conv(id)).toEqual(before);
    });
  }

  it('saves the question before answering and keeps what streamed when the client goes away', async () => {
    const slow = await startOpenAIStandin({
      reply: () => 'one two three four five six seven eight nine ten',
      chunkDelayMs: 100,
    });
    const other = await newUser(server, 'leaver');
    await wireModels(server, other, slow);
    const d = await createDialog(server, other, { prompt_config: { system: 'hi' } });
    const id = await createConversation(server, other, d.id);
    const get = async () =>
      (await call<Conv>(server, `/v1/conversation/get?conversation_id=${id}`, { token: other.token })).body
        .data as Conv;
    const before = await get();
    const ac = new AbortController();
    const res = await fetch(`${server.url}/v1/conversation/completion`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: other.token },
      body: JSON.stringify({ conversation_id: id, messages: [...before.message, ...question] }),
      signal: ac.signal,
    });
    const reader = res.body!.getReader();
    let seen = '';
    while (!seen.includes('"answer":"one')) seen += new TextDecoder().decode((await reader.read()).value);
    // Mid-answer (a reload would read this): the question is stored already.
    const during = await get();
    expect(during.message.at(-1)).toMatchObject({ role: 'user', id: 'q1', content: question[0]!.content });
    ac.abort();
    await expect
      .poll(async () => (await get()).message.length, { timeout: 5000, interval: 50 })
      .toBe(before.message.length + 2);
    const after = await get();
    const answer = after.message.at(-1) as { role: string; id: string; content: string };
    expect(answer).toMatchObject({ role: 'assistant', id: 'q1' });
    expect(answer.content).toMatch(/^one/);
    expect(answer.content.length).toBeLessThan('one two three four five six seven eight nine ten'.length);
    expect(after.reference).toEqual([{ chunks: [], doc_aggs: [] }]);
    await slow.close();
  });
});

describe('assistants whose sources change', () => {
  it('still answers when a knowledge base is deleted under the assistant; kb_names lists only live ones', async () => {
    const kept = await createKb(server, user, 'Kept');
    const doomed = await createKb(server, user, 'Doomed');
    await seedChunks(server, kept, user.id, [{ content: 'Rome is the capital of Italy.', doc: 'it.txt' }]);
    await seedChunks(server, doomed, user.id, [{ content: 'Rome has many fountains.', doc: 'rome.txt' }]);
    const d = await createDialog(server, user, {
      kb_ids: [kept, doomed],
      prompt_config: { system: '{knowledge}' },
    });
    expect((await call(server, '/v1/kb/rm', { token: user.token, body: { kb_id: doomed } })).body.code).toBe(
      0,
    );
    const info = await call<{ kb_ids: string[]; kb_names: string[] }>(
      server,
      `/v1/dialog/get?dialog_id=${d.id}`,
      { token: user.token },
    );
    expect(info.body.data).toMatchObject({ kb_ids: [kept], kb_names: ['Kept'] });
    reply = () => 'Rome is the capital of Italy.';
    const id = await createConversation(server, user, d.id);
    const r = await postSse(
      server,
      '/v1/conversation/completion',
      { conversation_id: id, messages: [{ role: 'user', content: 'Rome capital of Italy', id: 'q1' }] },
      user.token,
    );
    const final = answers(r).find((e) => e.final);
    expect(final?.reference.chunks.map((c) => c.document_name)).toEqual(['it.txt']);
  });

  it('answers "Dialog not found!" once the assistant is removed', async () => {
    const d = await createDialog(server, user, { prompt_config: { system: 'x' } });
    const id = await createConversation(server, user, d.id);
    await call(server, '/v1/dialog/rm', { token: user.token, body: { dialog_ids: [d.id] } });
    const res = await call(server, '/v1/conversation/completion', {
      token: user.token,
      body: { conversation_id: id, messages: question },
    });
    expect(res.body).toMatchObject({ code: 102, message: 'Dialog not found!' });
  });

  it('searches the web through Tavily when the assistant has a key, citing the page', async () => {
    tavilyRequests = [];
    const d = await createDialog(server, user, {
      prompt_config: { system: 'Use {knowledge}', tavily_api_key: 'tvly-good' },
    });
    reply = (b) => {
      const system = String(b.messages[0].content);
      return system.includes('https://example.com/news')
        ? 'Lectern 2.0 was released on Monday [ID:0].'
        : 'no web';
    };
    const id = await createConversation(server, user, d.id);
    const r = await postSse(
      server,
      '/v1/conversation/completion',
      {
        conversation_id: id,
        messages: [{ role: 'user', content: 'When was Lectern 2.0 released?', id: 'q1' }],
      },
      user.token,
    );
    const final = answers(r).find((e) => e.final);
    expect(tavilyRequests[0]).toMatchObject({
      api_key: 'tvly-good',
      query: 'When was Lectern 2.0 released?',
    });
    expect(final?.reference.chunks[0]).toMatchObject({
      url: 'https://example.com/news',
      document_name: 'Lectern news',
    });
    expect(final?.reference.doc_aggs?.[0]).toMatchObject({
      doc_name: 'Lectern news',
      url: 'https://example.com/news',
    });

    const bad = await createDialog(server, user, {
      prompt_config: { system: 'Use {knowledge}', tavily_api_key: 'tvly-bad' },
    });
    const id2 = await createConversation(server, user, bad.id);
    const r2 = await postSse(
      server,
      '/v1/conversation/completion',
      { conversation_id: id2, messages: question },
      user.token,
    );
    expect(r2.events[0]).toMatchObject({
      code: 500,
      message: 'Web search (Tavily) failed: the Tavily API key is invalid.',
    });
  });
});
