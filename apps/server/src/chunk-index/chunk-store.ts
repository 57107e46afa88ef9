/** Maintenance over the chunk index shared by the document and KB areas. */
import type { ChunkIndex } from './chunk-index.js';

/** Writes a document's new name into every chunk's title (`docnm_kwd`), re-tokenized. */
export async function renameDocChunks(
  index: ChunkIndex,
  kbId: string,
  docId: string,
  name: string,
): Promise<void> {
  const pageSize = 500;
  for (let offset = 0; ; offset += pageSize) {
    const { chunks } = await index.list(
      { kbIds: [kbId], docIds: [docId], includeGraph: true, withChildren: true },
      'position',
      offset,
      pageSize,
    );
    for (const c of chunks) await index.update(c.id, { docnm_kwd: name });
    if (chunks.length < pageSize) return;
  }
}
