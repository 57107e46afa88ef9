/**
 * The chunk-index stores a benchmark can run on: the embedded SQLite file, or the PostgreSQL index
 * (tsvector + pgvector) in a database of its own on the server named by --pg-url (or TEST_DATABASE_URL,
 * else postgres://postgres@127.0.0.1:5432/postgres), created when missing and kept for reruns.
 */
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { ChunkIndex, ChunkRecord } from '../../apps/server/src/chunk-index/chunk-index.js';
import { PgChunkIndex } from '../../apps/server/src/chunk-index/pg-index.js';
import { SqliteChunkIndex } from '../../apps/server/src/chunk-index/sqlite-index.js';
import { createStoredTextThread } from '../../apps/server/src/chunk-index/pg-text-pool.js';
import { createTokenizer } from '../../apps/server/src/chunk-index/tokenize-pool.js';
import { createSearchThreads } from '../../apps/server/src/chunk-index/search-pool.js';

export type StoreName = 'sqlite' | 'postgres';

export interface BenchStore {
  name: StoreName;
  index: ChunkIndex;
  chunks(): Promise<number>;
  bytes(): Promise<number>;
  /** The SQLite index's synchronous bulk write (tokenize then write on this thread); null elsewhere. */
  upsertSync: ((records: ChunkRecord[]) => void) | null;
  close(): Promise<void>;
}

/** `--store sqlite|postgres|both` (default sqlite). */
export function storesFromArgs(args: string[]): StoreName[] {
  const i = args.indexOf('--store');
  const v = i >= 0 ? args[i + 1] : 'sqlite';
  if (v === 'both') return ['sqlite', 'postgres'];
  if (v === 'sqlite' || v === 'postgres') return [v];
  throw new Error(`--store must be sqlite, postgres or both, not ${v}`);
}

export function pgBaseUrl(args: string[]): string {
  const i = args.indexOf('--pg-url');
  return (
    (i >= 0 ? args[i + 1] : undefined) ??
    process.env.TEST_DATABASE_URL ??
    'postgres://postgres@127.0.0.1:5432/postgres'
  );
}

/** URL of database `name` on the server of `base`, created when missing; `fresh` drops the index in it. */
async function benchDatabase(base: string, name: string, fresh: boolean): Promise<string> {
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
  if (exists.rowCount === 0) await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  if (fresh) {
    const c = new pg.Client({ connectionString: url.toString() });
    await c.connect();
    const tables = await c.query<{ relname: string }>(
      "SELECT relname FROM pg_class WHERE relkind = 'r' AND relname LIKE 'lectern\\_chunk%'",
    );
    for (const t of tables.rows) await c.query(`DROP TABLE IF EXISTS ${t.relname} CASCADE`);
    await c.query('DROP SEQUENCE IF EXISTS lectern_chunk_kb_slot');
    await c.end();
  }
  return url.toString();
}

/**
 * Opens a store; `thread` gives it the threads the server gives it (the SQLite index's tokenizer and
 * search threads, the PostgreSQL index's stored-text thread). `keywordPostings`: the SQLite index's
 * experimental postings (SqliteIndexOptions); off, an index that has them loses them (rebuilt when on).
 */
export async function openStore(
  name: StoreName,
  opts: {
    dir: string;
    pgBase: string;
    pgDatabase: string;
    fresh: boolean;
    thread: boolean;
    keywordPostings?: boolean;
  },
): Promise<BenchStore> {
  if (name === 'sqlite') {
    fs.mkdirSync(opts.dir, { recursive: true });
    const file = path.join(opts.dir, 'index.sqlite');
    if (opts.fresh) for (const f of [file, `${file}-wal`, `${file}-shm`]) fs.rmSync(f, { force: true });
    const tokenizer = opts.thread ? createTokenizer() : null;
    const searchThreads = opts.thread ? createSearchThreads() : null;
    const index = new SqliteChunkIndex(file, tokenizer, searchThreads, {
      keywordPostings: opts.keywordPostings === true,
    });
    return {
      name,
      index,
      chunks: async () => index.rowCounts().chunks,
      bytes: async () => index.sizeOnDisk(),
      upsertSync: (records) => index.upsertSync(records),
      close: async () => {
        await index.close();
        await tokenizer?.close();
        await searchThreads?.close();
      },
    };
  }
  const url = await benchDatabase(opts.pgBase, opts.pgDatabase, opts.fresh);
  const thread = opts.thread ? createStoredTextThread() : null;
  const index = await PgChunkIndex.open(url, thread);
  return {
    name,
    index,
    chunks: async () => (await index.rowCounts()).chunks,
    bytes: async () => Number((await index.describe()).bytes),
    upsertSync: null,
    close: async () => {
      await index.close();
      await thread?.close();
    },
  };
}
