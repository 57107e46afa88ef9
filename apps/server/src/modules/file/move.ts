/**
 * `file/mv` (API.md §12): entries move into a folder of the caller's; a folder meeting a same-name
 * folder at the destination is merged into it (recursively), a file or folder meeting another entry
 * of its name gets a free name. A folder can never move into itself or beneath itself. Blobs stay
 * where they are (each row names its blob), so a move touches rows only, in one transaction.
 */
import type { Transaction } from 'kysely';
import type { AppContext } from '../../context.js';
import { lockRow } from '../../db/locks.js';
import type { Database, FileTable } from '../../db/types.js';
import { errors } from '../../http/envelope.js';
import { loadFile } from '../../policy/index.js';
import { updateStamps } from '../../util/time.js';
import { KB_SOURCE_TYPE } from './kb-folder.js';
import { idListOf } from './remove.js';
import { freeName, readOnly, type Caller } from './service.js';
import { ancestryOf, childNamed } from './tree.js';

async function moveInto(trx: Transaction<Database>, entry: FileTable, dest: FileTable): Promise<void> {
  if (entry.parent_id === dest.id) return;
  const same = await childNamed(trx, dest.id, entry.name);
  if (entry.type === 'folder' && same?.type === 'folder') {
    const children = await trx
      .selectFrom('file')
      .selectAll()
      .where('parent_id', '=', entry.id)
      .where('id', '!=', entry.id)
      .execute();
    for (const child of children) await moveInto(trx, child, same);
    await trx.deleteFrom('file').where('id', '=', entry.id).execute();
    return;
  }
  const name = same ? await freeName(trx, dest.id, entry.name, entry.type !== 'folder') : entry.name;
  await trx
    .updateTable('file')
    .set({ parent_id: dest.id, name, ...updateStamps() })
    .where('id', '=', entry.id)
    .execute();
}

export async function moveEntries(
  ctx: AppContext,
  caller: Caller,
  rawIds: unknown,
  destId: string,
): Promise<void> {
  const ids = idListOf(rawIds, 'src_file_ids');
  const db = ctx.db.kysely;
  const dest = await loadFile(db, caller.scope, destId, 'manage', {
    missing: () => errors.data('Parent folder not found!'),
  });
  if (dest.type !== 'folder') throw errors.data('Parent folder not found!');
  if (dest.source_type === KB_SOURCE_TYPE) throw readOnly();
  const destChain = new Set((await ancestryOf(db, dest)).map((f) => f.id));
  const sources: FileTable[] = [];
  for (const id of ids) {
    const src = await loadFile(db, caller.scope, id, 'manage', {
      missing: () => errors.data('Source files not found!'),
    });
    if (src.source_type === KB_SOURCE_TYPE || src.parent_id === src.id) throw readOnly();
    if (src.type === 'folder' && destChain.has(src.id)) throw errors.data("Can't move a folder into itself.");
    sources.push(src);
  }
  await db.transaction().execute(async (trx) => {
    await lockRow(trx, ctx.db.dialect, 'file', dest.id);
    for (const src of sources) {
      // Re-read inside the transaction: an earlier source may have carried this one along.
      const current = await trx.selectFrom('file').selectAll().where('id', '=', src.id).executeTakeFirst();
      if (current) await moveInto(trx, current, dest);
    }
  });
}
