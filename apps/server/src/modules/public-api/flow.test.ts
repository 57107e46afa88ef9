import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newUser, startTestServer, type TestServer, type TestUser } from '../../../test/harness.js';
import { startOpenAIStandin, type Standin } from '../../../test/standins/index.js';
import { wireModels } from '../../chat/test-fixtures.js';
import { startTaskWorkers } from '../../root.js';
import type { WorkerHost } from '../../queue/worker-host.js';
import { api, apiKeyOf, uploadFiles, waitDocs } from './test-support.js';

/**
 * A complete integrator flow over `/api/v1` with an API key: create a dataset, upload, parse,
 * retrieve, create a chat, and ask it through the official `openai` client — not streamed and
 * streamed — with the model stand-ins behind Lectern.
 */
describe('integrator flow through /api/v1 and the openai client', () => {
  let server: TestServer;
  let host: WorkerHost;
  let llm: Standin;
  let alice: TestUser;
  let key: string;
  beforeAll(async () => {
    llm = await startOpenAIStandin({ embeddingDim: 32 });
    server = await startTestServer();
    host = await startTaskWorkers(server.ctx, { pollMs: 100, tickMs: 200 });
    alice = await newUser(server, 'alice');
    await wireModels(server, alice, llm);
    key = await apiKeyOf(server, alice);
  });
  afterAll(async () => {
    await host.stop();
    await server.close();
    await llm.close();
  });

  it('dataset → upload → parse → retrieval → chat completion (plain and streamed)', async () => {
    const ds = await api<{ id: string; chunk_method: string; embedding_model: string }>(
      server,
      key,
      'POST',
      '/api/v1/datasets',
      { name: 'Energy notes', chunk_method: 'naive' },
    );
    expect(ds.code, ds.message).toBe(0);
    expect(ds.data).toMatchObject({
      chunk_method: 'naive',
      embedding_model: 'standin-embd@OpenAI-API-Compatible',
    });
    const datasetId = ds.data!.id;

    const up = await uploadFiles(server, key, datasetId, [
      { name: 'solar.txt', data: 'Solar panels convert sunlight into electricity using photovoltaic cells.' },
      { name: 'wind.txt', data: 'Wind turbines turn the kinetic energy of wind into electrical power.' },
    ]);
    expect(up.code).toBe(0);
    expect(up.data!.map((d) => d.run)).toEqual(['UNSTART', 'UNSTART']);
    const parse = await api(server, key, 'POST', `/api/v1/datasets/${datasetId}/chunks`, {
      document_ids: up.data!.map((d) => d.id),
    });
    expect(parse).toEqual({ code: 0, data: null });
    const docs = await waitDocs(server, key, datasetId);
    expect(docs.map((d) => d.run)).toEqual(['DONE', 'DONE']);
    expect(docs.every((d) => d.chunk_count > 0)).toBe(true);

    const found = await api<{ total: number; chunks: Array<{ content: string; dataset_id: string }> }>(
      server,
      key,
      'POST',
      '/api/v1/retrieval',
      {
        question: 'How do solar panels make electricity?',
        dataset_ids: [datasetId],
        similarity_threshold: 0,
      },
    );
    expect(found.code, found.message).toBe(0);
    expect(found.data!.chunks[0].content).toMatch(/^Solar panels/);
    expect(found.data!.chunks[0].dataset_id).toBe(datasetId);

    const chat = await api<{ id: string; dataset_ids: string[] }>(server, key, 'POST', '/api/v1/chats', {
      name: 'Energy assistant',
      dataset_ids: [datasetId],
    });
    expect(chat.code, chat.message).toBe(0);
    expect(chat.data!.dataset_ids).toEqual([datasetId]);

    const client = new OpenAI({ apiKey: key, baseURL: `${server.url}/api/v1/chats_openai/${chat.data!.id}` });
    const completion = await client.chat.completions.create({
      model: 'anything',
      messages: [{ role: 'user', content: 'How do solar panels make electricity?' }],
      stream: false,
      // extra_body travels as a body field (API.md §17).
      extra_body: { reference: true },
    } as OpenAI.ChatCompletionCreateParamsNonStreaming);
    expect(completion.object).toBe('chat.completion');
    expect(completion.choices[0].finish_reason).toBe('stop');
    // The stand-in echoes the last user message.
    expect(completion.choices[0].message.content).toContain('How do solar panels make electricity?');
    expect(completion.usage!.total_tokens).toBe(
      completion.usage!.prompt_tokens + completion.usage!.completion_tokens,
    );
    expect(completion.usage!.completion_tokens).toBeGreaterThan(0);
    const reference = (
      completion.choices[0].message as unknown as { reference: Array<Record<string, unknown>> }
    ).reference;
    expect(reference.length).toBeGreaterThan(0);
    expect(reference[0]).toMatchObject({ dataset_id: datasetId, document_name: 'solar.txt' });

    const stream = await client.chat.completions.create({
      model: 'anything',
      messages: [{ role: 'user', content: 'Tell me about wind turbines.' }],
      stream: true,
      extra_body: { reference: true },
    } as OpenAI.ChatCompletionCreateParamsStreaming);
    let text = '';
    const chunks: OpenAI.ChatCompletionChunk[] = [];
    for await (const ch of stream) {
      chunks.push(ch);
      text += ch.choices[0]?.delta?.content ?? '';
    }
    expect(chunks.every((ch) => ch.object === 'chat.completion.chunk')).toBe(true);
    expect(text).toContain('Tell me about wind turbines.');
    const last = chunks[chunks.length - 1];
    expect(last.choices[0].finish_reason).toBe('stop');
    expect(last.usage!.total_tokens).toBeGreaterThan(0);
    expect(chunks.slice(0, -1).every((ch) => ch.usage === null)).toBe(true);
    expect((last.choices[0].delta as unknown as { reference: unknown[] }).reference.length).toBeGreaterThan(
      0,
    );
  });

  it('the raw stream ends with data:[DONE]', async () => {
    const chat = await api<{ id: string }>(server, key, 'POST', '/api/v1/chats', { name: 'Raw' });
    const res = await fetch(`${server.url}/api/v1/chats_openai/${chat.data!.id}/chat/completions`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hello there' }] }),
    });
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const body = await res.text();
    expect(body.endsWith('data:[DONE]\n\n')).toBe(true);
  });
});
