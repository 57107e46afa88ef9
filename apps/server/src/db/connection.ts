import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import { withStatementCache } from './statement-cache.js';
import type { Database } from './types.js';

export type DialectName = 'sqlite' | 'postgres';

export interface Db {
  kysely: Kysely<Database>;
  dialect: DialectName;
  /** The raw SQLite handle when the dialect is sqlite (for pragmas and native extensions). */
  sqlite?: SqliteDatabase.Database;
  close(): Promise<void>;
}

// PostgreSQL returns int8 as strings by default; our bigint columns are epoch ms, safe as numbers.
pg.types.setTypeParser(20, (v: string) => Number(v));

export function openDb(databaseUrl: string | undefined, dataDir: string): Db {
  if (databaseUrl && /^postgres(ql)?:\/\//.test(databaseUrl)) {
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
    // PostgreSQL ending an idle pooled connection (restart, failover, an administrator) is an 'error'
    // event on the pool; with no listener Node throws it and the whole server stops. The pool drops
    // that client and opens a new one for the next query.
    pool.on('error', (err) => console.warn(`PostgreSQL closed an idle connection: ${err.message}`));
    const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { kysely, dialect: 'postgres', close: () => kysely.destroy() };
  }
  if (databaseUrl && !databaseUrl.startsWith('sqlite:')) {
    throw new Error(
      `Unsupported DATABASE_URL "${databaseUrl}": use postgres://… or leave it unset for SQLite.`,
    );
  }
  const file = databaseUrl
    ? databaseUrl.replace(/^sqlite:(\/\/)?/, '')
    : path.join(dataDir, 'lectern.sqlite');
  const sqlite = new SqliteDatabase(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('busy_timeout = 5000');
  const kysely = new Kysely<Database>({
    dialect: new SqliteDialect({ database: withStatementCache(sqlite) }),
  });
  return { kysely, dialect: 'sqlite', sqlite, close: () => kysely.destroy() };
}

/** Round-trip time of a trivial query, for /system/status. */
export async function pingDb(db: Db): Promise<void> {
  await sql`select 1`.execute(db.kysely);
}
