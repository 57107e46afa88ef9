import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { sql } from 'kysely';
import { describe, expect, it, vi } from 'vitest';
import { openDb } from '../../db/connection.js';

const base = process.env.TEST_DATABASE_URL;

describe('PostgreSQL connection pool', () => {
  it.skipIf(!base)(
    'survives the server ending its idle connections (runs in the PostgreSQL pass)',
    async () => {
      const url = new URL(base as string);
      const app = `lectern_idle_${Date.now().toString(36)}`;
      url.searchParams.set('application_name', app);
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-pg-'));
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
      const db = openDb(url.toString(), dataDir);
      const admin = new pg.Client({ connectionString: base });
      await admin.connect();
      try {
        await sql`select 1`.execute(db.kysely); // one idle client now sits in the pool
        const ended = await admin.query(
          'SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE application_name = $1',
          [app],
        );
        expect(ended.rows.length).toBeGreaterThan(0);
        await vi.waitFor(() => expect(warn).toHaveBeenCalled(), { timeout: 5_000 });
        expect(String(warn.mock.calls[0][0])).toContain('PostgreSQL closed an idle connection');
        const again = await sql<{ n: number }>`select 2 as n`.execute(db.kysely);
        expect(again.rows[0].n).toBe(2);
      } finally {
        warn.mockRestore();
        await admin.end();
        await db.close();
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    },
  );
});
