/**
 * Rate limits count the attempts of every process: two HTTP apps over one database (SQLite here,
 * PostgreSQL in the PostgreSQL pass) or one Redis share a login window, so a second process does not
 * hand out a fresh budget.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, type Db } from '../db/connection.js';
import { migrateToLatest } from '../db/migrate.js';
import { createTestDatabase } from '../chunk-index/test-contract-fixtures.js';
import { databaseRateLimitStore, rateLimitStoreOptions } from './rate-limit-store.js';

const pgBase = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** An app like one API process: its login route allows 3 attempts a minute per client. */
async function appOver(db: Db, redis: string | undefined, client: string): Promise<FastifyInstance> {
  const app = Fastify();
  // Embedded SQLite keeps windows in memory in production; the database store is tested on it too.
  const options =
    redis || db.dialect === 'postgres'
      ? rateLimitStoreOptions(app, db, redis)
      : { store: databaseRateLimitStore(db) };
  await app.register(rateLimit, { global: false, ...options });
  const rateLimitConfig = { max: 3, timeWindow: 60_000, keyGenerator: () => client };
  app.post('/v1/user/login', { config: { rateLimit: rateLimitConfig } }, async () => ({ code: 0 }));
  await app.ready();
  return app;
}

async function attempts(apps: FastifyInstance[], n: number): Promise<number[]> {
  const codes: number[] = [];
  for (let i = 0; i < n; i++) {
    const res = await apps[i % apps.length].inject({ method: 'POST', url: '/v1/user/login', payload: {} });
    codes.push(res.statusCode);
  }
  return codes;
}

function reachable(url: string): Promise<boolean> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const s = net.connect({ host: u.hostname, port: Number(u.port || 6379) });
    s.setTimeout(1_000);
    s.on('connect', () => (s.destroy(), resolve(true)));
    s.on('error', () => resolve(false));
    s.on('timeout', () => (s.destroy(), resolve(false)));
  });
}

describe('shared rate-limit windows', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-ratelimit-'));
  const closers: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const close of closers.reverse()) await close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function twoApps(db: Db, redis?: string): Promise<FastifyInstance[]> {
    // A client id per run: a window left in Redis by an earlier run must not count.
    const client = `client-${Date.now()}-${Math.random()}`;
    const apps = [await appOver(db, redis, client), await appOver(db, redis, client)];
    closers.push(async () => {
      for (const a of apps) await a.close();
    });
    return apps;
  }

  it('over the database: the 4th attempt through either process is refused', async () => {
    const url = pgBase ? await createTestDatabase(pgBase) : undefined;
    const db = openDb(url?.url, dataDir);
    closers.push(async () => {
      await db.close();
      await url?.drop();
    });
    await migrateToLatest(db);
    const apps = await twoApps(db);
    expect(await attempts(apps, 5)).toEqual([200, 200, 200, 429, 429]);
  });

  describe('over Redis (REDIS_URL)', () => {
    let up = false;
    beforeAll(async () => {
      up = await reachable(redisUrl);
    });
    it('the 4th attempt through either process is refused', async (t) => {
      if (!up) t.skip(`no Redis at ${redisUrl}`);
      const db = openDb(undefined, dataDir);
      closers.push(() => db.close());
      const apps = await twoApps(db, redisUrl);
      expect(await attempts(apps, 5)).toEqual([200, 200, 200, 429, 429]);
    });
  });
});
