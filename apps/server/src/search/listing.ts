/**
 * The chunk list of a document (API.md §7 `/v1/chunk/list`, §19.3 "No question"): without keywords a
 * plain listing in reading order (page, top, newest first); with keywords the chunks matching the
 * full-text query, best first, with `<em>` highlights. Both page with `page`/`size` and count `total`.
 */
import type { ChunkIndex, ChunkRecord } from '../chunk-index/chunk-index.js';
import { highlight } from './highlight.js';
import { planSearch } from '../chunk-index/query.js';

export interface ListChunksParams {
  kbId: string;
  docId: string;
  /** 1-based. */
  page: number;
  size: number;
  keywords?: string;
  /** 0/1 filter; undefined lists both. */
  available?: 0 | 1;
}

export interface ListedChunk {
  chunk: ChunkRecord;
  /** content_with_weight with `<em>` marks when keywords were given, else the content. */
  content: string;
}

export async function listChunks(
  index: ChunkIndex,
  p: ListChunksParams,
): Promise<{ total: number; chunks: ListedChunk[] }> {
  const page = Math.max(1, Math.trunc(p.page));
  const size = Math.max(1, Math.trunc(p.size));
  const filter = { kbIds: [p.kbId], docIds: [p.docId], available: p.available };
  const keywords = (p.keywords ?? '').trim();
  if (!keywords) {
    const listed = await index.list(filter, 'position', (page - 1) * size, size);
    return {
      total: listed.total,
      chunks: listed.chunks.map((chunk) => ({ chunk, content: chunk.content_with_weight })),
    };
  }
  const plan = await planSearch(index, keywords);
  if (!plan) return { total: 0, chunks: [] };
  const res = await index.search({
    filter,
    text: { ...plan.text, minimumShouldMatch: 0 },
    vector: null,
    offset: (page - 1) * size,
    limit: size,
  });
  return {
    total: res.matched,
    chunks: res.hits.map((h) => ({
      chunk: h.chunk,
      content: highlight(h.chunk.content_with_weight, plan.keywords),
    })),
  };
}
