/**
 * Claiming task rows with a lease (ARCHITECTURE.md "every long job is a row"). A task is claimable
 * while it is unfinished (0 ≤ progress < 1), not cancelled, of a kind the worker handles, and has no
 * live lease. Claiming a task whose lease expired (its worker died) counts a retry. One
 * UPDATE … WHERE id = (SELECT … LIMIT 1) does it atomically: SQLite serialises writers; PostgreSQL
 * skips rows other workers hold (`FOR UPDATE SKIP LOCKED`).
 */
import { sql } from 'kysely';
import type { TaskKind } from '@lectern/shared';
import type { Db } from '../db/connection.js';
import type { TaskTable } from '../db/types.js';
import { updateStamps } from '../util/time.js';

/** Attempts after the first one before a task is given up. */
export const MAX_RETRIES = 3;

export async function claimNextTask(
  db: Db,
  owner: string,
  leaseMs: number,
  kinds: readonly TaskKind[],
): Promise<TaskTable | null> {
  if (kinds.length === 0) return null;
  const now = Date.now();
  const stamps = updateStamps(now);
  const lock = db.dialect === 'postgres' ? sql`for update skip locked` : sql``;
  const result = await sql<TaskTable>`
    update task set
      lease_owner = ${owner},
      lease_until = ${now + leaseMs},
      retry_count = case when lease_owner is null then retry_count else retry_count + 1 end,
      begin_at = ${now},
      update_time = ${stamps.update_time},
      update_date = ${stamps.update_date}
    where id = (
      select id from task
      where kind in (${sql.join(kinds)}) and cancel = 0 and progress >= 0 and progress < 1
        and (lease_until is null or lease_until < ${now})
      order by priority desc, create_time asc, from_page asc
      limit 1
      ${lock}
    )
    and (lease_until is null or lease_until < ${now})
    returning *`.execute(db.kysely);
  return result.rows[0] ?? null;
}

/**
 * Extends the lease. Answers "lost" when the task is no longer ours (expired and re-claimed, or
 * deleted), "cancelled" when its cancel flag is set, else "held".
 */
export async function renewLease(
  db: Db,
  taskId: string,
  owner: string,
  leaseMs: number,
): Promise<'held' | 'lost' | 'cancelled'> {
  const row = await db.kysely
    .updateTable('task')
    .set({ lease_until: Date.now() + leaseMs })
    .where('id', '=', taskId)
    .where('lease_owner', '=', owner)
    .returning('cancel')
    .executeTakeFirst();
  if (!row) return 'lost';
  return row.cancel ? 'cancelled' : 'held';
}

/** Hands our unfinished tasks back to the queue at once (orderly shutdown: not counted as a retry). */
export async function releaseLeases(db: Db, owner: string): Promise<void> {
  await db.kysely
    .updateTable('task')
    .set({ lease_owner: null, lease_until: null })
    .where('lease_owner', '=', owner)
    .where('progress', '<', 1)
    .where('progress', '>=', 0)
    .execute();
}
