/**
 * Comparison of two chunk indexes' answers for the contract suite (not a test file itself): searches,
 * retrieve(), keyword listings, listings, statistics and records, with ties allowed in either order.
 */
import { expect } from 'vitest';
import { listChunks } from '../search/listing.js';
import { retrieve } from '../search/retrieval.js';
import type { ChunkIndex, SearchHit, SearchRequest, SearchResult } from './chunk-index.js';
import { planQuery } from './query.js';
import { CONTRACT_QUESTIONS, queryVector, type OpenedIndex } from './test-contract-fixtures.js';

async function both<T>(a: ChunkIndex, b: ChunkIndex, fn: (index: ChunkIndex) => Promise<T>): Promise<[T, T]> {
  return [await fn(a), await fn(b)];
}

const TOL = 1e-6;
const close = (a: number, b: number) => Math.abs(a - b) <= TOL * Math.max(1, Math.abs(a), Math.abs(b));

/**
 * Same result within ties: same totals, and position by position the same scores; rows whose engine
 * scores are equal may come in either order, so ids are compared as sets per run of equal scores (all
 * but the last run, which the window may cut).
 */
export function expectSameResult(a: SearchResult, b: SearchResult, label: string): void {
  expect(b.matched, `${label}: matched`).toBe(a.matched);
  expect(
    close(a.maxTextScore, b.maxTextScore),
    `${label}: max text ${a.maxTextScore} vs ${b.maxTextScore}`,
  ).toBe(true);
  expectSameHits(a.hits, b.hits, label);
}

export function expectSameHits(a: SearchHit[], b: SearchHit[], label: string): void {
  expect(b.map((h) => h.engineScore).length, `${label}: hits`).toBe(a.length);
  const byId = new Map(b.map((h) => [h.chunk.id, h]));
  let start = 0;
  for (let i = 1; i <= a.length; i++) {
    if (i < a.length && close(a[i].engineScore, a[start].engineScore)) continue;
    const last = i === a.length;
    for (let k = start; k < i; k++) {
      expect(
        close(a[k].engineScore, b[k].engineScore),
        `${label}: score #${k} ${a[k].engineScore} vs ${b[k].engineScore}`,
      ).toBe(true);
      const other = byId.get(a[k].chunk.id);
      if (last && !other) continue;
      expect(other, `${label}: ${a[k].chunk.id} (#${k}) missing`).toBeDefined();
      expect(close(a[k].textScore, other!.textScore), `${label}: text score of ${a[k].chunk.id}`).toBe(true);
      expect(close(a[k].cosine ?? 0, other!.cosine ?? 0), `${label}: cosine of ${a[k].chunk.id}`).toBe(true);
      expect({ ...other!.chunk, vector: null }, `${label}: record ${a[k].chunk.id}`).toEqual({
        ...a[k].chunk,
        vector: null,
      });
    }
    if (!last) {
      const ids = (hits: SearchHit[]) =>
        hits
          .slice(start, i)
          .map((h) => h.chunk.id)
          .sort();
      expect(ids(b), `${label}: tied run at #${start}`).toEqual(ids(a));
    }
    start = i;
  }
}

