import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Config } from '../config.js';
import { HealthRegistry } from '../health/registry.js';
import type { ChunkFilter } from './chunk-index.js';
import { createChunkIndex } from './create-index.js';
import { planQuery } from './query.js';
import type { SqliteChunkIndex } from './sqlite-index.js';
import { chunk, fillers, tempIndex } from './test-helpers.js';

let t: ReturnType<typeof tempIndex>;
let index: SqliteChunkIndex;

beforeEach(() => {
  t = tempIndex();
  index = t.index;
});
afterEach(async () => {
  await t.close();
});

async function find(question: string, filter: Partial<ChunkFilter> = {}): Promise<string[]> {
  const plan = await planQuery(question, (tokens) => index.termStats(tokens));
  if (!plan) return [];
  const res = await index.search({
    filter: { kbIds: ['kb1'], available: 1, ...filter },
    text: plan.text,
    vector: null,
    offset: 0,
    limit: 100,
  });
  return res.hits.map((h) => h.chunk.id).sort();
}

describe('SqliteChunkIndex', () => {
  it('stores and returns every record field, vectors unit-normalized', async () => {
    const rec = chunk({
      id: 'a000000000000001',
      content_with_weight: '<table><tr><td>Revenue</td></tr></table>',
      important_kwd: ['finance'],
      question_kwd: ['What was revenue?'],
      tag_kwd: ['money'],
      tag_feas: { money: 3 },
      img_id: 'kb1-img1',
      positions: [[2, 10, 200, 30, 60]],
      doc_type_kwd: 'table',
      mom_id: 'parent01',
      pagerank_fea: 5,
      token_num: 12,
      vector: [3, 4],
      extra: { revenue_flt: 1.5 },
    });
    await index.upsert([rec]);
    const got = await index.get(rec.id);
    expect({ ...got, vector: null }).toEqual({ ...rec, vector: null });
    expect(got!.vector![0]).toBeCloseTo(0.6);
    expect(got!.vector![1]).toBeCloseTo(0.8);
    expect(await index.get('missing')).toBeNull();
  });

  it('replaces a record with the same id instead of adding one', async () => {
    const a = chunk({ id: 'b000000000000001', content_with_weight: 'first apricot text', vector: [1, 0, 0] });
    await index.upsert([a]);
    await index.upsert([{ ...a, content_with_weight: 'second blueberry text' }]);
    expect(index.rowCounts()).toEqual({ chunks: 1, fts: 1, vectors: 1 });
    expect(await find('apricot')).toEqual([]);
    expect(await find('blueberry')).toEqual([a.id]);
  });

  it('deletes by document and by KB in chunk, FTS and vector rows, and reports counts', async () => {
    const d1 = [1, 2, 3].map((i) =>
      chunk({ doc_id: 'd1', content_with_weight: `walnut note ${i}`, vector: [i, 1] }),
    );
    const d2 = [1, 2].map((i) =>
      chunk({ doc_id: 'd2', content_with_weight: `walnut memo ${i}`, vector: [1, i] }),
    );
    const other = [
      chunk({ kb_id: 'kb2', doc_id: 'd9', content_with_weight: 'walnut elsewhere', vector: [1, 1] }),
    ];
    await index.upsert([...d1, ...d2, ...other]);
    expect(index.rowCounts()).toEqual({ chunks: 6, fts: 6, vectors: 6 });
    expect(await index.countByDoc('d1')).toBe(3);

    expect(await index.deleteByDoc('d1')).toBe(3);
    expect(index.rowCounts()).toEqual({ chunks: 3, fts: 3, vectors: 3 });
    expect(await find('walnut')).toEqual(d2.map((c) => c.id).sort());

    expect(await index.deleteByKb('kb1')).toBe(2);
    expect(index.rowCounts()).toEqual({ chunks: 1, fts: 1, vectors: 1 });
    expect(await find('walnut')).toEqual([]);
    expect(await find('walnut', { kbIds: ['kb2'] })).toEqual([other[0].id]);
  });

  it('deletes by ids only inside the given KB', async () => {
    const a = chunk({ content_with_weight: 'cedar one' });
    const b = chunk({ kb_id: 'kb2', content_with_weight: 'cedar two' });
    await index.upsert([a, b]);
    expect(await index.deleteByIds('kb1', [a.id, b.id])).toBe(1);
    expect(await index.get(b.id)).not.toBeNull();
    expect(await index.deleteByIds('kb1', [])).toBe(0);
  });

  it('counts chunks and sums tokens per document', async () => {
    await index.upsert([
      chunk({ doc_id: 'd1', content_with_weight: 'x one', token_num: 5 }),
      chunk({ doc_id: 'd1', content_with_weight: 'x two', token_num: 7 }),
      chunk({ doc_id: 'd2', content_with_weight: 'x three', token_num: 1 }),
    ]);
    const stats = await index.statsByDocs(['d1', 'd2', 'd3']);
    expect(stats.get('d1')).toEqual({ chunks: 2, tokens: 12 });
    expect(stats.get('d2')).toEqual({ chunks: 1, tokens: 1 });
    expect(stats.has('d3')).toBe(false);
  });

  it('lists by page, then top, then newest first, with a total and paging', async () => {
    const a = chunk({ content_with_weight: 'p2 top', positions: [[2, 0, 10, 5, 9]], create_time: 1 });
    const b = chunk({ content_with_weight: 'p1 low', positions: [[1, 0, 10, 50, 60]], create_time: 2 });
    const c = chunk({ content_with_weight: 'p1 high old', positions: [[1, 0, 10, 5, 9]], create_time: 3 });
    const d = chunk({ content_with_weight: 'p1 high new', positions: [[1, 0, 10, 5, 9]], create_time: 4 });
    const e = chunk({ content_with_weight: 'no position', create_time: 5 });
    await index.upsert([a, b, c, d, e]);
    const all = await index.list({ kbIds: ['kb1'], docIds: ['doc1'] }, 'position', 0, 10);
    expect(all.total).toBe(5);
    expect(all.chunks.map((x) => x.id)).toEqual([e.id, d.id, c.id, b.id, a.id]);
    const page2 = await index.list({ kbIds: ['kb1'], docIds: ['doc1'] }, 'position', 2, 2);
    expect(page2.chunks.map((x) => x.id)).toEqual([c.id, b.id]);
    const newest = await index.list({ kbIds: ['kb1'] }, 'newest', 0, 2);
    expect(newest.chunks.map((x) => x.id)).toEqual([e.id, d.id]);
  });

  it('re-tokenizes a chunk on update and keeps its vector unless replaced', async () => {
    const a = chunk({ content_with_weight: 'original mango', vector: [1, 0] });
    await index.upsert([a, ...fillers(4)]);
    expect(
      await index.update(a.id, { content_with_weight: 'edited papaya', important_kwd: ['tropical'] }),
    ).toBe(true);
    expect(await find('mango')).toEqual([]);
    expect(await find('papaya')).toEqual([a.id]);
    expect(await find('tropical')).toEqual([a.id]);
    expect((await index.get(a.id))!.vector).toEqual([1, 0]);
    expect(await index.update(a.id, { vector: null })).toBe(true);
    expect(index.rowCounts().vectors).toBe(0);
    expect(await index.update('missing', { content_with_weight: 'x' })).toBe(false);
  });

  it('switches availability: disabled chunks leave retrieval but stay listable and keep their vector', async () => {
    const a = chunk({ doc_id: 'd1', content_with_weight: 'plum alpha', vector: [0, 1] });
    const b = chunk({ doc_id: 'd1', content_with_weight: 'plum beta' });
    const c = chunk({ doc_id: 'd2', content_with_weight: 'plum gamma' });
    await index.upsert([a, b, c, ...fillers(4)]);
    expect(await index.setAvailableByIds([a.id], 0, 'd1')).toBe(1);
    expect(await find('plum')).toEqual([b.id, c.id].sort());
    expect(await find('plum', { available: 0 })).toEqual([a.id]);
    expect(await find('plum', { available: undefined })).toEqual([a.id, b.id, c.id].sort());
    expect((await index.get(a.id))!.available_int).toBe(0);
    expect((await index.get(a.id))!.vector).toEqual([0, 1]);
    expect(index.rowCounts()).toEqual({ chunks: 7, fts: 7, vectors: 1 });

    expect(await index.setAvailableByDoc('d1', 0)).toBe(2);
    expect(await find('plum')).toEqual([c.id]);
    expect(await index.setAvailableByDoc('d1', 1)).toBe(2);
    expect(await find('plum')).toEqual([a.id, b.id, c.id].sort());
    expect(await index.setAvailableByIds([c.id], 0, 'other-doc')).toBe(0);
  });

  it('filters by document inside the KB', async () => {
    const a = chunk({ doc_id: 'd1', content_with_weight: 'kiwi one' });
    const b = chunk({ doc_id: 'd2', content_with_weight: 'kiwi two' });
    await index.upsert([a, b, ...fillers(4)]);
    expect(await find('kiwi', { docIds: ['d2'] })).toEqual([b.id]);
  });

  it('excludes knowledge-graph records unless asked for', async () => {
    const a = chunk({ content_with_weight: 'quince entity', knowledge_graph_kwd: 'entity' });
    const b = chunk({ content_with_weight: 'quince chunk' });
    await index.upsert([a, b, ...fillers(4)]);
    expect(await find('quince')).toEqual([b.id]);
    expect(await find('quince', { includeGraph: true })).toEqual([a.id, b.id].sort());
  });

  it('counts, removes and renames tags across a KB and sets pagerank', async () => {
    await index.upsert([
      chunk({ content_with_weight: 't1', tag_kwd: ['red', 'blue'] }),
      chunk({ content_with_weight: 't2', tag_kwd: ['red'] }),
      chunk({ kb_id: 'kb2', content_with_weight: 't3', tag_kwd: ['red'] }),
    ]);
    expect(await index.tagCounts(['kb1'])).toEqual([
      ['red', 2],
      ['blue', 1],
    ]);
    expect(await index.renameTag('kb1', 'red', 'crimson')).toBe(2);
    expect(await index.removeTags('kb1', ['blue'])).toBe(1);
    expect(await index.tagCounts(['kb1'])).toEqual([['crimson', 2]]);
    expect(await index.tagCounts(['kb2'])).toEqual([['red', 1]]);
    expect(await index.setPagerank('kb1', 7)).toBe(2);
  });

  it('gives document frequencies from the index', async () => {
    await index.upsert([
      chunk({ content_with_weight: 'fig fig date' }),
      chunk({ content_with_weight: 'fig' }),
    ]);
    const s = await index.termStats(['fig', 'date', 'none']);
    expect(s).toEqual({ total: 2, df: { fig: 2, date: 1, none: 0 } });
  });

  it('is created from the app context with a doc_engine health probe', async () => {
    const health = new HealthRegistry();
    const onClose: Array<() => Promise<void> | void> = [];
    const idx = createChunkIndex({ dataDir: t.dir } as Config, health, onClose);
    await idx.upsert([chunk({ content_with_weight: 'probe' })]);
    const res = await health.run('doc_engine');
    expect(res).toMatchObject({ status: 'green', type: 'sqlite-fts5+sqlite-vec', chunks: 1 });
    for (const close of onClose) await close();
  });
});
