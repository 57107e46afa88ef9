import path from 'node:path';
import type { Config } from '../config.js';
import type { HealthRegistry } from '../health/registry.js';
import type { ChunkIndex } from './chunk-index.js';
import { SqliteChunkIndex } from './sqlite-index.js';
import { createSearchThreads } from './search-pool.js';
import { createTokenizer } from './tokenize-pool.js';

/**
 * The chunk index of this process: `<dataDir>/index.sqlite` (SQLite FTS5 + sqlite-vec), searched on
 * search threads (search-pool.ts), written on this thread with tokenizing offloaded. Registers the
 * `doc_engine` health probe; `onClose` receives its closing. A PostgreSQL deployment keeps this
 * embedded index until the tsvector + pgvector adapter exists (it would be chosen here from DATABASE_URL).
 */
export function createChunkIndex(
  config: Config,
  health: HealthRegistry,
  onClose: Array<() => Promise<void> | void>,
): ChunkIndex {
  const tokenizer = createTokenizer();
  const searchThreads = createSearchThreads();
  const index = new SqliteChunkIndex(path.join(config.dataDir, 'index.sqlite'), tokenizer, searchThreads, {
    keywordPostings: config.keywordPostings,
  });
  health.register('doc_engine', async () => {
    await index.health();
    return { type: index.type, ...index.describe() };
  });
  onClose.push(async () => {
    await index.close();
    await tokenizer.close();
    await searchThreads.close();
  });
  return index;
}
