import path from 'node:path';
import type { Config } from './config.js';
import { openDb, pingDb, type Db } from './db/connection.js';
import { migrateToLatest } from './db/migrate.js';
import { HealthRegistry } from './health/registry.js';
import { Secrets } from './security/secrets.js';
import type { BlobStore } from './storage/blob-store.js';
import { LocalBlobStore } from './storage/local-blob-store.js';

/** Everything a module needs, created once per process and passed explicitly (no globals). */
export interface AppContext {
  config: Config;
  db: Db;
  secrets: Secrets;
  blobs: BlobStore;
  health: HealthRegistry;
  /** Resources to release on shutdown, last registered first. */
  onClose: Array<() => Promise<void> | void>;
}

export async function createContext(config: Config): Promise<AppContext> {
  const db = openDb(config.databaseUrl, config.dataDir);
  await migrateToLatest(db);
  const blobs = new LocalBlobStore(path.join(config.dataDir, 'blobs'));
  const health = new HealthRegistry();
  health.register('database', async () => {
    await pingDb(db);
    return { database: db.dialect === 'postgres' ? 'postgresql' : 'sqlite' };
  });
  health.register('storage', async () => {
    await blobs.health();
    return { storage: blobs.kind };
  });
  // The task queue lives in the metadata DB (rows with leases); report its depth.
  health.register('queue', async () => {
    const row = await db.kysely
      .selectFrom('task')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('progress', '>=', 0)
      .where('progress', '<', 1)
      .executeTakeFirst();
    return { queue: 'database', pending: Number(row?.n ?? 0) };
  });
  // Replaced by the chunk-index module when it registers its own probe.
  health.register('doc_engine', async () => {
    await pingDb(db);
    return { type: db.dialect === 'postgres' ? 'postgres-tsvector' : 'sqlite-fts5' };
  });
  const ctx: AppContext = {
    config,
    db,
    secrets: new Secrets(config.secretKey),
    blobs,
    health,
    onClose: [() => db.close()],
  };
  return ctx;
}

export async function closeContext(ctx: AppContext): Promise<void> {
  for (const close of [...ctx.onClose].reverse()) {
    try {
      await close();
    } catch {
      // Shutdown keeps going: one failing resource must not keep the others open.
    }
  }
}