export async function compareSearches(a: ChunkIndex, b: ChunkIndex, label: string): Promise<void> {
  for (const [qi, question] of CONTRACT_QUESTIONS.entries()) {
    const [pa, pb] = await both(a, b, (ix) => planQuery(question, (t) => ix.termStats(t)));
    expect(pb, `${label}: plan of "${question}"`).toEqual(pa);
    if (!pa || !pb) continue;
    const base = {
      filter: { kbIds: ['kba', 'kbb'], available: 1 as const },
      text: pa.text,
      vector: null,
      offset: 0,
      limit: 30,
    };
    const requests: Array<[string, SearchRequest]> = [
      ['bm25', base],
      ['hybrid', { ...base, vector: { values: queryVector(qi), topK: 1024, floor: 0 } }],
      ['hybrid top-5 floor', { ...base, vector: { values: queryVector(qi), topK: 5, floor: 0.3 } }],
      [
        'hybrid bm25',
        { ...base, textScoring: 'bm25', vector: { values: queryVector(qi), topK: 50, floor: 0 } },
      ],
      ['presence page 2', { ...base, textScoring: 'presence', offset: 10, limit: 10 }],
      ['past the end', { ...base, offset: 500 }],
      ['doc filter', { ...base, filter: { kbIds: ['kba'], docIds: ['doc1', 'doc2'] } }],
      ['disabled', { ...base, filter: { kbIds: ['kba', 'kbb'], available: 0 } }],
      [
        'all with graph',
        {
          ...base,
          filter: { kbIds: ['kba', 'kbb'], includeGraph: true },
          tagWeights: { alpha: 1, beta: 2 },
        },
      ],
      ['msm 0.3', { ...base, text: { ...pa.text, minimumShouldMatch: 0.3 } }],
    ];
    for (const [name, req] of requests) {
      const [ra, rb] = await both(a, b, (ix) => ix.search(req));
      expectSameResult(ra, rb, `${label}: "${question}" ${name}`);
    }
    for (const params of [{ size: 30 }, { size: 7, page: 2, vectorSimilarityWeight: 0.6 }]) {
      for (const vec of [null, queryVector(qi)]) {
        const input = { question, kbIds: ['kba', 'kbb'], queryVector: vec, ...params };
        const [ra, rb] = await both(a, b, (ix) => retrieve(ix, input));
        expect(rb.total, `${label}: retrieve "${question}" total`).toBe(ra.total);
        expect(rb.candidates).toBe(ra.candidates);
        expect(rb.doc_aggs).toEqual(ra.doc_aggs);
        // Scores compared within rounding; the rest of each hit exactly.
        const asHits = (r: typeof ra) =>
          r.chunks.map(({ similarity, vector_similarity, term_similarity, text_similarity, ...rest }) => ({
            chunk: { ...rest, id: rest.chunk_id, term: Number(term_similarity.toFixed(9)) } as never,
            textScore: text_similarity,
            cosine: vector_similarity,
            engineScore: similarity,
          }));
        expectSameHits(asHits(ra), asHits(rb), `${label}: retrieve "${question}"`);
      }
    }
    const [la, lb] = await both(a, b, (ix) =>
      listChunks(ix, { kbId: 'kba', docId: 'doc0', page: 1, size: 50, keywords: question }),
    );
    expect(lb, `${label}: keyword listing "${question}"`).toEqual(la);
  }
}

export async function compareListings(
  a: OpenedIndex,
  b: OpenedIndex,
  label: string,
  ids: string[],
): Promise<void> {
  for (const filter of [
    { kbIds: ['kba'] },
    { kbIds: ['kba', 'kbb'], available: 0 as const },
    { kbIds: ['kbb'], docIds: ['doc4'], includeGraph: true },
  ]) {
    for (const order of ['position', 'newest'] as const) {
      const [x, y] = await both(a.index, b.index, (ix) => ix.list(filter, order, 5, 40));
      expect(y.total, `${label}: list total`).toBe(x.total);
      expect(y.chunks, `${label}: list ${order} ${JSON.stringify(filter)}`).toEqual(x.chunks);
    }
  }
  const docs = ['doc0', 'doc1', 'doc2', 'doc3', 'doc4', 'doc5'];
  const [sa, sb] = await both(a.index, b.index, (ix) => ix.statsByDocs(docs));
  expect(sb).toEqual(sa);
  const [ta, tb] = await both(a.index, b.index, (ix) => ix.tagCounts(['kba', 'kbb']));
  expect(tb).toEqual(ta);
  const [da, db] = await both(a.index, b.index, (ix) =>
    ix.termStats(['retrieval', 'engine', 'nebula', '人工', '人工智能', 'covid-19', 'none']),
  );
  expect(db).toEqual(da);
  const [ga, gb] = await both(a.index, b.index, (ix) => ix.getMany(ids));
  expect(gb.map((r) => ({ ...r, vector: r.vector?.map((x) => Number(x.toFixed(6))) ?? null }))).toEqual(
    ga.map((r) => ({ ...r, vector: r.vector?.map((x) => Number(x.toFixed(6))) ?? null })),
  );
  expect(await b.counts()).toEqual(await a.counts());
}
