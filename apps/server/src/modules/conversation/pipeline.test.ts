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

/** Question refinement, keywords, self-RAG, reasoning and the context budget, against the stand-in. */

let server: TestServer;
let llm: Standin;
let user: TestUser;
let kbId: string;
let reply: (body: OpenAIChatBody) => string | ChatScript = () => 'ok';

const systemOf = (b: OpenAIChatBody) => String(b.messages.find((m) => m.role === 'system')?.content ?? '');
const userOf = (b: OpenAIChatBody) =>
  String([...b.messages].reverse().find((m) => m.role === 'user')?.content ?? '');
const chatCalls = () =>
  llm
    .modelCalls()
    .filter((c) => c.path.endsWith('/chat/completions'))
    .map((c) => c.body as OpenAIChatBody);

/** Answers the helper prompts of the pipeline by their instructions, the main answer otherwise. */
function scripted(handlers: {
  refine?: string;
  keywords?: string;
  judge?: string;
  rewrite?: string;
  plan?: string;
  answer: (b: OpenAIChatBody) => string | ChatScript;
}) {
  return (b: OpenAIChatBody): string | ChatScript => {
    const s = systemOf(b);
    if (s.includes('standalone question')) return handlers.refine ?? userOf(b);
    if (s.includes('search keywords')) return handlers.keywords ?? '';
    if (s.includes('judge whether')) return handlers.judge ?? 'yes';
    if (s.includes('found nothing useful')) return handlers.rewrite ?? userOf(b);
    if (s.includes('You plan research')) return handlers.plan ?? 'NONE';
    return handlers.answer(b);
  };
}

async function dialog(promptConfig: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return (
    await createDialog(server, user, {
      kb_ids: [kbId],
      prompt_config: { system: 'Knowledge:\n{knowledge}', ...promptConfig },
      ...extra,
    })
  ).id;
}

beforeAll(async () => {
  llm = await startOpenAIStandin({ reply: (b) => reply(b) });
  server = await startTestServer({ MODEL_MAX_RETRIES: '0' });
  user = await newUser(server, 'piper');
  await wireModels(server, user, llm);
  await call(server, '/v1/llm/add_llm', {
    token: user.token,
    body: {
      llm_factory: 'OpenAI-API-Compatible',
      llm_name: 'deep-reasoner',
      model_type: 'chat',
      api_base: llm.url,
      api_key: 'x',
      verify: false,
    },
  });
  kbId = await createKb(server, user, 'Pets');
  await seedChunks(server, kbId, user.id, [
    { content: 'Cats sleep about sixteen hours a day.', doc: 'cats.md' },
    { content: 'Dogs need daily walks and exercise.', doc: 'dogs.md' },
    { content: 'Goldfish live in water tanks and eat flakes.', doc: 'fish.md' },
  ]);
});

afterAll(async () => {
  await server?.close();
  await llm?.close();
});

describe('question handling before retrieval', () => {
  it('rewrites the question from the conversation (refine_multiturn) and retrieves with it', async () => {
    reply = scripted({ refine: 'How long do cats sleep?', answer: () => 'About sixteen hours.' });
    const id = await createConversation(server, user, await dialog({ refine_multiturn: true }));
    const r = await postSse(
      server,
      '/v1/conversation/completion',
      {
        conversation_id: id,
        messages: [
          { role: 'user', content: 'Tell me about cats', id: 'q1' },
          { role: 'assistant', content: 'Cats are pets.', id: 'q1' },
          { role: 'user', content: 'How long do they sleep?', id: 'q2' },
        ],
      },
      user.token,
    );
    const final = answers(r).find((e) => e.final);
    expect(final?.prompt).toContain('### Query:  \nHow long do cats sleep?');
    expect(final?.reference.chunks.map((c) => c.document_name)).toContain('cats.md');
    const refine = chatCalls().find((b) => systemOf(b).includes('standalone question'));
    expect(userOf(refine!)).toContain('USER: Tell me about cats');
  });

  it('adds translations of the question to the query (cross_languages)', async () => {
    reply = (b) => (systemOf(b).includes('Translate the user') ? 'Wie lange schlafen Katzen?' : 'Long.');
    const id = await createConversation(server, user, await dialog({ cross_languages: ['German'] }));
    const r = await postSse(
      server,
      '/v1/conversation/completion',
      { conversation_id: id, messages: [{ role: 'user', content: 'How long do cats sleep?', id: 'q1' }] },
      user.token,
    );
    const final = answers(r).find((e) => e.final);
    expect(final?.prompt).toContain('How long do cats sleep?\nWie lange schlafen Katzen?');
    expect(chatCalls().some((b) => systemOf(b).includes('into each of these languages: German'))).toBe(true);
  });

  it('adds extracted keywords to the query (keyword)', async () => {
    reply = scripted({ keywords: 'goldfish, flakes', answer: () => 'They eat flakes.' });
    const id = await createConversation(server, user, await dialog({ keyword: true }));
    const r = await postSse(
      server,
      '/v1/conversation/completion',
      { conversation_id: id, messages: [{ role: 'user', content: 'What do they eat?', id: 'q1' }] },
      user.token,
    );
    const final = answers(r).find((e) => e.final);
    expect(final?.prompt).toContain('What do they eat?,goldfish,flakes');
    expect(final?.reference.chunks.map((c) => c.document_name)).toContain('fish.md');
  });

  it('self-RAG: judges the chunks irrelevant, rewrites the question and retries once', async () => {
    reply = scripted({ judge: 'no', rewrite: 'dogs daily walks exercise', answer: () => 'Walk them daily.' });
    const id = await createConversation(server, user, await dialog({ self_rag: true }));
    const r = await postSse(
      server,
      '/v1/conversation/completion',
      {
        conversation_id: id,
        messages: [{ role: 'user', content: 'How to keep cats and dogs fit?', id: 'q1' }],
      },
      user.token,
    );
    const final = answers(r).find((e) => e.final);
    expect(final?.prompt).toContain('### Query:  \ndogs daily walks exercise');
    expect(final?.reference.chunks[0].document_name).toBe('dogs.md');
    expect(chatCalls().some((b) => systemOf(b).includes('judge whether'))).toBe(true);
  });
});

