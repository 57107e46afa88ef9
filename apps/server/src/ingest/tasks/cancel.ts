/**
 * Cancelling a document's parse (API.md §19.9): every task gets its cancel flag; tasks no worker
 * holds are ended at once (`Canceled`, progress −1), running ones stop at their next progress report.
 * The document becomes run "2" with progress 0 and is never rolled up again until re-run.
 */
import { progressMessage, PROGRESS_CANCELED_MARK } from '@lectern/shared';
import { sql } from 'kysely';
import type { AppContext } from '../../context.js';
import { updateStamps } from '../../util/time.js';
import { clock } from '../../queue/log.js';

/** True while the document has a task that is neither finished nor failed. */
export async function hasUnfinishedTasks(ctx: AppContext, docId: string): Promise<boolean> {
  const row = await ctx.db.kysely
    .selectFrom('task')
    .select('id')
    .where('doc_id', '=', docId)
    .where('kind', '=', 'parse')
    .where('progress', '>=', 0)
    .where('progress', '<', 1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function cancelDocument(ctx: AppContext, docId: string): Promise<void> {
  const now = Date.now();
  const line = `${clock(now)} ${progressMessage('taskCanceled')}${PROGRESS_CANCELED_MARK}`;
  await ctx.db.kysely.transaction().execute(async (trx) => {
    await trx
      .updateTable('task')
      .set({ cancel: 1, ...updateStamps(now) })
      .where('doc_id', '=', docId)
      .where('kind', '=', 'parse')
      .execute();
    await trx
      .updateTable('task')
      .set({
        progress: -1,
        progress_msg: sql<string>`case when progress_msg = '' then ${line} else progress_msg || ${`\n${line}`} end`,
      })
      .where('doc_id', '=', docId)
      .where('kind', '=', 'parse')
      .where('progress', '>=', 0)
      .where('progress', '<', 1)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
      .execute();
    await trx
      .updateTable('document')
      .set({ run: '2', progress: 0, ...updateStamps(now) })
      .where('id', '=', docId)
      .execute();
  });
}
