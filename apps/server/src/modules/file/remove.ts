/**
 * Removing from the file manager (API.md §12 `file/rm`, `file2document/rm`): folders go with
 * everything beneath them, a file takes the documents created from it along (their chunks, tasks and
 * links), and a blob is deleted only when no file and no document reads it any more. The
 * `.knowledgebase` mirror and the root are skipped. Work is batched per level and per 500 rows, so a
 * tree of a thousand files costs a handful of queries.
 */
import type { AppContext } from '../../context.js';
import type { FileTable } from '../../db/types.js';
import { errors } from '../../http/envelope.js';
import { loadFile } from '../../policy/index.js';
import { releaseBlobs } from '../../storage/blob-refs.js';
import { removeDocuments } from '../document/remove.js';
import { KB_SOURCE_TYPE } from './kb-folder.js';
import type { Caller } from './service.js';
import { descendantsOf } from './tree.js';

const BATCH = 500;

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += BATCH) out.push(items.slice(i, i + BATCH));
  return out;
}

/** A list of ids from the body, or the route's 101. */
export function idListOf(raw: unknown, name: string, emptyMessage?: string): string[] {
  if (!Array.isArray(raw) || raw.some((v) => typeof v !== 'string'))
    throw errors.argument(emptyMessage ?? `\`${name}\` must be a list of strings.`);
  if (raw.length === 0) throw errors.argument(emptyMessage ?? `\`${name}\` must not be empty.`);
  return [...new Set(raw as string[])];
}

/** Ids of the documents linked to the files `fileIds`. */
async function linkedDocIds(ctx: AppContext, fileIds: readonly string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const batch of chunks(fileIds)) {
    const rows = await ctx.db.kysely
      .selectFrom('file2document')
      .select('document_id')
      .where('file_id', 'in', batch)
      .execute();
    ids.push(...rows.map((r) => r.document_id));
  }
  return [...new Set(ids)];
}

/** Removes the documents `docIds` through the document module, KB by KB. */
export async function removeDocsById(ctx: AppContext, docIds: readonly string[]): Promise<void> {
  const db = ctx.db.kysely;
  for (const batch of chunks(docIds)) {
    const docs = await db.selectFrom('document').selectAll().where('id', 'in', batch).execute();
    if (docs.length === 0) continue;
    const kbs = await db
      .selectFrom('knowledgebase')
      .selectAll()
      .where('id', 'in', [...new Set(docs.map((d) => d.kb_id))])
      .execute();
    for (const kb of kbs)
      await removeDocuments(
        ctx,
        kb,
        docs.filter((d) => d.kb_id === kb.id),
      );
  }
}

/** `file/rm`. */
export async function removeEntries(ctx: AppContext, caller: Caller, rawIds: unknown): Promise<void> {
  const ids = idListOf(rawIds, 'file_ids');
  const db = ctx.db.kysely;
  const targets: FileTable[] = [];
  for (const id of ids) {
    const file = await loadFile(db, caller.scope, id, 'manage', {
      missing: () => errors.data('File or Folder not found!'),
    });
    // The mirror and the root are not the user's to remove (API.md §12 rm: skipped silently).
    if (file.source_type === KB_SOURCE_TYPE || file.parent_id === file.id) continue;
    targets.push(file);
  }
  const beneath = await descendantsOf(
    db,
    targets.filter((t) => t.type === 'folder').map((t) => t.id),
  );
  const all = [...targets, ...beneath.filter((f) => f.source_type !== KB_SOURCE_TYPE)];
  const allIds = all.map((f) => f.id);
  await removeDocsById(ctx, await linkedDocIds(ctx, allIds));
  await db.transaction().execute(async (trx) => {
    for (const batch of chunks(allIds)) {
      await trx.deleteFrom('file2document').where('file_id', 'in', batch).execute();
      await trx.deleteFrom('file').where('id', 'in', batch).execute();
    }
  });
  await releaseBlobs(
    db,
    ctx.blobs,
    all.map((f) => f.blob_key),
  );
}

/** `file2document/rm`: the files' links and the documents created through them. */
export async function unlinkFiles(ctx: AppContext, caller: Caller, rawIds: unknown): Promise<void> {
  const ids = idListOf(rawIds, 'file_ids', 'Lack of "Files ID"');
  const db = ctx.db.kysely;
  const docIds: string[] = [];
  for (const id of ids) {
    await loadFile(db, caller.scope, id, 'manage', { missing: () => errors.data('Inform not found!') });
    const linked = await linkedDocIds(ctx, [id]);
    if (linked.length === 0) throw errors.data('Inform not found!');
    docIds.push(...linked);
  }
  const found = await db.selectFrom('document').select('id').where('id', 'in', docIds).execute();
  if (found.length === 0) throw errors.data('Document not found!');
  await removeDocsById(ctx, docIds);
  await db.deleteFrom('file2document').where('file_id', 'in', ids).execute();
}
