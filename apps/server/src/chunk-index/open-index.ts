/**
 * The chunk index of this process, chosen by configuration (CHUNK_INDEX, default: PostgreSQL when
 * DATABASE_URL is PostgreSQL, else the embedded SQLite file of create-index.ts). Registers the
 * `doc_engine` health probe; `onClose` receives its closing. Opening the PostgreSQL index fails — and
 * with it the start-up — when the database cannot load pgvector (the error says how to install it).
 */
import type { Config } from '../config.js';
import type { HealthRegistry } from '../health/registry.js';
import type { ChunkIndex } from './chunk-index.js';
import { createChunkIndex } from './create-index.js';
import { PgChunkIndex } from './pg-index.js';
import { createStoredTextThread } from './pg-text-pool.js';

export async function openChunkIndex(
  config: Config,
  health: HealthRegistry,
  onClose: Array<() => Promise<void> | void>,
): Promise<ChunkIndex> {
  if (config.chunkIndex !== 'postgres') return createChunkIndex(config, health, onClose);
  const textThread = createStoredTextThread();
  let index: PgChunkIndex;
  try {
    index = await PgChunkIndex.open(config.databaseUrl!, textThread);
  } catch (err) {
    await textThread.close();
    throw err;
  }
  health.register('doc_engine', async () => {
    await index.health();
    return { type: index.type, ...(await index.describe()) };
  });
  onClose.push(async () => {
    await index.close();
    await textThread.close();
  });
  return index;
}
