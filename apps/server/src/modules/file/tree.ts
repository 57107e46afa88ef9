/**
 * Reading the folder tree (API.md §12.1): a folder's children, everything beneath a set of folders,
 * and the chain of folders from an entry up to the root (`parent_id == id`). Queries go level by
 * level in batches, so a deep or wide tree costs one query per level and never one per entry.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database, FileTable } from '../../db/types.js';

type Q = Kysely<Database> | Transaction<Database>;

const BATCH = 500;

function batches<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += BATCH) out.push(items.slice(i, i + BATCH));
  return out;
}

/** Every entry strictly beneath the folders `folderIds` (folders and files), any depth. */
export async function descendantsOf(db: Q, folderIds: readonly string[]): Promise<FileTable[]> {
  const found: FileTable[] = [];
  const seen = new Set(folderIds);
  let level = [...folderIds];
  while (level.length > 0) {
    const next: string[] = [];
    for (const ids of batches(level)) {
      const rows = await db.selectFrom('file').selectAll().where('parent_id', 'in', ids).execute();
      for (const row of rows) {
        if (seen.has(row.id)) continue; // a root is its own parent
        seen.add(row.id);
        found.push(row);
        if (row.type === 'folder') next.push(row.id);
      }
    }
    level = next;
  }
  return found;
}

/** The entry, then its parent, … up to and including the root. */
export async function ancestryOf(db: Q, file: FileTable): Promise<FileTable[]> {
  const chain = [file];
  let current = file;
  // A bound on the depth guards against a corrupted cycle.
  for (let depth = 0; current.parent_id !== current.id && depth < 1000; depth += 1) {
    const parent = await db
      .selectFrom('file')
      .selectAll()
      .where('id', '=', current.parent_id)
      .executeTakeFirst();
    if (!parent) break;
    chain.push(parent);
    current = parent;
  }
  return chain;
}

/** The entry named `name` (case-insensitive) directly in `folderId`, if any. */
export async function childNamed(db: Q, folderId: string, name: string): Promise<FileTable | undefined> {
  const rows = await db
    .selectFrom('file')
    .selectAll()
    .where('parent_id', '=', folderId)
    .where('id', '!=', folderId)
    .where((eb) => eb(eb.fn('lower', ['name']), '=', name.toLowerCase()))
    .execute();
  return rows[0];
}

/** Names in `folderId` that may collide with `name` under the `name(n)` numbering. */
export async function namesLike(db: Q, folderId: string, name: string): Promise<string[]> {
  const dot = name.lastIndexOf('.');
  const stem = (dot > 0 ? name.slice(0, dot) : name).replace(/\(\d+\)$/, '');
  const rows = await db
    .selectFrom('file')
    .select('name')
    .where('parent_id', '=', folderId)
    .where('id', '!=', folderId)
    .where((eb) =>
      eb(
        eb.fn('lower', [eb.fn('substr', ['name', eb.val(1), eb.val(stem.length)])]),
        '=',
        stem.toLowerCase(),
      ),
    )
    .execute();
  return rows.map((r) => r.name);
}
