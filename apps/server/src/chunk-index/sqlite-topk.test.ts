import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChunkFilter, ChunkRecord, SearchResult } from './chunk-index.js';
import { planQuery } from './query.js';
import { SqliteChunkIndex } from './sqlite-index.js';
import { SqliteIndexReader } from './sqlite-reader.js';
import { chunk, tempIndex } from './test-helpers.js';

/** Deterministic generator (mulberry32). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = Array.from(
  { length: 60 },
  (_, i) => `w${String.fromCharCode(97 + (i % 26))}${Math.floor(i / 26)}x`,
);

function corpus(rnd: () => number) {
  // Zipf-like: low ranks are common (idf near 0), high ranks rare.
  const word = () => WORDS[Math.min(WORDS.length - 1, Math.floor(WORDS.length * rnd() ** 2.5))];
  const text = (n: number) => Array.from({ length: n }, word).join(' ');
  const record = (i: number, kb: string, doc: string): ChunkRecord =>
    chunk({
      id: `r${i}`,
      kb_id: kb,
      doc_id: doc,
      docnm_kwd: rnd() < 0.3 ? `${text(2)}.txt` : 'file.txt',
      content_with_weight: text(3 + Math.floor(rnd() * 40)),
      important_kwd: rnd() < 0.2 ? [word()] : [],
      question_kwd: rnd() < 0.1 ? [text(4)] : [],
      available_int: rnd() < 0.9 ? 1 : 0,
    });
  return { word, text, record };
}

const opened: Array<{ close: () => Promise<void> | void }> = [];
const POSTINGS_TABLES = ['chunk_post', 'chunk_post_row', 'chunk_post_meta'];

/** The postings tables present in an index file. */
function postingsTables(file: string): string[] {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const names = db.prepare("SELECT name FROM sqlite_master WHERE name GLOB 'chunk_post*'").pluck().all();
    return (names as string[]).filter((n) => POSTINGS_TABLES.includes(n)).sort();
  } finally {
    db.close();
  }
}

/** Reads the index file as the search threads do; searches with the postings off are exhaustive. */
function readerOf(index: SqliteChunkIndex): SqliteIndexReader {
  const reader = new SqliteIndexReader(index.file);
  opened.push(reader);
  return reader;
}
afterEach(async () => {
  for (const o of opened.splice(0)) await o.close();
});

/**
 * The same search exhaustive (a reader with the postings off) and through the index (postings on),
 * and through a reader with them on (the search threads' path).
 */
async function both(
  index: SqliteChunkIndex,
  reader: SqliteIndexReader,
  question: string,
  filter: ChunkFilter,
  offset: number,
  limit: number,
) {
  const plan = await planQuery(question, (tokens) => index.termStats(tokens));
  if (!plan) return null;
  const req = { filter, text: plan.text, vector: null, offset, limit };
  const strip = (r: SearchResult) => ({
    ids: r.hits.map((h) => h.chunk.id),
    text: r.hits.map((h) => h.textScore),
    engine: r.hits.map((h) => h.engineScore),
    matched: r.matched,
    max: r.maxTextScore,
  });
  const exhaustive = strip(reader.search(req, false));
  const fast = strip(await index.search(req));
  expect(strip(reader.search(req, true))).toStrictEqual(fast);
  return { exhaustive, fast };
}

async function populate(index: SqliteChunkIndex, seed: number) {
  const rnd = prng(seed);
  const c = corpus(rnd);
  const n = 150 + Math.floor(rnd() * 250);
  const recs = Array.from({ length: n }, (_, i) =>
    c.record(i, rnd() < 0.7 ? 'kb1' : 'kb2', `d${Math.floor(rnd() * 6)}`),
  );
  // Several batches (blocks split and merge), then updates, moves and deletes.
  for (let i = 0; i < n; i += 97) await index.upsert(recs.slice(i, i + 97));
  const pick = () => `r${Math.floor(rnd() * n)}`;
  await index.upsert(Array.from({ length: 20 }, () => c.record(Number(pick().slice(1)), 'kb1', 'd1')));
  await index.setAvailableByIds(Array.from({ length: 15 }, pick), 0);
  await index.setAvailableByIds(Array.from({ length: 15 }, pick), 1);
  await index.deleteByIds('kb1', Array.from({ length: 15 }, pick));
  await index.deleteByDoc('d5');
  await index.update(pick(), { content_with_weight: c.text(12) });
  return c;
}

