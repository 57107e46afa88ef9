/**
 * `lectern migrate-index --from <data dir>`: moves an embedded (SQLite) deployment into the scaled-out
 * one the environment describes — DATABASE_URL on PostgreSQL (metadata, tasks and the chunk index) and
 * BLOB_STORE (normally s3). Copies the metadata tables, every chunk with its vector, and every blob;
 * the source is only read. The target database must hold no account yet. Processes of the new
 * deployment must use the source's secret key (stored credentials and API keys are sealed with it).
 */
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { loadConfig, type Config } from '../config.js';
import { openChunkIndex } from '../chunk-index/open-index.js';
import type { ChunkIndex } from '../chunk-index/chunk-index.js';
import { openDb, type Db } from '../db/connection.js';
import { migrateToLatest } from '../db/migrate.js';
import { Secrets } from '../security/secrets.js';
import { HealthRegistry } from '../health/registry.js';
import type { BlobStore } from '../storage/blob-store.js';
import { createBlobStore } from '../storage/create-blob-store.js';

export interface MigrationReport {
  tables: Record<string, number>;
  chunks: number;
  blobs: number;
}

/** Per-process rows that must not travel: live heartbeats and rate-limit windows. */
const SKIPPED_TABLES = new Set([
  'kysely_migration',
  'kysely_migration_lock',
  'rate_limit',
  'idempotency_key',
]);
const BATCH = 500;

type Row = Record<string, unknown>;
type Log = (line: string) => void;

async function tablesOf(db: Db): Promise<string[]> {
  if (db.dialect === 'sqlite') {
    const rows = db.sqlite!.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{
      name: string;
    }>;
    return rows.map((r) => r.name).filter((n) => !n.startsWith('sqlite_'));
  }
  const r = await sql<{ table_name: string }>`
    select table_name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(db.kysely);
  return r.rows.map((x) => x.table_name);
}

async function columnsOf(db: Db, table: string): Promise<Set<string>> {
  if (db.dialect === 'sqlite') {
    const rows = db.sqlite!.prepare(`PRAGMA table_info("${table.replace(/"/g, '""')}")`).all() as Array<{
      name: string;
    }>;
    return new Set(rows.map((r) => r.name));
  }
  const r = await sql<{ column_name: string }>`
    select column_name from information_schema.columns
    where table_schema = current_schema() and table_name = ${table}`.execute(db.kysely);
  return new Set(r.rows.map((x) => x.column_name));
}

/** Copies every metadata table both schemas know, replacing what start-up seeded in the target. */
async function copyTables(source: Db, target: Db, log: Log): Promise<Record<string, number>> {
  const targetTables = new Set(await tablesOf(target));
  const counts: Record<string, number> = {};
  // Chunk-index tables of the target belong to the index copy, not to this one.
  const tables = (await tablesOf(source)).filter(
    (t) => targetTables.has(t) && !SKIPPED_TABLES.has(t) && !t.startsWith('lectern_chunk'),
  );
  await target.kysely.transaction().execute(async (trx) => {
    for (const table of tables) {
      const targetColumns = await columnsOf(target, table);
      const columns = [...(await columnsOf(source, table))].filter((c) => targetColumns.has(c));
      await sql`delete from ${sql.table(table)}`.execute(trx);
      let copied = 0;
      for (let offset = 0; ; offset += BATCH) {
        const rows = source
          .sqlite!.prepare(`SELECT * FROM "${table}" ORDER BY rowid LIMIT ? OFFSET ?`)
          .all(BATCH, offset) as Row[];
        const kept = table === 'kv' ? rows.filter((r) => !String(r.key).startsWith('heartbeat:')) : rows;
        if (kept.length > 0) {
          const values = kept.map((r) => Object.fromEntries(columns.map((c) => [c, r[c] ?? null])));
          await trx
            .insertInto(table as never)
            .values(values as never)
            .execute();
        }
        copied += kept.length;
        if (rows.length < BATCH) break;
      }
      counts[table] = copied;
      log(`  ${table}: ${copied} rows`);
    }
  });
  return counts;
}

/** Every chunk of every knowledge base, vectors included, through the index port of each side. */
async function copyChunks(
  source: ChunkIndex,
  target: ChunkIndex,
  kbIds: string[],
  log: Log,
): Promise<number> {
  let total = 0;
  for (const kbId of kbIds) {
    await target.deleteByKb(kbId);
    for (let offset = 0; ; offset += BATCH) {
      const page = await source.list({ kbIds: [kbId], withChildren: true }, 'newest', offset, BATCH);
      if (page.chunks.length === 0) break;
      const whole = await source.getMany(page.chunks.map((c) => c.id));
      await target.upsert(whole);
      total += whole.length;
      if (page.chunks.length < BATCH) break;
    }
    log(`  knowledge base ${kbId}: ${total} chunks so far`);
  }
  return total;
}

