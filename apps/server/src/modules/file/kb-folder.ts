/**
 * The file-manager mirror of knowledge bases (API.md §12.1): a `.knowledgebase` folder under the
 * tenant's root (created lazily, `source_type "knowledgebase"`) holding one sub-folder per KB whose
 * entries mirror the KB's documents and are linked to them by `file2document` rows.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database, FileTable } from '../../db/types.js';
import { newId } from '../../util/ids.js';
import { creationStamps, updateStamps } from '../../util/time.js';
import { documentBlobKey } from '../../storage/blob-refs.js';

export const KB_FOLDER_NAME = '.knowledgebase';
export const KB_SOURCE_TYPE = 'knowledgebase';

type Q = Kysely<Database> | Transaction<Database>;

function folderRow(
  tenantId: string,
  parentId: string,
  name: string,
  sourceType: string,
  id = newId(),
): FileTable {
  return {
    id,
    parent_id: parentId,
    tenant_id: tenantId,
    created_by: tenantId,
    name,
    location: '',
    blob_key: null,
    size: 0,
    type: 'folder',
    source_type: sourceType,
    ...creationStamps(),
  };
}

/** The tenant's root folder (`parent_id == id`), created when missing. */
export async function rootFolderOf(db: Q, tenantId: string): Promise<FileTable> {
  const roots = await db
    .selectFrom('file')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .whereRef('parent_id', '=', 'id')
    .execute();
  if (roots[0]) return roots[0];
  const id = newId();
  const row = folderRow(tenantId, id, '/', '', id);
  await db.insertInto('file').values(row).execute();
  return row;
}

/** The `.knowledgebase` folder under the root, created when missing. */
export async function knowledgebaseFolderOf(db: Q, tenantId: string): Promise<FileTable> {
  const root = await rootFolderOf(db, tenantId);
  const found = await db
    .selectFrom('file')
    .selectAll()
    .where('parent_id', '=', root.id)
    .where('name', '=', KB_FOLDER_NAME)
    .where('id', '!=', root.id)
    .executeTakeFirst();
  if (found) return found;
  const row = folderRow(tenantId, root.id, KB_FOLDER_NAME, KB_SOURCE_TYPE);
  await db.insertInto('file').values(row).execute();
  return row;
}

async function findKbFolder(db: Q, tenantId: string, kbName: string): Promise<FileTable | undefined> {
  const parent = await knowledgebaseFolderOf(db, tenantId);
  return db
    .selectFrom('file')
    .selectAll()
    .where('parent_id', '=', parent.id)
    .where('name', '=', kbName)
    .where('type', '=', 'folder')
    .executeTakeFirst();
}

/** The KB's own folder `.knowledgebase/<kb name>`, created when missing. */
export async function kbFolderOf(db: Q, tenantId: string, kbName: string): Promise<FileTable> {
  const found = await findKbFolder(db, tenantId, kbName);
  if (found) return found;
  const parent = await knowledgebaseFolderOf(db, tenantId);
  const row = folderRow(tenantId, parent.id, kbName, KB_SOURCE_TYPE);
  await db.insertInto('file').values(row).execute();
  return row;
}

export async function renameKbFolder(
  db: Q,
  tenantId: string,
  oldName: string,
  newName: string,
): Promise<void> {
  const found = await findKbFolder(db, tenantId, oldName);
  if (!found) return;
  await db
    .updateTable('file')
    .set({ name: newName, ...updateStamps() })
    .where('id', '=', found.id)
    .execute();
}

/** Removes the KB's folder and every entry under it (the documents' links go with their documents). */
export async function removeKbFolder(db: Q, tenantId: string, kbName: string): Promise<void> {
  const found = await findKbFolder(db, tenantId, kbName);
  if (!found) return;
  const entries = await db.selectFrom('file').select('id').where('parent_id', '=', found.id).execute();
  const ids = entries.map((e) => e.id);
  if (ids.length > 0) {
    await db.deleteFrom('file2document').where('file_id', 'in', ids).execute();
    await db.deleteFrom('file').where('id', 'in', ids).execute();
  }
  await db.deleteFrom('file').where('id', '=', found.id).execute();
}

export interface MirroredDoc {
  id: string;
  name: string;
  location: string;
  blob_key: string | null;
  kb_id: string;
  size: number;
  type: string;
  created_by: string;
}