function filters(rnd: () => number): ChunkFilter {
  const kbIds = rnd() < 0.5 ? ['kb1'] : ['kb1', 'kb2'];
  const f: ChunkFilter = { kbIds, available: rnd() < 0.7 ? 1 : rnd() < 0.5 ? 0 : undefined };
  if (rnd() < 0.25) f.docIds = ['d0', 'd2', `d${Math.floor(rnd() * 6)}`];
  return f;
}

describe('keyword-only top-k through block-max postings', () => {
  it('ranks exactly as exhaustive BM25 over random corpora with updates, moves, deletes and filters', async () => {
    let compared = 0;
    for (let seed = 1; seed <= 10; seed++) {
      const t = tempIndex({ keywordPostings: true });
      opened.push(t);
      const c = await populate(t.index, seed);
      const reader = readerOf(t.index);
      const rnd = prng(seed * 1000);
      for (let q = 0; q < 30; q++) {
        const offset = rnd() < 0.2 ? Math.floor(rnd() * 40) : 0;
        const limit = 1 + Math.floor(rnd() * 30);
        const out = await both(
          t.index,
          reader,
          c.text(2 + Math.floor(rnd() * 5)),
          filters(rnd),
          offset,
          limit,
        );
        if (!out) continue;
        expect(out.fast).toStrictEqual(out.exhaustive);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(250);
  }, 60_000);

  it('builds the postings of an index written without them, with the same results', async () => {
    const t = tempIndex({ keywordPostings: true });
    opened.push(t);
    const c = await populate(t.index, 77);
    await t.index.close();
    const file = path.join(t.dir, 'index.sqlite');
    // As an index from before the postings: none of their tables.
    const raw = new Database(file);
    raw.exec('DROP TABLE chunk_post; DROP TABLE chunk_post_row; DROP TABLE chunk_post_meta;');
    raw.close();
    const reopened = new SqliteChunkIndex(file, null, null, { keywordPostings: true });
    opened.push({ close: () => reopened.close() });
    const reader = readerOf(reopened);
    const rnd = prng(5);
    for (let q = 0; q < 30; q++) {
      const out = await both(reopened, reader, c.text(4), filters(rnd), 0, 20);
      if (!out) continue;
      expect(out.exhaustive.matched).toBeGreaterThanOrEqual(0);
      expect(out.fast).toStrictEqual(out.exhaustive);
    }
    const check = new Database(file, { readonly: true });
    expect(Number(check.prepare('SELECT COUNT(*) FROM chunk_post').pluck().get())).toBeGreaterThan(0);
    check.close();
  });

  it('with the option off: no postings tables, writes go without them, and turning it on rebuilds them', async () => {
    const t = tempIndex({ keywordPostings: true });
    opened.push(t);
    const c = await populate(t.index, 31);
    const file = t.index.file;
    expect(postingsTables(file)).toEqual([...POSTINGS_TABLES].sort());
    await t.index.close();

    // Off: the postings of the earlier run are dropped (they would go stale) and none are written.
    const off = new SqliteChunkIndex(file);
    expect(postingsTables(file)).toEqual([]);
    const rnd = prng(32);
    await off.upsert(Array.from({ length: 40 }, (_, i) => c.record(1000 + i, 'kb1', 'd3')));
    await off.update('r1003', { content_with_weight: c.text(9) });
    await off.setAvailableByIds(['r1001', 'r1002'], 0);
    await off.deleteByIds('kb1', ['r1004']);
    await off.deleteByDoc('d4');
    expect(postingsTables(file)).toEqual([]);
    // A keyword-only search is answered (exhaustively) all the same.
    const plan = await planQuery(c.text(3), (tokens) => off.termStats(tokens));
    expect(plan).not.toBeNull();
    const offResult = await off.search({
      filter: { kbIds: ['kb1'] },
      text: plan!.text,
      vector: null,
      offset: 0,
      limit: 10,
    });
    expect(offResult.matched).toBeGreaterThan(0);
    await off.close();
    expect(postingsTables(file)).toEqual([]);

    // On again: rebuilt from FTS5, covering the rows written while off (not the stale ones).
    const on = new SqliteChunkIndex(file, null, null, { keywordPostings: true });
    opened.push({ close: () => on.close() });
    expect(postingsTables(file)).toEqual([...POSTINGS_TABLES].sort());
    const reader = readerOf(on);
    let compared = 0;
    for (let q = 0; q < 30; q++) {
      const out = await both(on, reader, c.text(2 + Math.floor(rnd() * 4)), filters(rnd), 0, 20);
      if (!out) continue;
      expect(out.fast).toStrictEqual(out.exhaustive);
      compared++;
    }
    expect(compared).toBeGreaterThan(20);
  });
});
