/** Reading a document's enabled chunks (not graph records) from the chunk index, in reading order. */
import type { ChunkIndex, ChunkRecord } from '../../chunk-index/chunk-index.js';

const PAGE = 1000;

export async function docChunkRecords(
  index: ChunkIndex,
  kbId: string,
  docId: string,
): Promise<ChunkRecord[]> {
  const out: ChunkRecord[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const { chunks } = await index.list(
      { kbIds: [kbId], docIds: [docId], available: 1 },
      'position',
      offset,
      PAGE,
    );
    out.push(...chunks);
    if (chunks.length < PAGE) return out;
  }
}

export async function docChunks(
  index: ChunkIndex,
  kbId: string,
  docId: string,
): Promise<Array<{ id: string; text: string }>> {
  // RAPTOR summaries (extra.raptor_kwd) are the KB's own writing, not the document's text.
  return (await docChunkRecords(index, kbId, docId))
    .filter((c) => !c.extra?.raptor_kwd)
    .map((c) => ({ id: c.id, text: c.content_with_weight }));
}
