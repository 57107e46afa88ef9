/**
 * Removing documents (API.md §6 rm, §19.9): their tasks are cancelled and deleted, their chunks leave
 * the index, their blobs (file, thumbnail, chunk images) and file-manager links go, and the KB's
 * counters drop by what they held, and what only they contributed leaves the KB's knowledge graph. Returns one readable line per document that could not be removed.
 */
import type { AppContext } from '../../context.js';
import { deleteDocChunksIn } from '../../chunk-index/transactional.js';
import { removeDocsFromGraph } from '../../graph/jobs/remove-docs.js';
import { removeDocLinks } from '../file/kb-folder.js';
import { documentBlobKey, releaseBlobs } from '../../storage/blob-refs.js';
import type { DocumentTable, KnowledgebaseTable } from '../../db/tables/knowledge.js';

export async function removeDocuments(
  ctx: AppContext,
  kb: KnowledgebaseTable,
  docs: DocumentTable[],
): Promise<string[]> {
  if (docs.length === 0) return [];
  const errors: string[] = [];
  const db = ctx.db.kysely;
  for (let i = 0; i < docs.length; i += 500) {
    const batch = docs.slice(i, i + 500);
    const ids = batch.map((d) => d.id);
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('task').where('doc_id', 'in', ids).execute();
      await deleteDocChunksIn(ctx.chunkIndex, trx, ids);
      await removeDocLinks(trx, ids);
      const gone = await trx
        .deleteFrom('document')
        .where('id', 'in', ids)
        .returning(['chunk_num', 'token_num'])
        .execute();
      const chunks = gone.reduce((s, d) => s + Number(d.chunk_num), 0);
      const tokens = gone.reduce((s, d) => s + Number(d.token_num), 0);
      await trx
        .updateTable('knowledgebase')
        .set((eb) => ({
          doc_num: eb('doc_num', '-', gone.length),
          chunk_num: eb('chunk_num', '-', chunks),
          token_num: eb('token_num', '-', tokens),
        }))
        .where('id', '=', kb.id)
        .execute();
    });
  }
  // A blob goes only with its last user: the file it was linked from, or another document, may
  // still read it.
  await releaseBlobs(db, ctx.blobs, docs.map(documentBlobKey)).catch((err: unknown) => {
    errors.push(`blobs: ${err instanceof Error ? err.message : String(err)}`);
  });
  const index = ctx.chunkIndex;
  for (const doc of docs) {
    try {
      await index.deleteByDoc(doc.id);
      if (doc.thumbnail && !doc.thumbnail.startsWith('data:'))
        await ctx.blobs.delete(`${kb.id}/${doc.thumbnail}`);
      await ctx.blobs.deletePrefix(doc.id);
    } catch (err) {
      errors.push(`${doc.name}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  try {
    await removeDocsFromGraph(
      ctx,
      kb,
      docs.map((d) => d.id),
    );
  } catch (err) {
    errors.push(`Knowledge graph: ${err instanceof Error ? err.message : String(err)}`);
  }
  return errors;
}
