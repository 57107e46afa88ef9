/**
 * Row locks and constraint errors for decisions that must be atomic (a unique name in a folder or
 * a KB). SQLite runs one transaction at a time on its single connection, so a transaction is
 * already exclusive there; PostgreSQL takes `SELECT … FOR UPDATE` on the container row, so
 * concurrent transactions naming things in the same container queue behind each other.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { DialectName } from './connection.js';
import type { Database } from './types.js';

type Q = Kysely<Database> | Transaction<Database>;

export async function lockRow(
  trx: Q,
  dialect: DialectName,
  table: 'knowledgebase' | 'tenant' | 'file' | 'user' | 'document',
  id: string,
): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`select id from ${sql.table(table)} where id = ${id} for update`.execute(trx);
}

/** A unique-index violation (SQLite SQLITE_CONSTRAINT_UNIQUE, PostgreSQL 23505). */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === '23505';
}
