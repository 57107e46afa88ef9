import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChunkRecord, SearchRequest, SearchResult } from './chunk-index.js';
import { planQuery } from './query.js';
import type { SqliteChunkIndex } from './sqlite-index.js';
import { readVarint } from './sqlite-prune.js';
import { CONTRACT_QUESTIONS, contractCorpus } from './test-contract-fixtures.js';
import { chunk, tempIndex } from './test-helpers.js';

function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES = ['ka', 'lo', 'mi', 'ru', 'se', 'ta', 'vo', 'ne', 'pi', 'du', 'fa', 'go'];

/** A Zipf-ish vocabulary: a few words in most chunks, a long tail of rare ones. */
function corpus(
  seed: number,
  n: number,
): { records: ChunkRecord[]; words: string[]; pick: () => string; any: () => string } {
  const rnd = prng(seed);
  const words = Array.from(
    { length: 300 },
    (_, i) => `${SYLLABLES[i % 12]}${SYLLABLES[Math.floor(i / 12) % 12]}${SYLLABLES[(i * 7) % 12]}x`,
  );
  const pick = () => words[Math.min(words.length - 1, Math.floor(Math.pow(rnd(), 3) * words.length))];
  const docs = 1 + Math.floor(rnd() * 8);
  const records = Array.from({ length: n }, (_, i) => {
    const len = 3 + Math.floor(rnd() * 40);
    const text = Array.from({ length: len }, pick).join(' ');
    const title = rnd() < 0.3 ? `${pick()} ${pick()}` : 'notes';
    return chunk({
      id: `s${seed}r${i}`,
      kb_id: rnd() < 0.85 ? 'kb1' : 'kb2',
      doc_id: `doc${Math.floor(rnd() * docs)}`,
      docnm_kwd: title,
      // Duplicates make exact ties, which must come in the same (rid) order.
      content_with_weight: rnd() < 0.1 && i > 0 ? `${text.split(' ')[0]} dup` : text,
      important_kwd: rnd() < 0.1 ? [pick()] : [],
      available_int: rnd() < 0.9 ? 1 : 0,
    });
  });
  return { records, words, pick, any: () => words[Math.floor(rnd() * words.length)] };
}

async function both(index: SqliteChunkIndex, req: SearchRequest): Promise<[SearchResult, SearchResult]> {
  return [index.searchSync(req, false), index.searchSync(req, true)];
}

/** Identical windows: same rows in the same order with the same scores, same count and maximum. */
function expectIdentical(exhaustive: SearchResult, pruned: SearchResult, label: string): void {
  expect(pruned.matched, `${label}: matched`).toBe(exhaustive.matched);
  expect(pruned.maxTextScore, `${label}: max`).toBe(exhaustive.maxTextScore);
  const rows = (r: SearchResult) => r.hits.map((h) => [h.chunk.id, h.textScore, h.engineScore]);
  expect(rows(pruned), label).toEqual(rows(exhaustive));
}

describe('pruned keyword search (MaxScore) against exhaustive BM25', () => {
  const t = tempIndex();
  let prunedCount = 0;
  let total = 0;

  // Counts how often the pruned path actually answered (not only the exhaustive fallback).
  async function compare(req: SearchRequest, label: string): Promise<void> {
    const [a, b] = await both(t.index, req);
    expectIdentical(a, b, label);
    total++;
    if (t.index.lastSearchPruned) prunedCount++;
  }

  afterAll(async () => {
    await t.close();
  });

  it('reads SQLite varints', () => {
    expect(readVarint(Uint8Array.from([0x05]), 0)).toBe(5);
    expect(readVarint(Uint8Array.from([0x81, 0x00]), 0)).toBe(128);
    expect(readVarint(Uint8Array.from([0x83, 0xe8, 0x07]), 1)).toBe(0x68 * 128 + 7);
  });

  it('returns the exhaustive window on random corpora and questions (many seeds)', async () => {
    for (let seed = 1; seed <= 12; seed++) {
      await t.index.deleteByKb('kb1');
      await t.index.deleteByKb('kb2');
      const { records, pick, any } = corpus(seed, 150 + seed * 40);
      await t.index.upsert(records);
      const rnd = prng(seed * 1000);
      for (let q = 0; q < 25; q++) {
        const n = 1 + Math.floor(rnd() * 6);
        // Common words with one or two rarer ones (what pruning is for), or common words only.
        const words = Array.from({ length: n }, (_, i) => (i < 1 + (q % 3) ? any() : pick()));
        const question = words.join(' ');
        const plan = await planQuery(question, (tokens) => t.index.termStats(tokens));
        if (!plan) continue;
        const limit = [1, 3, 5, 10, 20][q % 5];
        const offset = q % 4 === 0 ? 3 : 0;
        const docIds = q % 7 === 3 ? ['doc0'] : undefined;
        const kbIds = q % 5 === 2 ? ['kb1', 'kb2'] : ['kb1'];
        await compare(
          { filter: { kbIds, docIds, available: 1 }, text: plan.text, vector: null, offset, limit },
          `seed ${seed} "${question}" ${offset}+${limit}`,
        );
      }
    }
    // The comparison is only meaningful if pruning answered a good share of the questions.
    expect(prunedCount).toBeGreaterThan(total / 5);
  });

  it('returns the exhaustive window on the contract fixtures', async () => {
    await t.index.deleteByKb('kb1');
    await t.index.deleteByKb('kb2');
    const records = contractCorpus();
    await t.index.upsert(records);
    const kbIds = [...new Set(records.map((r) => r.kb_id))];
    for (const question of CONTRACT_QUESTIONS) {
      const plan = await planQuery(question, (tokens) => t.index.termStats(tokens));
      if (!plan) continue;
      for (const limit of [1, 3, 10, 30])
        await compare(
          { filter: { kbIds, available: 1 }, text: plan.text, vector: null, offset: 0, limit },
          `fixture "${question}" ${limit}`,
        );
    }
  });
});

describe('row tokens', () => {
  let t: ReturnType<typeof tempIndex>;
  beforeAll(() => {
    t = tempIndex();
  });
  afterAll(async () => {
    await t.close();
  });

  it('document filters still find rows after an availability move (new rid, new token)', async () => {
    const a = chunk({ content_with_weight: 'zebra crossing', doc_id: 'd-1' });
    const b = chunk({ content_with_weight: 'zebra stripes', doc_id: 'd-2' });
    await t.index.upsert([a, b]);
    await t.index.setAvailableByIds([a.id], 0);
    await t.index.setAvailableByIds([a.id], 1);
    const plan = (await planQuery('zebra', (tokens) => t.index.termStats(tokens)))!;
    const res = await t.index.search({
      filter: { kbIds: ['kb1'], docIds: ['d-1'], available: 1 },
      text: plan.text,
      vector: null,
      offset: 0,
      limit: 10,
    });
    expect(res.hits.map((h) => h.chunk.id)).toEqual([a.id]);
    expect(t.index.hasRowTokens()).toBe(true);
  });
});
