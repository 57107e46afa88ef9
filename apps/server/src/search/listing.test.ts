import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listChunks } from './listing.js';
import type { SqliteChunkIndex } from '../chunk-index/sqlite-index.js';
import { chunk, fillers, tempIndex } from '../chunk-index/test-helpers.js';

let t: ReturnType<typeof tempIndex>;
let index: SqliteChunkIndex;

beforeEach(() => {
  t = tempIndex();
  index = t.index;
});
afterEach(async () => {
  await t.close();
});

describe('listChunks', () => {
  it('lists a document in reading order, pages, and filters by availability', async () => {
    const a = chunk({ content_with_weight: 'second page', positions: [[2, 0, 0, 1, 2]] });
    const b = chunk({ content_with_weight: 'first page', positions: [[1, 0, 0, 1, 2]] });
    const c = chunk({
      content_with_weight: 'first page, disabled',
      positions: [[1, 0, 0, 9, 10]],
      available_int: 0,
    });
    const other = chunk({ doc_id: 'doc2', content_with_weight: 'other document' });
    await index.upsert([a, b, c, other]);
    const all = await listChunks(index, { kbId: 'kb1', docId: 'doc1', page: 1, size: 2 });
    expect(all.total).toBe(3);
    expect(all.chunks.map((x) => x.chunk.id)).toEqual([b.id, c.id]);
    expect(
      (await listChunks(index, { kbId: 'kb1', docId: 'doc1', page: 2, size: 2 })).chunks.map(
        (x) => x.chunk.id,
      ),
    ).toEqual([a.id]);
    const enabled = await listChunks(index, { kbId: 'kb1', docId: 'doc1', page: 1, size: 10, available: 1 });
    expect(enabled.chunks.map((x) => x.chunk.id)).toEqual([b.id, a.id]);
  });

  it('searches a document by keywords with highlights, disabled chunks included when asked', async () => {
    const a = chunk({ content_with_weight: 'Invoices are due monthly. Payment terms vary.' });
    const b = chunk({ content_with_weight: 'Late invoice fees apply.', available_int: 0 });
    const c = chunk({ content_with_weight: 'Nothing relevant here.' });
    await index.upsert([a, b, c, ...fillers(6, 'kb1', 'doc1')]);
    const res = await listChunks(index, {
      kbId: 'kb1',
      docId: 'doc1',
      page: 1,
      size: 10,
      keywords: 'invoice',
    });
    expect(res.total).toBe(2);
    expect(res.chunks.map((x) => x.content).sort()).toEqual([
      '<em>Invoices</em> are due monthly.',
      'Late <em>invoice</em> fees apply.',
    ]);
    const enabled = await listChunks(index, {
      kbId: 'kb1',
      docId: 'doc1',
      page: 1,
      size: 10,
      keywords: 'invoice',
      available: 1,
    });
    expect(enabled.chunks.map((x) => x.chunk.id)).toEqual([a.id]);
  });
});