/** Registers a document as a file in its KB folder, linked by a file2document row. */
export async function addMirrorFile(
  db: Q,
  tenantId: string,
  kbName: string,
  doc: MirroredDoc,
): Promise<FileTable> {
  const folder = await kbFolderOf(db, tenantId, kbName);
  return addMirrorEntry(db, tenantId, folder.id, doc);
}

/** As addMirrorFile, into a KB folder already looked up (uploads resolve it once per batch). */
export async function addMirrorEntry(
  db: Q,
  tenantId: string,
  folderId: string,
  doc: MirroredDoc,
): Promise<FileTable> {
  const row: FileTable = {
    id: newId(),
    parent_id: folderId,
    tenant_id: tenantId,
    created_by: doc.created_by,
    name: doc.name,
    location: doc.location,
    blob_key: documentBlobKey(doc),
    size: doc.size,
    type: doc.type,
    source_type: KB_SOURCE_TYPE,
    ...creationStamps(),
  };
  await db.insertInto('file').values(row).execute();
  await db
    .insertInto('file2document')
    .values({ id: newId(), file_id: row.id, document_id: doc.id, ...creationStamps() })
    .execute();
  return row;
}

/** Removes a document's file links, and the mirror entries among the linked files. */
export async function removeDocLinks(db: Q, docIds: string[]): Promise<void> {
  if (docIds.length === 0) return;
  const links = await db
    .selectFrom('file2document')
    .select('file_id')
    .where('document_id', 'in', docIds)
    .execute();
  const fileIds = links.map((l) => l.file_id);
  await db.deleteFrom('file2document').where('document_id', 'in', docIds).execute();
  if (fileIds.length > 0) {
    await db
      .deleteFrom('file')
      .where('id', 'in', fileIds)
      .where('source_type', '=', KB_SOURCE_TYPE)
      .execute();
  }
}

/** Renames the mirror entries linked to a document. */
export async function renameDocLinks(db: Q, docId: string, name: string): Promise<void> {
  const links = await db
    .selectFrom('file2document')
    .select('file_id')
    .where('document_id', '=', docId)
    .execute();
  if (links.length === 0) return;
  await db
    .updateTable('file')
    .set({ name, ...updateStamps() })
    .where(
      'id',
      'in',
      links.map((l) => l.file_id),
    )
    .execute();
}

/**
 * Rebuilds the mirror when the root is listed (API.md §12.1): one folder per live KB of the tenant
 * (folders of KBs that are gone are removed), and an entry for every document that is linked to no
 * file yet (documents created from the user's own files stay linked to those files instead).
 */
export async function syncKnowledgebaseFolder(db: Kysely<Database>, tenantId: string): Promise<void> {
  const parent = await knowledgebaseFolderOf(db, tenantId);
  const kbs = await db
    .selectFrom('knowledgebase')
    .select(['id', 'name'])
    .where('tenant_id', '=', tenantId)
    .where('status', '=', '1')
    .execute();
  const folders = await db
    .selectFrom('file')
    .selectAll()
    .where('parent_id', '=', parent.id)
    .where('type', '=', 'folder')
    .execute();
  const kbNames = new Set(kbs.map((k) => k.name));
  for (const stale of folders.filter((f) => !kbNames.has(f.name))) {
    await db.transaction().execute((trx) => removeKbFolder(trx, tenantId, stale.name));
  }
  const orphans = await db
    .selectFrom('document as d')
    .innerJoin('knowledgebase as kb', 'kb.id', 'd.kb_id')
    .leftJoin('file2document as f2d', 'f2d.document_id', 'd.id')
    .select(['d.id', 'd.name', 'd.location', 'd.blob_key', 'd.kb_id', 'd.size', 'd.type', 'd.created_by'])
    .select('kb.name as kb_name')
    .where('kb.tenant_id', '=', tenantId)
    .where('kb.status', '=', '1')
    .where('f2d.id', 'is', null)
    .execute();
  for (const kb of kbs) await kbFolderOf(db, tenantId, kb.name);
  for (const doc of orphans) {
    await db.transaction().execute(async (trx) => {
      const folder = await kbFolderOf(trx, tenantId, doc.kb_name);
      await addMirrorEntry(trx, tenantId, folder.id, doc);
    });
  }
}