function* walk(dir: string, prefix = ''): Generator<string> {
  if (!fs.existsSync(dir)) return;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const key = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) yield* walk(path.join(dir, entry.name), key);
    else if (entry.isFile() && !entry.name.endsWith('.tmp')) yield key;
  }
}

async function copyBlobs(sourceDir: string, target: BlobStore, log: Log): Promise<number> {
  let n = 0;
  for (const key of walk(sourceDir)) {
    await target.putStream(key, fs.createReadStream(path.join(sourceDir, key)));
    n += 1;
    if (n % 200 === 0) log(`  ${n} blobs`);
  }
  return n;
}

/** The whole move; `targetConfig` is the new deployment (PostgreSQL chunk index required). */
export async function migrateIndex(
  fromDir: string,
  targetConfig: Config,
  log: Log = () => {},
): Promise<MigrationReport> {
  const from = path.resolve(fromDir);
  if (!fs.existsSync(path.join(from, 'lectern.sqlite')))
    throw new Error(`No Lectern data folder at ${from} (lectern.sqlite is missing).`);
  if (targetConfig.chunkIndex !== 'postgres')
    throw new Error(
      'The target is not scaled out: set DATABASE_URL=postgres://… (and BLOB_STORE=s3 with S3_*).',
    );
  const sourceKeyFile = path.join(from, 'secret.key');
  if (
    fs.existsSync(sourceKeyFile) &&
    fs.readFileSync(sourceKeyFile, 'utf8').trim() !== targetConfig.secretKey
  )
    throw new Error(
      `Set LECTERN_SECRET_KEY to the source's key (${sourceKeyFile}) for this command and every process of the new deployment.`,
    );
  const sourceConfig = loadConfig({
    LECTERN_DATA_DIR: from,
    LECTERN_SECRET_KEY: targetConfig.secretKey,
    CHUNK_INDEX: 'sqlite',
    LOG_LEVEL: 'silent',
  });

  const closers: Array<() => Promise<void> | void> = [];
  try {
    const source = openDb(undefined, from);
    closers.push(() => source.close());
    const target = openDb(targetConfig.databaseUrl, targetConfig.dataDir);
    closers.push(() => target.close());
    const secrets = new Secrets(targetConfig.secretKey);
    await migrateToLatest(source, { secrets });
    await migrateToLatest(target, { secrets });
    const accounts = await target.kysely
      .selectFrom('user')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    if (Number(accounts.n) > 0)
      throw new Error('The target database already has accounts; migrate into an empty database.');

    log('metadata');
    const tables = await copyTables(source, target, log);
    log('chunk index');
    const sourceIndex = await openChunkIndex(sourceConfig, new HealthRegistry(), closers);
    const targetIndex = await openChunkIndex(targetConfig, new HealthRegistry(), closers);
    const kbs = await source.kysely.selectFrom('knowledgebase').select('id').execute();
    const chunks = await copyChunks(
      sourceIndex,
      targetIndex,
      kbs.map((k) => k.id),
      log,
    );
    log('blobs');
    const blobs =
      targetConfig.blobStore.kind === 'local' && path.resolve(targetConfig.dataDir) === from
        ? 0
        : await copyBlobs(path.join(from, 'blobs'), createBlobStore(targetConfig), log);
    return { tables, chunks, blobs };
  } finally {
    for (const close of closers.reverse()) await close();
  }
}

/** The command line: `lectern migrate-index --from <data dir>` with the target in the environment. */
export async function runMigrateIndexCommand(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const i = argv.indexOf('--from');
  const from = i >= 0 ? argv[i + 1] : undefined;
  if (!from) {
    console.error('usage: lectern migrate-index --from <data dir of the SQLite deployment>');
    console.error(
      '  the target comes from DATABASE_URL (PostgreSQL), BLOB_STORE/S3_* and LECTERN_SECRET_KEY',
    );
    return 2;
  }
  const started = performance.now();
  const report = await migrateIndex(from, loadConfig(env), (line) => console.log(line));
  const rows = Object.values(report.tables).reduce((a, b) => a + b, 0);
  console.log(
    `migrated ${rows} rows, ${report.chunks} chunks and ${report.blobs} blobs in ${Math.round(performance.now() - started)} ms`,
  );
  return 0;
}
