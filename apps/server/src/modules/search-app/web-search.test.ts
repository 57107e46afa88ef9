/**
 * `search_config.web_search` (API.md §15): with the app's Tavily key (`search_config.tavily_api_key`,
 * shown masked) `ask` adds web results to the knowledge as an assistant with a key does — on the web
 * page and the share page alike; without the switch or without a key, Tavily is never called.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, newUser, startTestServer, type TestServer, type TestUser } from '../../../test/harness.js';
import { startOpenAIStandin, type OpenAIChatBody, type Standin } from '../../../test/standins/index.js';
import { answers, createKb, postSse, seedChunks, wireModels } from '../../chat/test-fixtures.js';
import { maskSecret } from '../../security/secrets.js';

const KEY = 'tvly-good-search-app-key';
let server: TestServer;
let llm: Standin;
let embed: Standin;
let tavily: http.Server;
let tavilyRequests: Array<Record<string, unknown>> = [];
let owner: TestUser;
let kbId: string;

beforeAll(async () => {
  // The model cites the web page only when it is in its knowledge.
  llm = await startOpenAIStandin({
    reply: (b: OpenAIChatBody) =>
      String(b.messages[0].content).includes('https://example.com/news')
        ? 'Lectern 2.0 was released on Monday [ID:0] [ID:1].'
        : 'Only the knowledge base.',
  });
  embed = await startOpenAIStandin();
  // A stand-in for the Tavily search API (POST /search), as the chat tests use.
  tavily = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = JSON.parse(raw) as Record<string, unknown>;
      tavilyRequests.push(body);
      if (body.api_key !== KEY) {
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
    TAVILY_BASE_URL: `http://127.0.0.1:${(tavily.address() as AddressInfo).port}`,
  });
  owner = await newUser(server, 'webowner');
  await wireModels(server, owner, llm, { embed });
  kbId = await createKb(server, owner, 'Releases');
  await seedChunks(server, kbId, owner.id, [
    { content: 'Lectern 1.0 shipped in spring.', doc: 'history.txt' },
  ]);
});

afterAll(async () => {
  await server?.close();
  await llm?.close();
  await embed?.close();
  await new Promise((r) => tavily?.close(r));
});

async function makeApp(name: string, config: Record<string, unknown>) {
  const made = await call<{ search_id: string }>(server, '/v1/search/create', {
    token: owner.token,
    body: { name },
  });
  const id = made.body.data!.search_id;
  const upd = await call<{ search_config: Record<string, unknown> }>(server, '/v1/search/update', {
    token: owner.token,
    body: { search_id: id, name, tenant_id: owner.id, search_config: { kb_ids: [kbId], ...config } },
  });
  expect(upd.body.code, upd.body.message).toBe(0);
  return { id, config: upd.body.data!.search_config };
}

async function ask(searchId: string, authorization = owner.token, route = '/v1/conversation/ask') {
  const r = await postSse(
    server,
    route,
    { question: 'When was Lectern 2.0 released?', kb_ids: [], search_id: searchId },
    authorization,
  );
  const events = answers(r);
  const text = events
    .filter((e) => !e.final)
    .map((e) => e.answer)
    .join('');
  return { answer: text, reference: events[events.length - 1].reference };
}

describe('search_config.web_search', () => {
  it('adds Tavily results to ask when the app has a key, cited with their URL', async () => {
    const app = await makeApp('Web', { web_search: true, tavily_api_key: KEY, similarity_threshold: 0 });
    // The key is shown masked, to its owner too.
    expect(app.config.tavily_api_key).toBe(maskSecret(KEY));
    tavilyRequests = [];
    const final = await ask(app.id);
    expect(tavilyRequests).toHaveLength(1);
    expect(tavilyRequests[0]).toMatchObject({ api_key: KEY, query: 'When was Lectern 2.0 released?' });
    expect(final.answer).toContain('released on Monday');
    const web = final.reference.chunks.find((c) => c.url === 'https://example.com/news');
    expect(web).toMatchObject({ document_name: 'Lectern news' });
    // The web results join the knowledge base's chunks in the prompt.
    const prompt = JSON.stringify((llm.modelCalls().at(-1)!.body as OpenAIChatBody).messages);
    expect(prompt).toContain('Lectern 1.0 shipped in spring.');
    expect(prompt).toContain('Lectern 2.0 was released on Monday.');

    // Sending the masked key back (the settings form) keeps the stored key working.
    const again = await call<{ search_config: Record<string, unknown> }>(server, '/v1/search/update', {
      token: owner.token,
      body: {
        search_id: app.id,
        name: 'Web',
        tenant_id: owner.id,
        search_config: { tavily_api_key: maskSecret(KEY) },
      },
    });
    expect(again.body.code).toBe(0);
    tavilyRequests = [];
    await ask(app.id);
    expect(tavilyRequests[0]).toMatchObject({ api_key: KEY });

    // The share page (searchbots, beta token) runs the same search.
    const token = await call<{ beta: string }>(server, '/v1/system/new_token', {
      method: 'POST',
      token: owner.token,
    });
    tavilyRequests = [];
    const shared = await ask(app.id, `Bearer ${token.body.data!.beta}`, '/api/v1/searchbots/ask');
    expect(tavilyRequests).toHaveLength(1);
    expect(shared.reference.chunks.some((c) => c.url === 'https://example.com/news')).toBe(true);
    const detail = await call<{ search_config: Record<string, unknown> }>(
      server,
      `/api/v1/searchbots/detail?search_id=${app.id}`,
      { headers: { Authorization: `Bearer ${token.body.data!.beta}` } },
    );
    expect(detail.body.data!.search_config.tavily_api_key).toBe(maskSecret(KEY));
  });

  it('never calls Tavily with the switch off or without a key', async () => {
    const off = await makeApp('Off', { web_search: false, tavily_api_key: KEY });
    const keyless = await makeApp('Keyless', { web_search: true });
    tavilyRequests = [];
    for (const app of [off, keyless]) {
      const final = await ask(app.id);
      expect(final.answer).toBe('Only the knowledge base.');
      expect(final.reference.chunks.every((c) => !c.url)).toBe(true);
    }
    expect(tavilyRequests).toEqual([]);
  });

  it('refuses a key that is not a string, changing nothing', async () => {
    const app = await makeApp('Typed', { web_search: true });
    const bad = await call(server, '/v1/search/update', {
      token: owner.token,
      body: { search_id: app.id, name: 'Typed', tenant_id: owner.id, search_config: { tavily_api_key: 42 } },
    });
    expect(bad.body).toMatchObject({ code: 100, message: '`tavily_api_key` must be a string.' });
  });
});
