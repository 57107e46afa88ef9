import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, newUser, startTestServer, type TestServer, type TestUser } from '../../../test/harness.js';
import {
  defaultReply,
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
let user: TestUser;
let kbId: string;
let dialogId: string;
let reply: (body: OpenAIChatBody) => string | ChatScript = defaultReply;

type Conv = {
  message: Array<Record<string, unknown>>;
  reference: Array<{ chunks: unknown[]; doc_aggs: unknown[] }>;
};

const systemOf = (b: OpenAIChatBody) => String(b.messages.find((m) => m.role === 'system')?.content ?? '');

/** The knowledge ID the prompt gave the chunk containing `needle`. */
function idOf(system: string, needle: string): number {
  const block = system.split('\nID: ').find((b) => b.includes(needle));
  if (!block) throw new Error(`no chunk with "${needle}" in the prompt`);
  return Number(block.match(/^\d+/)?.[0]);
}

async function getConv(id: string): Promise<Conv> {
  return (await call<Conv>(server, `/v1/conversation/get?conversation_id=${id}`, { token: user.token })).body
    .data as Conv;
}

function ask(
  conversationId: string,
  messages: Array<Record<string, unknown>>,
  extra: Record<string, unknown> = {},
) {
  return postSse(
    server,
    '/v1/conversation/completion',
    { conversation_id: conversationId, messages, ...extra },
    user.token,
  );
}

beforeAll(async () => {
  llm = await startOpenAIStandin({ reply: (b) => reply(b) });
  server = await startTestServer({ MODEL_MAX_RETRIES: '0' });
  user = await newUser(server, 'chatter');
  await wireModels(server, user, llm);
  kbId = await createKb(server, user, 'Geography');
  await seedChunks(server, kbId, user.id, [
    { content: 'Paris is the capital of France and its largest city.', doc: 'france.txt' },
    { content: 'Berlin is the capital of Germany.', doc: 'germany.txt' },
    { content: 'The Loire is the longest river in France.', doc: 'france.txt' },
  ]);
  dialogId = (
    await createDialog(server, user, {
      name: 'Geo',
      kb_ids: [kbId],
      similarity_threshold: 0.1,
      prompt_config: {
        system: 'Answer from the knowledge.\n{knowledge}',
        empty_response: 'Nothing about that here.',
      },
    })
  ).id;
});

afterAll(async () => {
  await server?.close();
  await llm?.close();
});

describe('POST /v1/conversation/completion (SSE)', () => {
  it('streams deltas with only the new text, then the final reference, then the terminator', async () => {
    reply = (b) => `Paris is the capital of France [ID:${idOf(systemOf(b), 'Paris')}]. It is large.`;
    const conv = await createConversation(server, user, dialogId);
    const r = await ask(conv, [
      { role: 'assistant', content: "Hi! I'm your assistant." },
      { role: 'user', content: 'What is the capital of France?', id: 'q1' },
    ]);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(r.headers.get('cache-control')).toBe('no-cache');
    expect(r.headers.get('x-accel-buffering')).toBe('no');
    expect(r.raw.startsWith('data:{"code":0,"message":"","data":{"answer":')).toBe(true);
    expect(r.raw.endsWith('\n\ndata:{"code":0,"message":"","data":true}\n\n')).toBe(true);
    expect(
      r.raw
        .split('\n\n')
        .filter(Boolean)
        .every((f) => f.startsWith('data:{')),
    ).toBe(true);

    const events = answers(r);
    const deltas = events.filter((e) => !e.final);
    const final = events[events.length - 1];
    expect(deltas.length).toBeGreaterThan(3);
    const streamed = deltas.map((e) => e.answer).join('');
    expect(streamed).toMatch(/^Paris is the capital of France \[ID:\d\]\. It is large\.$/);
    for (const d of deltas) {
      expect(d).toMatchObject({
        reference: { chunks: [] },
        audio_binary: null,
        prompt: '',
        final: false,
        id: 'q1',
        session_id: conv,
      });
      expect(typeof (d as unknown as { created_at: number }).created_at).toBe('number');
    }
    expect(final).toMatchObject({ final: true, answer: '', id: 'q1', session_id: conv });
    expect(final.reference.total).toBeGreaterThanOrEqual(1);
    const cited = final.reference.chunks.find((c) => String(c.content).startsWith('Paris'));
    expect(Object.keys(cited ?? {}).sort()).toEqual(
      [
        'content',
        'dataset_id',
        'doc_type',
        'document_id',
        'document_name',
        'id',
        'image_id',
        'positions',
        'similarity',
        'term_similarity',
        'url',
        'vector_similarity',
      ].sort(),
    );
    expect(cited).toMatchObject({ document_name: 'france.txt', dataset_id: kbId });
    // doc_aggs is reduced to the cited document.
    expect(final.reference.doc_aggs).toEqual([
      { doc_name: 'france.txt', doc_id: cited?.document_id, count: expect.any(Number) },
    ]);
    expect(final.prompt).toContain('### Query:');
    expect(final.prompt).toContain('Paris is the capital of France and its largest city.');

    const stored = await getConv(conv);
    expect(stored.message).toHaveLength(3);
    expect(stored.message[1]).toEqual({ role: 'user', content: 'What is the capital of France?', id: 'q1' });
    expect(stored.message[2]).toMatchObject({ role: 'assistant', id: 'q1', content: streamed });
    expect(stored.reference).toHaveLength(1);
    expect(stored.reference[0].chunks.length).toBe(final.reference.chunks.length);
  });

  it('inserts citations when the model gives none, and normalizes malformed ones', async () => {
    reply = () => 'Berlin is the capital of Germany.';
    const conv = await createConversation(server, user, dialogId);
    await ask(conv, [{ role: 'user', content: 'Which city is the capital of Germany?', id: 'q1' }]);
    let stored = await getConv(conv);
    expect(stored.message[1].content).toMatch(/^Berlin is the capital of Germany\. \[ID:\d\]$/);

    reply = (b) =>
      `The Loire is long (ID: ${idOf(systemOf(b), 'Loire')}) and 【ID:${idOf(systemOf(b), 'Paris')}】 ref.`;
    const conv2 = await createConversation(server, user, dialogId);
    await ask(conv2, [
      { role: 'user', content: 'Tell me about the river Loire and Paris in France', id: 'q1' },
    ]);
    stored = await getConv(conv2);
    expect(stored.message[1].content).toMatch(/^The Loire is long \[ID:\d\] and \[ID:\d\] ref\.$/);
  });

  it('regenerates: a repeated completion for the same message id replaces the last answer', async () => {
    let n = 0;
    reply = () => `Answer number ${++n} about Paris.`;
    const conv = await createConversation(server, user, dialogId);
    const first = [{ role: 'user', content: 'Tell me about Paris in France', id: 'q1' }];
    await ask(conv, first);
    await ask(conv, [
      ...first,
      { role: 'assistant', content: 'Answer number 1 about Paris.', id: 'q1' },
      { role: 'user', content: 'Tell me more about Paris and France', id: 'q2' },
    ]);
    let stored = await getConv(conv);
    expect(stored.message.map((m) => m.id)).toEqual(['q1', 'q1', 'q2', 'q2']);
    expect(stored.reference).toHaveLength(2);
    // The client regenerates the last answer: same messages up to q2 again.
    await ask(conv, [
      ...first,
      { role: 'assistant', content: 'Answer number 1 about Paris.', id: 'q1' },
      { role: 'user', content: 'Tell me more about Paris and France', id: 'q2' },
    ]);
    stored = await getConv(conv);
    expect(stored.message).toHaveLength(4);
    expect(String(stored.message[3].content)).toMatch(/^Answer number 3 about Paris\./);
    expect(stored.reference).toHaveLength(2);
  });

  it('sends the empty response as the only event when retrieval finds nothing', async () => {
    const calls = llm.modelCalls().length;
    const conv = await createConversation(server, user, dialogId);
    const r = await ask(conv, [{ role: 'user', content: 'zyzzyva quokka xylophone', id: 'q1' }]);
    const events = answers(r);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      answer: 'Nothing about that here.',
      final: true,
      reference: { total: 0, chunks: [], doc_aggs: [] },
    });
    expect(r.events[1]).toEqual({ code: 0, message: '', data: true });
    expect(llm.modelCalls().filter((c) => c.path.endsWith('/chat/completions')).length).toBe(
      llm
        .modelCalls()
        .slice(0, calls)
        .filter((c) => c.path.endsWith('/chat/completions')).length,
    );
    expect((await getConv(conv)).message[1]).toMatchObject({
      role: 'assistant',
      content: 'Nothing about that here.',
    });
  });

  it('answers with one envelope when stream is false', async () => {
    reply = () => 'Berlin is the capital of Germany.';
    const conv = await createConversation(server, user, dialogId);
    const res = await call<{
      answer: string;
      reference: { chunks: unknown[] };
      id: string;
      session_id: string;
    }>(server, '/v1/conversation/completion', {
      token: user.token,
      body: {
        conversation_id: conv,
        stream: false,
        messages: [{ role: 'user', content: 'Capital of Germany?', id: 'q9' }],
      },
    });
    expect(res.body.code).toBe(0);
    expect(res.body.data?.answer).toMatch(/^Berlin is the capital of Germany\. \[ID:\d\]$/);
    expect(res.body.data).toMatchObject({ id: 'q9', session_id: conv });
    expect(res.body.data?.reference.chunks.length).toBeGreaterThan(0);
  });

  it('with llm_id overrides the model and settings and does not persist; an unusable model is refused', async () => {
    reply = (b) => `temperature=${String(b.temperature)}`;
    const conv = await createConversation(server, user, dialogId);
    const r = await ask(conv, [{ role: 'user', content: 'What about Paris and France?', id: 'q1' }], {
      llm_id: 'standin-chat@OpenAI-API-Compatible',
      temperature: 0.77,
    });
    expect(
      answers(r)
        .map((e) => e.answer)
        .join(''),
    ).toContain('temperature=0.77');
    expect((await getConv(conv)).message).toHaveLength(1);
    const refused = await call(server, '/v1/conversation/completion', {
      token: user.token,
      body: { conversation_id: conv, llm_id: 'nope@Nowhere', messages: [{ role: 'user', content: 'x' }] },
    });
    expect(refused.body).toMatchObject({ code: 102, message: 'Cannot use specified model nope@Nowhere.' });
  });

  it('fills custom prompt variables from the request', async () => {
    const d = await createDialog(server, user, {
      prompt_config: { system: 'You are a {role}.', parameters: [{ key: 'role', optional: false }] },
    });
    reply = (b) => systemOf(b);
    const conv = await createConversation(server, user, d.id);
    const r = await ask(conv, [{ role: 'user', content: 'Who are you?', id: 'q1' }], { role: 'pirate' });
    expect(
      answers(r)
        .map((e) => e.answer)
        .join(''),
    ).toContain('You are a pirate.');
    const missing = await ask(conv, [{ role: 'user', content: 'Who are you?', id: 'q2' }]);
    expect(missing.events[0]).toMatchObject({ code: 500, message: 'Miss parameter: role' });
  });
});

