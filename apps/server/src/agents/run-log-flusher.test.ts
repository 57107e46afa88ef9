/**
 * The process's run-log writer: the logs of every run that changed since the last tick are written
 * in one transaction; a run that ended is neither written by a tick nor overwritten by one.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, type Db } from '../db/connection.js';
import { parseJson } from '../db/json.js';
import { migrateToLatest } from '../db/migrate.js';
import { creationStamps } from '../util/time.js';
import { RunLogFlusher } from './run-log-flusher.js';

let db: Db;
let dir: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-flusher-'));
  db = openDb(undefined, dir);
  await migrateToLatest(db);
});

afterAll(async () => {
  await db?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function runRow(id: string, status = 'running') {
  await db.kysely
    .insertInto('canvas_run')
    .values({
      id,
      canvas_id: 'c1',
      task_id: `t-${id}`,
      session_id: null,
      tenant_id: 'tenant',
      status,
      events: '[]',
      trace: '[]',
      ...creationStamps(),
    })
    .execute();
}

const logOf = async (id: string) => {
  const row = await db.kysely
    .selectFrom('canvas_run')
    .select(['events', 'trace'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return { events: parseJson<unknown[]>(row.events, []), trace: parseJson<unknown[]>(row.trace, []) };
};

/** The flusher over the real database, counting the transactions it opens. */
function countingFlusher(intervalMs: number) {
  let transactions = 0;
  const counted = new Proxy(db.kysely, {
    get(target, prop) {
      if (prop === 'transaction') transactions++;
      const value = Reflect.get(target, prop, target) as unknown;
      // Kysely's methods read private fields: call them on the real instance.
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { flusher: new RunLogFlusher(() => counted, intervalMs), transactions: () => transactions };
}

describe('RunLogFlusher', () => {
  it('writes every changed run of a tick in one transaction, and each change only once', async () => {
    const ids = ['r1', 'r2', 'r3'];
    for (const id of ids) await runRow(id);
    const events = new Map(ids.map((id) => [id, [] as unknown[]]));
    const { flusher, transactions } = countingFlusher(30);
    const source = (id: string) => ({
      id,
      eventsJson: () => JSON.stringify(events.get(id)),
      trace: () => [{ id }],
    });
    for (const id of ids) {
      events.get(id)!.push({ event: 'workflow_started', id });
      flusher.touch(source(id));
    }
    events.get('r2')!.push({ event: 'node_started', id: 'r2' });
    flusher.touch(source('r2'));
    await new Promise((r) => setTimeout(r, 150));
    expect(transactions()).toBe(1);
    expect(await logOf('r1')).toEqual({
      events: [{ event: 'workflow_started', id: 'r1' }],
      trace: [{ id: 'r1' }],
    });
    expect((await logOf('r2')).events).toHaveLength(2);
    expect((await logOf('r3')).events).toHaveLength(1);
    // Nothing changed since: no further writes.
    await new Promise((r) => setTimeout(r, 100));
    expect(transactions()).toBe(1);
  });

  it('does not write a run it was told to forget, nor a run whose log is no longer running', async () => {
    await runRow('gone');
    await runRow('ended', 'finished');
    const { flusher, transactions } = countingFlusher(10_000);
    flusher.touch({ id: 'gone', eventsJson: () => '[{"event":"x"}]', trace: () => [] });
    flusher.forget('gone');
    await flusher.flush();
    expect(transactions()).toBe(0);
    expect((await logOf('gone')).events).toEqual([]);
    flusher.touch({ id: 'ended', eventsJson: () => '[{"event":"late"}]', trace: () => [] });
    await flusher.flush();
    expect(transactions()).toBe(1);
    expect((await logOf('ended')).events).toEqual([]);
  });
});
