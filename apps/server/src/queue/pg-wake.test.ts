/**
 * Processes sharing one PostgreSQL wake each other's workers: a task queued by one process pokes the
 * workers of every other at once (LISTEN/NOTIFY), and a listener that lost its connection comes back.
 * Runs when TEST_DATABASE_URL names a server (the PostgreSQL pass of `npm test`).
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, type Db } from '../db/connection.js';
import { createTestDatabase } from '../chunk-index/test-contract-fixtures.js';
import { bridgeTaskSignal, type TaskWakeBridge } from './pg-wake.js';
import { TaskSignal } from './signal.js';

const pgBase = process.env.TEST_DATABASE_URL;

function nextWake(signal: TaskSignal, ms = 5_000): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => (off(), reject(new Error('no wake-up'))), ms);
    const off = signal.onQueued(() => {
      clearTimeout(timer);
      off();
      resolve(performance.now() - started);
    });
  });
}

describe.runIf(pgBase)('task wake-ups between processes (PostgreSQL LISTEN/NOTIFY)', () => {
  let database: { url: string; drop(): Promise<void> };
  const dbs: Db[] = [];
  const bridges: TaskWakeBridge[] = [];
  beforeAll(async () => {
    database = await createTestDatabase(pgBase!);
  });
  afterAll(async () => {
    for (const b of bridges) await b.close();
    for (const d of dbs) await d.close();
    await database?.drop();
  });

  function process(): TaskSignal {
    const db = openDb(database.url, '/nonexistent');
    dbs.push(db);
    const signal = new TaskSignal();
    bridges.push(bridgeTaskSignal(signal, db, database.url, { retryMs: 100 }));
    return signal;
  }

  it("a task queued in one process wakes another process's workers", async () => {
    const api = process();
    const worker = process();
    await Promise.all(bridges.map((b) => b.ready));
    const woken = nextWake(worker);
    api.notifyQueued();
    expect(await woken).toBeLessThan(5_000);
  });

  it('a listener whose connection is ended reconnects and hears the next task', async () => {
    const api = process();
    const worker = process();
    await Promise.all(bridges.map((b) => b.ready));
    // An administrator (or a failover) ends every listening session of this database.
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    await admin.query(
      "select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query like 'LISTEN%' and pid <> pg_backend_pid()",
    );
    await admin.end();
    // Reconnecting pokes the workers once (tasks queued meanwhile), then notifications flow again.
    await nextWake(worker);
    const woken = nextWake(worker);
    api.notifyQueued();
    expect(await woken).toBeLessThan(5_000);
  });
});