describe('thumbs and message deletion', () => {
  it('marks answers up or down with feedback, and deletes a question with its answer and reference', async () => {
    reply = () => 'Paris it is.';
    const conv = await createConversation(server, user, dialogId);
    const q1 = [{ role: 'user', content: 'Capital of France?', id: 'q1' }];
    await ask(conv, q1);
    await ask(conv, [
      ...q1,
      { role: 'assistant', content: 'Paris it is.', id: 'q1' },
      { role: 'user', content: 'What about Berlin and Germany?', id: 'q2' },
    ]);

    const up = await call<Conv>(server, '/v1/conversation/thumbup', {
      token: user.token,
      body: { conversation_id: conv, message_id: 'q1', thumbup: true },
    });
    expect((up.body.data as Conv).message[1]).toMatchObject({ role: 'assistant', id: 'q1', thumbup: true });
    const down = await call<Conv>(server, '/v1/conversation/thumbup', {
      token: user.token,
      body: { conversation_id: conv, message_id: 'q2', thumbup: false, feedback: 'Wrong city' },
    });
    expect((down.body.data as Conv).message[3]).toMatchObject({
      id: 'q2',
      thumbup: false,
      feedback: 'Wrong city',
    });
    expect((down.body.data as Conv).message[2]).toEqual({
      role: 'user',
      content: 'What about Berlin and Germany?',
      id: 'q2',
    });

    const before = await getConv(conv);
    const del = await call<Conv>(server, '/v1/conversation/delete_msg', {
      token: user.token,
      body: { conversation_id: conv, message_id: 'q1' },
    });
    const after = del.body.data as Conv;
    expect(after.message.map((m) => `${m.role}:${m.id}`)).toEqual(['user:q2', 'assistant:q2']);
    expect(after.reference).toEqual([before.reference[1]]);
    expect(await getConv(conv)).toMatchObject({ message: after.message });
  });
});
