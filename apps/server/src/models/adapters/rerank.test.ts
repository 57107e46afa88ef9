import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRerankStandin, type RerankFlavor, type Standin } from '../../../test/standins/index.js';
import { fastPolicy, specOf } from '../../../test/standins/spec-helpers.js';
import { FetchRerankModel } from './rerank.js';

const DOCS = ['Berlin is the capital of Germany.', 'Paris is the capital of France.', 'Bananas are yellow.'];

const cases: Array<{
  flavor: RerankFlavor;
  factory: string;
  model: string;
  path: string;
  base: (s: Standin) => string;
}> = [
  {
    flavor: 'jina',
    factory: 'Jina',
    model: 'jina-reranker-v2-base-multilingual',
    path: '/v1/rerank',
    base: (s) => s.url,
  },
  {
    flavor: 'cohere',
    factory: 'Cohere',
    model: 'rerank-english-v3.0',
    path: '/v2/rerank',
    base: (s) => s.origin,
  },
  { flavor: 'voyage', factory: 'Voyage AI', model: 'rerank-2', path: '/v1/rerank', base: (s) => s.url },
  // TEI is configured like its OpenAI-compatible API (…/v1); rerank lives at /rerank on the root.
  {
    flavor: 'tei',
    factory: 'HuggingFace',
    model: 'BAAI/bge-reranker-base',
    path: '/rerank',
    base: (s) => `${s.origin}/v1`,
  },
];

describe.each(cases)('rerank over fetch: $flavor wire shape', ({ flavor, factory, model, path, base }) => {
  let s: Standin;
  beforeAll(async () => {
    s = await startRerankStandin({ flavor, apiKey: 'rr-key' });
  });
  afterAll(async () => s.close());
  const rr = (key = 'rr-key', timeoutMs = fastPolicy.timeoutMs) =>
    new FetchRerankModel(specOf(factory, model, 'rerank', { apiKey: key, baseUrl: base(s) }), {
      ...fastPolicy,
      timeoutMs,
    });

  it('scores every document in input order', async () => {
    const r = await rr().rerank('capital of France', DOCS);
    expect(r.scores).toHaveLength(3);
    expect(r.scores[1]).toBe(1);
    expect(r.scores[0]).toBeCloseTo(2 / 3);
    expect(r.scores[2]).toBe(0);
    expect(r.usage.tokens).toBeGreaterThan(0);
    const req = s.modelCalls().at(-1);
    expect(req?.path).toBe(path);
    expect(req?.headers.authorization).toBe('Bearer rr-key');
    if (flavor !== 'tei') expect((req?.body as { model: string }).model).toBe(model);
  });

  it('reports 401, retries 429/500, times out and spots a malformed body', async () => {
    await expect(rr('bad').rerank('q', DOCS)).rejects.toThrow(new RegExp(`^${factory}: 401 Unauthorized — `));
    s.fail('429', 1);
    expect((await rr().rerank('Bananas', DOCS)).scores[2]).toBe(1);
    s.fail('500', 3);
    await expect(rr().rerank('q', DOCS)).rejects.toThrow(
      new RegExp(`^${factory}: 500 Internal Server Error — .*gave up after 2 retries`),
    );
    s.fail('hang', 1);
    await expect(rr('rr-key', 200).rerank('q', DOCS)).rejects.toThrow(
      `${factory}: no answer within 200 ms (time limit)`,
    );
    s.fail('malformed', 1);
    await expect(rr().rerank('q', DOCS)).rejects.toThrow(`${factory}: malformed response from the server`);
  });
});

it('reports an unreachable rerank server readably', async () => {
  const s = await startRerankStandin();
  const url = s.url;
  await s.close();
  const model = new FetchRerankModel(specOf('Xinference', 'bge-reranker-v2-m3', 'rerank', { baseUrl: url }), {
    ...fastPolicy,
    retries: 0,
  });
  await expect(model.rerank('q', ['d'])).rejects.toThrow(
    `Xinference: cannot reach ${new URL(url).host} (ECONNREFUSED)`,
  );
});
