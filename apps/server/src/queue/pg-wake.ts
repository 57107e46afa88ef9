/**
 * Carries task wake-ups between processes that share one PostgreSQL: a local `notifyQueued` also sends
 * `NOTIFY lectern_task_queued`, and a dedicated connection LISTENs and pokes this process's workers.
 * Best effort by design: a lost notification (listener reconnecting, database restart) only delays a
 * claim until the workers' next poll.
 */
import { sql } from 'kysely';
import pg from 'pg';
import type { Db } from '../db/connection.js';
import type { TaskSignal } from './signal.js';

export const TASK_CHANNEL = 'lectern_task_queued';

export interface TaskWakeBridge {
  /** Resolves once the listener is subscribed (or has given up for now and will retry). */
  ready: Promise<void>;
  close(): Promise<void>;
}

export function bridgeTaskSignal(
  signal: TaskSignal,
  db: Db,
  databaseUrl: string,
  options: { retryMs?: number } = {},
): TaskWakeBridge {
  const retryMs = options.retryMs ?? 2_000;
  let client: pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  signal.setBroadcast(() => {
    void sql`select pg_notify(${TASK_CHANNEL}, '')`.execute(db.kysely).catch(() => undefined);
  });

  const connect = async (): Promise<void> => {
    if (closed) return;
    const c = new pg.Client({ connectionString: databaseUrl });
    // An error on an idle listener (server restart) must not crash the process: reconnect later.
    c.on('error', () => undefined);
    c.on('end', () => {
      if (client === c) client = undefined;
      if (!closed) retry = setTimeout(() => void connect(), retryMs);
    });
    c.on('notification', (n) => {
      if (n.channel === TASK_CHANNEL) signal.receiveQueued();
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${TASK_CHANNEL}`);
      if (closed) {
        await c.end().catch(() => undefined);
        return;
      }
      client = c;
      // Tasks queued while we were not listening: let the workers look now.
      signal.receiveQueued();
    } catch {
      await c.end().catch(() => undefined);
    }
  };

  return {
    ready: connect(),
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      signal.setBroadcast(undefined);
      const c = client;
      client = undefined;
      await c?.end().catch(() => undefined);
    },
  };
}
