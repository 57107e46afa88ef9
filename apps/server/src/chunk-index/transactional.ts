/**
 * Chunk deletes inside the metadata transaction that deletes their document or KB. The PostgreSQL
 * index lives in the metadata database, so a document row and its chunks go together or not at all;
 * the embedded SQLite index is another file and deletes its chunks after the transaction (the
 * callers' existing `deleteByDoc`/`deleteByKb` calls, which then find nothing left in PostgreSQL).
 */
import { CompiledQuery, type Transaction } from 'kysely';
import type { Database } from '../db/types.js';
import type { ChunkIndex } from './chunk-index.js';
import { PgChunkIndex } from './pg-index.js';
import type { Exec } from './pg-write.js';

function execOf(trx: Transaction<Database>): Exec {
  return {
    async query(text, values = []) {
      const res = await trx.executeQuery(CompiledQuery.raw(text, values));
      // Kysely types rows by the query it compiled; a raw statement's rows are whatever it selected.
      return { rows: res.rows as never[], rowCount: res.rows.length };
    },
  };
}

/** Deletes the documents' chunks in `trx` when the index is in the same database; else nothing. */
export async function deleteDocChunksIn(
  index: ChunkIndex,
  trx: Transaction<Database>,
  docIds: string[],
): Promise<void> {
  if (index instanceof PgChunkIndex) await index.deleteDocsWith(execOf(trx), docIds);
}

/** Deletes a KB's chunks in `trx` when the index is in the same database; else nothing. */
export async function deleteKbChunksIn(
  index: ChunkIndex,
  trx: Transaction<Database>,
  kbId: string,
): Promise<void> {
  if (index instanceof PgChunkIndex) await index.deleteKbWith(execOf(trx), kbId);
}
