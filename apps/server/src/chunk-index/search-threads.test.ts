/**
 * Query planning and searches on the search threads (search-pool.ts) give what the same work gives on
 * the calling thread, see the index's writes, and fall back to the calling thread when a thread dies.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { retrieve } from '../search/retrieval.js';
import { WorkerJobError } from '../util/worker-pool.js';
import { planQuery, planSearch, type QueryPlan } from './query.js';
import { createSearchThreads, type SearchThreads } from './search-pool.js';
import { SqliteChunkIndex } from './sqlite-index.js';
import { hitTerms, queryItems } from './term-similarity.js';
import { chunk, fillers } from './test-helpers.js';

const QUESTIONS = [
  'How does the copper lantern light the harbor?',
  'granite meadow record 7',
  'glacier glacier saddle thimble orchard violin',
  '铜灯照亮港口的方法是什么',
  'the of and', // stop words only: no plan
  'zebra unknown words',
];

let dir: string;
let threads: SearchThreads;
let threaded: SqliteChunkIndex;
let inline: SqliteChunkIndex;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-threads-'));
  const file = path.join(dir, 'index.sqlite');
  threads = createSearchThreads(1);
  threaded = new SqliteChunkIndex(file, null, threads);
  // A second connection without threads on the same file: the reference of the inline path.
  inline = new SqliteChunkIndex(file);
  await threaded.upsert([
    ...fillers(60),
    chunk({ content_with_weight: 'The copper lantern lights the harbor at night.' }),
    chunk({ content_with_weight: '铜灯在夜里照亮港口。', docnm_kwd: '港口.txt' }),
  ]);
}, 30_000);

afterAll(async () => {
  await threaded.close();
  await inline.close();
  await threads.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The plan made on this thread by a fresh connection (no cached statistics). */
async function inlinePlan(q: string, keepSingleChars = false): Promise<QueryPlan | null> {
  const fresh = new SqliteChunkIndex(threaded.file);
  try {
    return await planQuery(q, (tokens) => fresh.termStats(tokens), { keepSingleChars });
  } finally {
    await fresh.close();
  }
}

describe('search threads', () => {
  it('plan every question as the calling thread does (Latin, CJK, stop words only)', async () => {
    for (const q of QUESTIONS) {
      const onThread = await threaded.planQuery(q);
      expect(onThread, q).toEqual(await inlinePlan(q));
    }
    expect(await threaded.planQuery('the of and')).toBeNull();
    const withSingles = await threaded.planQuery('record 7', { keepSingleChars: true });
    expect(withSingles).toEqual(await inlinePlan('record 7', true));
    expect(withSingles?.keywords).toContain('7');
  });

  it('search with the plan made on the thread as inline', async () => {
    for (const q of QUESTIONS) {
      const plan = await planSearch(threaded, q);
      if (!plan) continue;
      const req = {
        filter: { kbIds: ['kb1'], available: 1 as const },
        text: plan.text,
        vector: null,
        offset: 0,
        limit: 20,
      };
      const a = await threaded.search(req);
      const b = await inline.search(req);
      expect(
        a.hits.map((h) => [h.chunk.id, h.textScore]),
        q,
      ).toEqual(b.hits.map((h) => [h.chunk.id, h.textScore]));
      expect(a.matched).toBe(b.matched);
    }
  });

  it('compute the term similarity of the hits as this thread does', async () => {
    const plan = await planSearch(threaded, QUESTIONS[0]);
    const req = {
      filter: { kbIds: ['kb1'], available: 1 as const },
      text: plan!.text,
      vector: null,
      termQuery: plan!.weighted,
      offset: 0,
      limit: 20,
    };
    const res = await threaded.search(req);
    expect(res.hits.length).toBeGreaterThan(1);
    const items = queryItems(plan!.weighted);
    for (const h of res.hits) {
      expect(h.terms).toBeDefined();
      expect(h.terms).toEqual(hitTerms(items, h.chunk));
    }
    expect(res.hits[0].terms?.similarity).toBeGreaterThan(0);
  });

  it('give retrieval the same answer as inline (hits, scores, tokens, highlight)', async () => {
    for (const q of QUESTIONS) {
      const params = { question: q, kbIds: ['kb1'], queryVector: null, highlight: true };
      expect(await retrieve(threaded, params), q).toEqual(await retrieve(inline, params));
      // A plan started early by the caller (while the question is embedded) gives the same answer.
      const early = { ...params, plan: planSearch(threaded, q) };
      expect(await retrieve(threaded, early), q).toEqual(await retrieve(inline, params));
    }
  });

  it('see the index writes in their term statistics', async () => {
    // Row totals follow every write; a term's df is cached until 1 % of the rows changed (as inline).
    const before = await threaded.planQuery('harbor');
    await threaded.upsert([chunk({ content_with_weight: 'a porcupine in the harbor' })]);
    const after = await threaded.planQuery('porcupine harbor');
    expect(after?.text.indexRows).toBe((before?.text.indexRows ?? 0) + 1);
    expect(after?.text.clauses.find((c) => c.tokens[0] === 'porcupin')?.df).toBe(1);
    expect(after?.text.clauses.find((c) => c.tokens[0] === 'harbor')?.df).toBe(before?.text.clauses[0].df);
  });

  it('fall back to the calling thread when a thread dies, and pass other errors on', async () => {
    const dead: SearchThreads = {
      search: () => Promise.reject(new WorkerJobError('thread crashed', 'crash')),
      plan: () => Promise.reject(new WorkerJobError('thread crashed', 'crash')),
      close: async () => {},
    };
    const broken: SearchThreads = {
      search: () => Promise.reject(new Error('bad request')),
      plan: () => Promise.reject(new Error('bad request')),
      close: async () => {},
    };
    const withDead = new SqliteChunkIndex(threaded.file, null, dead);
    const withBroken = new SqliteChunkIndex(threaded.file, null, broken);
    try {
      const q = QUESTIONS[0];
      const plan = await withDead.planQuery(q);
      expect(plan).toEqual(await inlinePlan(q));
      const req = {
        filter: { kbIds: ['kb1'], available: 1 as const },
        text: plan!.text,
        vector: null,
        offset: 0,
        limit: 5,
      };
      expect((await withDead.search(req)).hits.map((h) => h.chunk.id)).toEqual(
        (await inline.search(req)).hits.map((h) => h.chunk.id),
      );
      await expect(withBroken.planQuery(q)).rejects.toThrow('bad request');
    } finally {
      await withDead.close();
      await withBroken.close();
    }
  });

  it('plan through termStats for an index without planQuery', async () => {
    const fresh = new SqliteChunkIndex(threaded.file);
    try {
      const statsOnly = { termStats: (tokens: string[]) => fresh.termStats(tokens) };
      expect(await planSearch(statsOnly, QUESTIONS[0])).toEqual(await inlinePlan(QUESTIONS[0]));
    } finally {
      await fresh.close();
    }
  });
});
