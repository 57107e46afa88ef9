/**
 * `file/upload` (API.md §12): many files at once, each name possibly a relative path (`a/b/c.txt`)
 * whose folders are found or created under the parent. Every name is checked before anything is
 * stored; each file gets a free name in its folder, decided in one transaction holding the folder
 * row, and its own blob (keyed by the new entry's id, never by its name), streamed from the
 * request's own temporary file.
 */
import fs from 'node:fs';
import type { AppContext } from '../../context.js';
import { lockRow } from '../../db/locks.js';
import type { FileTable } from '../../db/types.js';
import { errors } from '../../http/envelope.js';
import { documentTypeOfExt } from '../../ingest/file-types.js';
import { newId } from '../../util/ids.js';
import { creationStamps } from '../../util/time.js';
import type { UploadedFile } from '../document/intake.js';
import { extensionOf } from '../kb/naming.js';
import { KB_SOURCE_TYPE } from './kb-folder.js';
import { uploadPathOf } from './names.js';
import { freeName, ownFolder, readOnly, type Caller } from './service.js';
import { childNamed } from './tree.js';

export const FILE_CAP_MESSAGE = 'Exceed the maximum file number of a free user!';

function entryRow(caller: Caller, parentId: string, name: string, type: string): FileTable {
  return {
    id: newId(),
    parent_id: parentId,
    tenant_id: caller.user.id,
    created_by: caller.user.id,
    name,
    location: '',
    blob_key: null,
    size: 0,
    type,
    source_type: '',
    ...creationStamps(),
  };
}

/** The folder `name` directly in `parentId`, created when missing. */
async function folderIn(ctx: AppContext, caller: Caller, parentId: string, name: string): Promise<string> {
  return ctx.db.kysely.transaction().execute(async (trx) => {
    await lockRow(trx, ctx.db.dialect, 'file', parentId);
    const found = await childNamed(trx, parentId, name);
    if (found?.type === 'folder') return found.id;
    if (found) throw errors.data(`"${name}" is a file, so no folder of that name can be created there.`);
    const row = entryRow(caller, parentId, name, 'folder');
    await trx.insertInto('file').values(row).execute();
    return row.id;
  });
}

async function tenantFileCount(ctx: AppContext, tenantId: string): Promise<number> {
  const row = await ctx.db.kysely
    .selectFrom('file')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('tenant_id', '=', tenantId)
    .where('type', '!=', 'folder')
    .where('source_type', '!=', KB_SOURCE_TYPE)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function uploadFiles(
  ctx: AppContext,
  caller: Caller,
  parentId: string | undefined,
  files: UploadedFile[],
): Promise<FileTable[]> {
  if (files.length === 0) throw errors.argument('No file part!');
  const paths = files.map((f) => uploadPathOf(f.filename));
  const parent = await ownFolder(ctx, caller, parentId, () => errors.data("Can't find this folder!"));
  if (parent.source_type === KB_SOURCE_TYPE) throw readOnly();
  const cap = ctx.config.maxDocsPerTenant;
  if (cap > 0 && (await tenantFileCount(ctx, caller.user.id)) + files.length > cap)
    throw errors.data(FILE_CAP_MESSAGE);

  const folders = new Map<string, string>([['', parent.id]]);
  const stored: FileTable[] = [];
  for (const [i, file] of files.entries()) {
    const { folders: segments, name } = paths[i]!;
    let folderId = parent.id;
    let prefix = '';
    for (const segment of segments) {
      prefix = `${prefix}/${segment.toLowerCase()}`;
      const known = folders.get(prefix);
      folderId = known ?? (await folderIn(ctx, caller, folderId, segment));
      folders.set(prefix, folderId);
    }
    const ext = extensionOf(name);
    const row = entryRow(caller, folderId, name, documentTypeOfExt(ext));
    row.location = ext ? `${row.id}.${ext}` : row.id;
    row.blob_key = `${folderId}/${row.location}`;
    row.size = file.size;
    await ctx.blobs.putStream(row.blob_key, fs.createReadStream(file.tmpPath));
    try {
      await ctx.db.kysely.transaction().execute(async (trx) => {
        await lockRow(trx, ctx.db.dialect, 'file', folderId);
        row.name = await freeName(trx, folderId, name, true);
        await trx.insertInto('file').values(row).execute();
      });
    } catch (err) {
      await ctx.blobs.delete(row.blob_key);
      throw err;
    }
    stored.push(row);
  }
  return stored;
}
