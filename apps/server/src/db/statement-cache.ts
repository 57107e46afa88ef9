/**
 * Prepared statements reused by the SQLite Kysely dialect. Kysely's SQLite driver prepares every
 * query it runs; preparing costs as much as running most of our point queries (a third of the
 * main thread's SQLite time while ingesting SciFact). Statements are kept per SQL text, least
 * recently used first out; one still being iterated (a streamed query) is never handed out twice.
 */
import type SqliteDatabase from 'better-sqlite3';

/** Distinct SQL texts kept (IN lists of varying length are distinct texts). */
const MAX_STATEMENTS = 500;

/** What Kysely's SqliteDialect needs from a database. */
export interface PreparingDatabase {
  prepare(sql: string): SqliteDatabase.Statement;
  close(): void;
}

export function withStatementCache(
  db: SqliteDatabase.Database,
  max = MAX_STATEMENTS,
): PreparingDatabase & { readonly cached: number } {
  const statements = new Map<string, SqliteDatabase.Statement>();
  return {
    get cached() {
      return statements.size;
    },
    prepare(sql: string) {
      const found = statements.get(sql);
      if (found && !found.busy) {
        statements.delete(sql);
        statements.set(sql, found);
        return found;
      }
      const stmt = db.prepare(sql);
      if (found) return stmt;
      statements.set(sql, stmt);
      if (statements.size > max) statements.delete(statements.keys().next().value as string);
      return stmt;
    },
    close() {
      statements.clear();
      db.close();
    },
  };
}