describe('answer generation', () => {
  it('researches in steps when reasoning is on, showing the steps as thinking', async () => {
    reply = scripted({ plan: '1. dogs daily walks', answer: () => 'Cats sleep; dogs walk.' });
    const id = await createConversation(server, user, await dialog({ reasoning: true }, { top_n: 1 }));
    const r = await postSse(
      server,
      '/v1/conversation/completion',
      { conversation_id: id, messages: [{ role: 'user', content: 'How long do cats sleep?', id: 'q1' }] },
      user.token,
    );
    const events = answers(r);
    const end = events.findIndex((e) => e.end_to_think);
    expect(events[0].start_to_think).toBe(true);
    const thinking = events
      .slice(1, end)
      .map((e) => e.answer)
      .join('');
    expect(thinking).toBe(
      'Searching for: How long do cats sleep?\nFound 1 pieces (cats.md).\nSearching for: dogs daily walks\nFound 1 new pieces.\n',
    );
    const final = events.find((e) => e.final);
    expect(final?.reference.chunks.map((c) => c.document_name)).toEqual(['cats.md', 'dogs.md']);
    const stored = await call<{ message: Array<{ content: string }> }>(
      server,
      `/v1/conversation/get?conversation_id=${id}`,
      { token: user.token },
    );
    expect(stored.body.data?.message[1].content).toBe(
      `<think>${thinking}</think>Cats sleep; [ID:0] dogs walk. [ID:1]`,
    );
  });

  it('shows a reasoning model’s thinking apart: start_to_think, reasoning, end_to_think, answer', async () => {
    reply = () => ({ reasoning: 'The user asks about cats.', content: 'Cats sleep a lot.' });
    const id = await createConversation(
      server,
      user,
      await dialog({}, { llm_id: 'deep-reasoner@OpenAI-API-Compatible' }),
    );
    const r = await postSse(
      server,
      '/v1/conversation/completion',
      { conversation_id: id, messages: [{ role: 'user', content: 'Do cats sleep?', id: 'q1' }] },
      user.token,
    );
    const events = answers(r).filter((e) => !e.final);
    const start = events.findIndex((e) => e.start_to_think);
    const end = events.findIndex((e) => e.end_to_think);
    expect(start).toBe(0);
    expect(end).toBeGreaterThan(start);
    expect(events[start].answer).toBe('');
    expect(
      events
        .slice(start + 1, end)
        .map((e) => e.answer)
        .join(''),
    ).toBe('The user asks about cats.');
    expect(
      events
        .slice(end + 1)
        .map((e) => e.answer)
        .join(''),
    ).toBe('Cats sleep a lot.');
    const stored = await call<{ message: Array<{ content: string }> }>(
      server,
      `/v1/conversation/get?conversation_id=${id}`,
      { token: user.token },
    );
    expect(stored.body.data?.message[1].content).toMatch(
      /^<think>The user asks about cats\.<\/think>Cats sleep a lot\. \[ID:\d\]$/,
    );
  });

  it('fills {knowledge} only within the model’s context window', async () => {
    const small = await newUser(server, 'smallctx');
    await wireModels(server, small, llm, { contextTokens: 700 });
    const kb = await createKb(server, small, 'Long');
    const paragraph = (i: number) =>
      `Section ${i} about budget planning. ` +
      'Budget planning needs careful numbers and review. '.repeat(12);
    await seedChunks(
      server,
      kb,
      small.id,
      Array.from({ length: 8 }, (_, i) => ({ content: paragraph(i), doc: `doc${i}.txt` })),
    );
    const d = await createDialog(server, small, {
      kb_ids: [kb],
      top_n: 8,
      prompt_config: { system: '{knowledge}' },
      llm_setting: { max_tokens: 100 },
    });
    let seen: OpenAIChatBody | undefined;
    reply = (b) => {
      seen = b;
      return 'Plan carefully.';
    };
    const id = await createConversation(server, small, d.id);
    const r = await postSse(
      server,
      '/v1/conversation/completion',
      { conversation_id: id, messages: [{ role: 'user', content: 'budget planning', id: 'q1' }] },
      small.token,
    );
    const final = answers(r).find((e) => e.final);
    const inPrompt = (systemOf(seen!).match(/\nID: \d+/g) ?? []).length;
    expect(inPrompt).toBeGreaterThan(0);
    expect(inPrompt).toBeLessThan(8);
    expect(final?.reference.chunks).toHaveLength(inPrompt);
    expect(seen?.max_tokens ?? seen?.max_completion_tokens).toBeLessThanOrEqual(100);
  });
});
