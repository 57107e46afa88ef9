/**
 * The process's chunk index (one per context), opened on first use and closed with the context.
 * Everything in the KB/document/queue areas reaches the index through this.
 */
import type { AppContext } from '../../context.js';
import type { ChunkIndex } from '../../search/chunk-index.js';
import { createChunkIndex } from '../../search/create-index.js';

const indexes = new WeakMap<AppContext, Promise<ChunkIndex>>();

export function chunkIndexOf(ctx: AppContext): Promise<ChunkIndex> {
  let index = indexes.get(ctx);
  if (!index) {
    // createChunkIndex registers the index's health probe and its close with the context.
    index = Promise.resolve(createChunkIndex(ctx));
    indexes.set(ctx, index);
  }
  return index;
}

/** Writes a document's new name into every chunk's title (`docnm_kwd`), re-tokenized. */
export async function renameDocChunks(
  ctx: AppContext,
  kbId: string,
  docId: string,
  name: string,
): Promise<void> {
  const index = await chunkIndexOf(ctx);
  const pageSize = 500;
  for (let offset = 0; ; offset += pageSize) {
    const { chunks } = await index.list(
      { kbIds: [kbId], docIds: [docId], includeGraph: true },
      'position',
      offset,
      pageSize,
    );
    for (const c of chunks) await index.update(c.id, { docnm_kwd: name });
    if (chunks.length < pageSize) return;
  }
}
