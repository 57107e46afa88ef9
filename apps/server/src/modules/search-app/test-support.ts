/**
 * The world of the search-app tests: a server, a chat stand-in (the tenant default) and a second one
 * (model B, for `chat_id`), an owner with a knowledge base of two documents with metadata, a team
 * member and a stranger, and helpers to make and change search apps.
 */
import { expect } from 'vitest';
import { call, newUser, startTestServer, type TestServer, type TestUser } from '../../../test/harness.js';
import { startOpenAIStandin, type OpenAIChatBody, type Standin } from '../../../test/standins/index.js';
import { createKb, seedChunks, wireModels } from '../../chat/test-fixtures.js';
import { joinTeam } from '../kb/test-support.js';

export const MODEL_B = 'standin-chat-b@OpenAI-API-Compatible';

export interface SearchWorld {
  server: TestServer;
  llm: Standin;
  llmB: Standin;
  owner: TestUser;
  stranger: TestUser;
  member: TestUser;
  kbId: string;
  marsDoc: string;
  jupiterDoc: string;
  reply: (body: OpenAIChatBody) => string;
  replyB: (body: OpenAIChatBody) => string;
  createApp(user: TestUser, name: string): Promise<string>;
  update(user: TestUser, body: Record<string, unknown>): ReturnType<typeof call<Record<string, unknown>>>;
  close(): Promise<void>;
}

export async function setupSearchWorld(): Promise<SearchWorld> {
  const w = { reply: () => 'ok', replyB: () => 'from B' } as unknown as SearchWorld;
  w.llm = await startOpenAIStandin({ reply: (b) => w.reply(b) });
  w.llmB = await startOpenAIStandin({ reply: (b) => w.replyB(b) });
  const embed = await startOpenAIStandin();
  const server = await startTestServer({ MODEL_MAX_RETRIES: '0' });
  w.server = server;
  w.close = async () => {
    await server.close();
    await w.llm.close();
    await w.llmB.close();
    await embed.close();
  };
  w.createApp = async (user, name) => {
    const res = await call<{ search_id: string }>(server, '/v1/search/create', {
      token: user.token,
      body: { name, description: 'planets' },
    });
    expect(res.body.code).toBe(0);
    return res.body.data!.search_id;
  };
  w.update = (user, body) =>
    call<Record<string, unknown>>(server, '/v1/search/update', { token: user.token, body });
  w.owner = await newUser(server, 'searchowner');
  w.stranger = await newUser(server, 'stranger');
  w.member = await newUser(server, 'member');
  await joinTeam(server, w.member.id, w.owner.id);
  await wireModels(server, w.owner, w.llm, { embed });
  const added = await call(server, '/v1/llm/add_llm', {
    token: w.owner.token,
    body: {
      llm_factory: 'OpenAI-API-Compatible',
      llm_name: 'standin-chat-b',
      model_type: 'chat',
      api_base: w.llmB.url,
      api_key: 'sk-test',
      max_tokens: 8192,
      verify: false,
    },
  });
  expect(added.body.code).toBe(0);
  w.kbId = await createKb(server, w.owner, 'Astronomy');
  const virtualDoc = async (name: string, meta: Record<string, unknown>) => {
    const res = await call<{ id: string }>(server, '/v1/document/create', {
      token: w.owner.token,
      body: { name, kb_id: w.kbId },
    });
    expect(res.body.code).toBe(0);
    const id = res.body.data!.id;
    const set = await call(server, '/v1/document/set_meta', {
      token: w.owner.token,
      body: { doc_id: id, meta: JSON.stringify(meta) },
    });
    expect(set.body.code).toBe(0);
    return id;
  };
  w.marsDoc = await virtualDoc('mars.txt', { planet: 'mars', inner: 'yes' });
  w.jupiterDoc = await virtualDoc('jupiter.txt', { planet: 'jupiter', inner: 'no' });
  await seedChunks(server, w.kbId, w.owner.id, [
    {
      content: 'Mars is the fourth planet from the Sun, a small rocky planet.',
      doc: 'mars.txt',
      docId: w.marsDoc,
    },
    {
      content: 'Jupiter is the largest planet of the solar system, a gas giant planet.',
      doc: 'jupiter.txt',
      docId: w.jupiterDoc,
    },
  ]);
  return w;
}
