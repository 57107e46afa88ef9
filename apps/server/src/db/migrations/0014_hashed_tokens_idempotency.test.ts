/**
 * Migration 0014 on a database with API keys from before it: each key's sealed form and each plain
 * beta token become a hint; the keyed hashes stay, so the keys still log in; nothing usable is left.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Migrator, sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../chunk-index/test-contract-fixtures.js';
import { openDb, type Db } from '../connection.js';
import { migrateToLatest } from '../migrate.js';
import { Secrets, newApiKey, newBetaToken } from '../../security/secrets.js';
import { migrationsFor } from './index.js';

const pgBase = process.env.TEST_DATABASE_URL;

describe('0014: API keys kept as hash + hint', () => {
  const closers: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const close of closers.reverse()) await close();
  });

  async function databaseAt0013(): Promise<Db> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-0014-'));
    const pg = pgBase ? await createTestDatabase(pgBase) : undefined;
    const db = openDb(pg?.url, dir);
    closers.push(async () => {
      await db.close();
      await pg?.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    });
    const migrator = new Migrator({
      db: db.kysely,
      provider: { getMigrations: async () => migrationsFor({}) },
    });
    const { error } = await migrator.migrateTo('0013_langfuse');
    expect(error).toBeUndefined();
    return db;
  }

  it('turns stored keys into hints and keeps them usable by hash only', async () => {
    const db = await databaseAt0013();
    const secrets = new Secrets('migration-secret');
    const key = newApiKey();
    const beta = newBetaToken();
    const now = Date.now();
    const stamps = { create_time: now, create_date: 'x', update_time: now, update_date: 'x' };
    await sql`insert into api_token (id, tenant_id, token, token_hash, dialog_id, source, beta, beta_hash,
      create_time, create_date, update_time, update_date)
      values ('k1', 't1', ${secrets.encrypt(key)}, ${secrets.mac(key)}, null, null, ${beta}, ${secrets.mac(beta)},
      ${stamps.create_time}, ${stamps.create_date}, ${stamps.update_time}, ${stamps.update_date})`.execute(
      db.kysely,
    );
    await sql`insert into api_token (id, tenant_id, token, token_hash, dialog_id, source, beta, beta_hash,
      create_time, create_date, update_time, update_date)
      values ('k2', 't1', ${secrets.encrypt('lectern-' + 'b'.repeat(43))}, ${secrets.mac('other')}, null, null,
      null, null, ${now}, 'x', ${now}, 'x')`.execute(db.kysely);

    // Without the key the migration stops with a message instead of losing the hints.
    await expect(migrateToLatest(db)).rejects.toThrow(/secret key/);
    await migrateToLatest(db, { secrets });

    const rows = await db.kysely.selectFrom('api_token').selectAll().orderBy('id').execute();
    expect(rows.map((r) => Object.keys(r).sort())).toEqual([
      expect.not.arrayContaining(['token', 'beta']),
      expect.not.arrayContaining(['token', 'beta']),
    ]);
    expect(rows[0]).toMatchObject({
      token_hint: `${key.slice(0, 12)}****${key.slice(-4)}`,
      token_hash: secrets.mac(key),
      beta_hint: `${beta.slice(0, 4)}****${beta.slice(-4)}`,
      beta_hash: secrets.mac(beta),
    });
    expect(rows[1]).toMatchObject({ token_hint: 'lectern-bbbb****bbbb', beta_hint: null });
    const text = JSON.stringify(rows);
    expect(text).not.toContain(key.slice(12, -4));
    expect(text).not.toContain(beta.slice(4, -4));
    const idem = await db.kysely.selectFrom('idempotency_key').selectAll().execute();
    expect(idem).toEqual([]);
  });
});
