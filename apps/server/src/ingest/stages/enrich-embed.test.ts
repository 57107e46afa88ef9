import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, newUser, startTestServer, type TestServer, type TestUser } from '../../../test/harness.js';
import { standinEmbedding, startOpenAIStandin, type Standin } from '../../../test/standins/index.js';
import { createKb, runDocs, uploadDocs, waitSettled } from '../../modules/kb/test-support.js';
import { startTaskWorkers } from '../../root.js';
import type { WorkerHost } from '../../queue/worker-host.js';

const DIM = 64;

function cosine(a: number[], b: number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  a.forEach((x, i) => {
    dot += x * b[i];
    na += x * x;
    nb += b[i] * b[i];
  });
  return dot / Math.sqrt(na * nb);
}

describe('enrichment and embeddings through the tenant models (API.md §19.7)', () => {
  let server: TestServer;
  let host: WorkerHost;
  let llm: Standin;
  let alice: TestUser;
  let chatId: string;
  let embdId: string;
  beforeAll(async () => {
    llm = await startOpenAIStandin({
      embeddingDim: DIM,
      reply: (body) => {
        const prompt = JSON.stringify(body.messages);
        if (prompt.includes('keywords')) return 'alpha, beta, gamma, delta';
        return '1. What does the line say?\n2. Which number is it?\n3. An extra one';
      },
    });
    server = await startTestServer();
    host = await startTaskWorkers(server.ctx, { pollMs: 100, tickMs: 200 });
    alice = await newUser(server, 'alice');
    for (const [name, type] of [
      ['chatty', 'chat'],
      ['embedder', 'embedding'],
    ] as const) {
      const res = await call(server, '/v1/llm/add_llm', {
        token: alice.token,
        body: {
          llm_factory: 'OpenAI-API-Compatible',
          llm_name: name,
          model_type: type,
          api_base: `${llm.url}/v1`,
          api_key: 'k',
        },
      });
      expect(res.body.code).toBe(0);
    }
    const rows = await server.ctx.db.kysely
      .selectFrom('tenant_llm')
      .selectAll()
      .where('tenant_id', '=', alice.id)
      .execute();
    const id = (type: string) =>
      rows.filter((r) => r.model_type === type).map((r) => `${r.llm_name}@${r.llm_factory}`)[0];
    chatId = id('chat');
    embdId = id('embedding');
  });
  afterAll(async () => {
    await host.stop();
    await server.close();
    await llm.close();
  });

  it('adds keywords and questions, then embeds 0.1·name + 0.9·questions in batches of 16', async () => {
    const kb = await createKb(server, alice.token, {
      name: 'Enriched',
      embd_id: embdId,
      parser_config: {
        chunk_token_num: 8,
        delimiter: '\n',
        auto_keywords: 3,
        auto_questions: 2,
        llm_id: chatId,
      },
    });
    const text = Array.from(
      { length: 20 },
      (_, i) => `Line number ${i} says something different about topic ${i}.`,
    ).join('\n');
    const [doc] = await uploadDocs(server, alice.token, kb, [{ name: 'lines.txt', data: text }]);
    await runDocs(server, alice.token, [doc.id]);
    const settled = (await waitSettled(server, alice.token, kb)).get(doc.id)!;
    expect(settled.run, settled.progress_msg).toBe('3');
    expect(settled.progress_msg).toMatch(/Keywords generation \d+ chunks completed/);
    expect(settled.progress_msg).toMatch(/Question generation \d+ chunks completed/);
    expect(settled.progress_msg).toMatch(/Embedding \d+ chunks done/);

    const index = server.ctx.chunkIndex;
    const listed = (await index.list({ kbIds: [kb], docIds: [doc.id] }, 'position', 0, 100)).chunks;
    const chunks = await index.getMany(listed.map((c) => c.id)); // with their vectors
    expect(chunks.length).toBe(settled.chunk_num);
    expect(chunks.length).toBeGreaterThan(16);
    const name = standinEmbedding('lines.txt', DIM);
    for (const c of chunks) {
      expect(c.important_kwd).toEqual(['alpha', 'beta', 'gamma']);
      expect(c.question_kwd).toEqual(['What does the line say?', 'Which number is it?']);
      const body = standinEmbedding('What does the line say? Which number is it?', DIM);
      const expected = name.map((x, i) => 0.1 * x + 0.9 * body[i]);
      expect(c.vector).toHaveLength(DIM);
      expect(cosine(c.vector!, expected)).toBeGreaterThan(0.999);
    }
    const batches = llm.requests
      .filter((r) => r.path.endsWith('/embeddings'))
      .map((r) => {
        const input = (r.body as { input: string | string[] }).input;
        return Array.isArray(input) ? input.length : 1;
      });
    expect(batches[0]).toBe(1); // the document name
    expect(batches.slice(1).every((n) => n <= 16)).toBe(true);
    expect(batches.slice(1).reduce((s, n) => s + n, 0)).toBe(chunks.length);
  });

  it('indexes keyword-only, and says so, when the embedding model is not available', async () => {
    const kb = await createKb(server, alice.token, { name: 'No vectors', embd_id: 'missing-model@OpenAI' });
    const [doc] = await uploadDocs(server, alice.token, kb, [{ name: 'plain.txt', data: 'no vectors here' }]);
    await runDocs(server, alice.token, [doc.id]);
    const settled = (await waitSettled(server, alice.token, kb)).get(doc.id)!;
    expect(settled.run).toBe('3');
    expect(settled.progress_msg).toMatch(
      /Keyword-only indexing: embedding model missing-model@OpenAI is not available/,
    );
    const index = server.ctx.chunkIndex;
    const listed = (await index.list({ kbIds: [kb], docIds: [doc.id] }, 'position', 0, 10)).chunks;
    const chunks = await index.getMany(listed.map((c) => c.id));
    expect(chunks.length).toBeGreaterThan(0);
    expect(chunks.every((c) => c.vector === null)).toBe(true);
  });
});
