import path from 'node:path';
import type { AppContext } from '../context.js';
import type { ChunkIndex } from './chunk-index.js';
import { SqliteChunkIndex } from './sqlite-index.js';
import { createTokenizer } from './tokenize-pool.js';

/**
 * The chunk index of this process: `<dataDir>/index.sqlite` (SQLite FTS5 + sqlite-vec). Registers the
 * `doc_engine` health probe and closes with the context. A PostgreSQL deployment keeps this embedded
 * index until the tsvector + pgvector adapter exists (it would be chosen here from DATABASE_URL).
 */
export function createChunkIndex(ctx: AppContext): ChunkIndex {
  const tokenizer = createTokenizer();
  const index = new SqliteChunkIndex(path.join(ctx.config.dataDir, 'index.sqlite'), tokenizer);
  ctx.health.register('doc_engine', async () => {
    await index.health();
    return { type: index.type, ...index.describe() };
  });
  ctx.onClose.push(async () => {
    await index.close();
    await tokenizer.close();
  });
  return index;
}
