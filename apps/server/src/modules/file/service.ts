/**
 * The file manager's reads and folder operations (API.md §12): listing a folder (the root listing
 * rebuilds `.knowledgebase`), creating folders and virtual files, renaming, and the folder chain.
 * Every entry is loaded through the policy module (`loadFile`): reading follows §12.2, changing stays
 * with the owner tenant; the `.knowledgebase` mirror is read-only.
 */
import { sql } from 'kysely';
import type { AppContext } from '../../context.js';
import { isUniqueViolation, lockRow } from '../../db/locks.js';
import type { FileTable, UserTable } from '../../db/types.js';
import { errors } from '../../http/envelope.js';
import { accessScopeOf, loadFile, type AccessScope, type Refusal } from '../../policy/index.js';
import { renameDocChunks } from '../../chunk-index/chunk-store.js';
import { newId } from '../../util/ids.js';
import { creationStamps, updateStamps } from '../../util/time.js';
import { extensionOf, uniqueName } from '../kb/naming.js';
import { likePattern, type ListQuery } from '../kb/paging.js';
import { KB_SOURCE_TYPE, rootFolderOf, syncKnowledgebaseFolder } from './kb-folder.js';
import { checkedName } from './names.js';
import { presentListed, type KbInfo } from './presenter.js';
import { ancestryOf, childNamed, namesLike } from './tree.js';

export const FILE_ORDER_COLUMNS = ['create_time', 'update_time', 'name', 'size', 'type'] as const;

export const readOnly = () => errors.operating('The .knowledgebase folder is read-only.');

export interface Caller {
  user: UserTable;
  scope: AccessScope;
}

export async function callerOf(ctx: AppContext, user: UserTable): Promise<Caller> {
  return { user, scope: await accessScopeOf(ctx.db.kysely, user.id) };
}

/** A folder the caller owns (`missing` when unknown or not a folder). */
export async function ownFolder(
  ctx: AppContext,
  caller: Caller,
  folderId: string | undefined,
  missing: Refusal,
): Promise<FileTable> {
  if (!folderId) return rootFolderOf(ctx.db.kysely, caller.user.id);
  const folder = await loadFile(ctx.db.kysely, caller.scope, folderId, 'manage', { missing });
  if (folder.type !== 'folder') throw missing();
  return folder;
}

/** KB links of the files `fileIds` (live KBs only). */
async function kbLinksOf(ctx: AppContext, fileIds: string[]): Promise<Map<string, KbInfo[]>> {
  const out = new Map<string, KbInfo[]>();
  if (fileIds.length === 0) return out;
  const rows = await ctx.db.kysely
    .selectFrom('file2document as f2d')
    .innerJoin('document as d', 'd.id', 'f2d.document_id')
    .innerJoin('knowledgebase as kb', 'kb.id', 'd.kb_id')
    .select(['f2d.file_id', 'kb.id as kb_id', 'kb.name as kb_name', 'd.id as document_id'])
    .where('f2d.file_id', 'in', fileIds)
    .where('kb.status', '=', '1')
    .execute();
  for (const r of rows) {
    const list = out.get(r.file_id) ?? [];
    list.push({ kb_id: r.kb_id, kb_name: r.kb_name, document_id: r.document_id });
    out.set(r.file_id, list);
  }
  return out;
}

/** Recursive size of a folder (sum of the files beneath it). */
async function folderSize(ctx: AppContext, folderId: string): Promise<number> {
  const { rows } = await sql<{ total: number | string | null }>`
    with recursive tree(id) as (
      select id from file where parent_id = ${folderId} and id <> ${folderId}
      union all
      select f.id from file f join tree t on f.parent_id = t.id where f.id <> f.parent_id
    )
    select sum(f.size) as total from file f join tree t on f.id = t.id where f.type <> 'folder'`.execute(
    ctx.db.kysely,
  );
  return Number(rows[0]?.total ?? 0);
}

export async function listFolder(
  ctx: AppContext,
  caller: Caller,
  parentId: string | undefined,
  q: ListQuery,
) {
  const db = ctx.db.kysely;
  const root = await rootFolderOf(db, caller.user.id);
  const parent = parentId
    ? await loadFile(db, caller.scope, parentId, 'read', { missing: () => errors.data('Folder not found!') })
    : root;
  if (parent.type !== 'folder') throw errors.data('Folder not found!');
  if (parent.id === root.id) await syncKnowledgebaseFolder(db, caller.user.id);

  let base = db.selectFrom('file').where('parent_id', '=', parent.id);
  // Only the root is its own parent; elsewhere the condition would make a page read every row it
  // skips instead of walking the (parent_id, order column) index.
  if (parent.parent_id === parent.id) base = base.where('id', '!=', parent.id);
  if (q.keywords) base = base.where(sql<boolean>`lower(name) like ${likePattern(q.keywords)} escape '\\'`);
  const counted = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  const size = q.pageSize > 0 ? q.pageSize : 15;
  const pageNo = q.page > 0 ? q.page : 1;
  const order = q.orderby as (typeof FILE_ORDER_COLUMNS)[number];
  // Ids first (from the covering index), then the page's rows: skipping 9,000 entries of a big
  // folder then reads index entries only.
  const pageIds = await base
    .select('id')
    .orderBy(order, q.desc ? 'desc' : 'asc')
    .orderBy('id')
    .limit(size)
    .offset((pageNo - 1) * size)
    .execute();
  const byId = new Map(
    pageIds.length === 0
      ? []
      : (
          await db
            .selectFrom('file')
            .selectAll()
            .where(
              'id',
              'in',
              pageIds.map((r) => r.id),
            )
            .execute()
        ).map((r) => [r.id, r]),
  );
  const rows = pageIds.map((r) => byId.get(r.id)).filter((r): r is FileTable => !!r);

  const links = await kbLinksOf(
    ctx,
    rows.filter((r) => r.type !== 'folder').map((r) => r.id),
  );
  const folderIds = rows.filter((r) => r.type === 'folder').map((r) => r.id);
  const withChildFolders = new Set(
    folderIds.length === 0
      ? []
      : (
          await db
            .selectFrom('file')
            .select('parent_id')
            .distinct()
            .where('parent_id', 'in', folderIds)
            .where('type', '=', 'folder')
            .whereRef('id', '!=', 'parent_id')
            .execute()
        ).map((r) => r.parent_id),
  );
  const files = [];
  for (const row of rows) {
    files.push(
      presentListed(row, {
        kbs: links.get(row.id) ?? [],
        folderSize: row.type === 'folder' ? await folderSize(ctx, row.id) : undefined,
        hasChildFolder: withChildFolders.has(row.id),
      }),
    );
  }
  return { total: Number(counted?.n ?? 0), files, parent };
}

/** `file/create`: a folder (`type "folder"`) or an empty virtual file, with a name unique in its folder. */
export async function createEntry(
  ctx: AppContext,
  caller: Caller,
  body: { name: unknown; parent_id?: string; type?: string },
): Promise<FileTable> {
  const name = checkedName(body.name);
  const missing = () => errors.operating("Parent Folder Doesn't Exist!");
  const parent = await ownFolder(ctx, caller, body.parent_id, missing);
  if (parent.source_type === KB_SOURCE_TYPE) throw readOnly();
  const isFolder = body.type === 'folder';
  const row: FileTable = {
    id: newId(),
    parent_id: parent.id,
    tenant_id: caller.user.id,
    created_by: caller.user.id,
    name,
    location: '',
    blob_key: null,
    size: 0,
    type: isFolder ? 'folder' : 'virtual',
    source_type: '',
    ...creationStamps(),
  };
  await ctx.db.kysely.transaction().execute(async (trx) => {
    await lockRow(trx, ctx.db.dialect, 'file', parent.id);
    if (await childNamed(trx, parent.id, name))
      throw errors.data(
        isFolder ? 'Duplicated folder name in the same folder.' : 'Duplicated file name in the same folder.',
      );
    await trx.insertInto('file').values(row).execute();
  });
  return row;
}

/** `file/rename`: same folder, same extension for files; linked documents are renamed too. */
export async function renameEntry(ctx: AppContext, caller: Caller, fileId: string, rawName: unknown) {
  const db = ctx.db.kysely;
  const file = await loadFile(db, caller.scope, fileId, 'manage');
  if (file.source_type === KB_SOURCE_TYPE || file.parent_id === file.id) throw readOnly();
  const name = checkedName(rawName);
  if (file.type !== 'folder' && extensionOf(name) !== extensionOf(file.name))
    throw errors.argument("The extension of file can't be changed");
  const docs = await db
    .selectFrom('file2document as f2d')
    .innerJoin('document as d', 'd.id', 'f2d.document_id')
    .select(['d.id', 'd.kb_id'])
    .where('f2d.file_id', '=', file.id)
    .execute();
  await db
    .transaction()
    .execute(async (trx) => {
      await lockRow(trx, ctx.db.dialect, 'file', file.parent_id);
      const clash = await childNamed(trx, file.parent_id, name);
      if (clash && clash.id !== file.id)
        throw errors.data(
          file.type === 'folder'
            ? 'Duplicated folder name in the same folder.'
            : 'Duplicated file name in the same folder.',
        );
      await trx
        .updateTable('file')
        .set({ name, ...updateStamps() })
        .where('id', '=', file.id)
        .execute();
      if (docs.length > 0)
        await trx
          .updateTable('document')
          .set({ name, ...updateStamps() })
          .where(
            'id',
            'in',
            docs.map((d) => d.id),
          )
          .execute();
    })
    .catch((err: unknown) => {
      if (isUniqueViolation(err)) throw errors.data('Duplicated document name in the same dataset.');
      throw err;
    });
  for (const d of docs) await renameDocChunks(ctx.chunkIndex, d.kb_id, d.id, name);
}

/** `file/all_parent_folder`: the entry itself, then each folder up to the root. */
export async function parentChain(ctx: AppContext, caller: Caller, fileId: string) {
  const file = await loadFile(ctx.db.kysely, caller.scope, fileId, 'read', {
    missing: () => errors.data('Folder not found!'),
  });
  return ancestryOf(ctx.db.kysely, file);
}

/** `file/parent_folder`: the folder holding the entry (the root holds itself). */
export async function parentOf(ctx: AppContext, caller: Caller, fileId: string): Promise<FileTable> {
  const db = ctx.db.kysely;
  const file = await loadFile(db, caller.scope, fileId, 'read', {
    missing: () => errors.data('Folder not found!'),
  });
  const parent = await db.selectFrom('file').selectAll().where('id', '=', file.parent_id).executeTakeFirst();
  if (!parent) throw errors.data('Folder not found!');
  return parent;
}

/** A free name for `name` in `folderId` (`a.txt` → `a(1).txt`); call inside the naming transaction. */
export async function freeName(
  db: Parameters<typeof namesLike>[0],
  folderId: string,
  name: string,
  keepExtension: boolean,
): Promise<string> {
  return uniqueName(name, await namesLike(db, folderId, name), keepExtension);
}
