import type { CreateTableBuilder, Kysely } from 'kysely';
import { sql } from 'kysely';
import type { DialectName } from './connection.js';

/** Column type for JSON payloads: jsonb on PostgreSQL, text on SQLite. */
export function jsonType(dialect: DialectName) {
  return dialect === 'postgres' ? sql`jsonb` : sql`text`;
}

export function floatType(dialect: DialectName) {
  return dialect === 'postgres' ? sql`double precision` : sql`real`;
}

/** Adds the four time columns every table carries. */
export function withTimes<T extends string, C extends string>(t: CreateTableBuilder<T, C>) {
  return t
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .addColumn('create_date', 'varchar(32)', (c) => c.notNull())
    .addColumn('update_time', 'bigint', (c) => c.notNull())
    .addColumn('update_date', 'varchar(32)', (c) => c.notNull());
}

export function dialectOf(db: Kysely<unknown>): DialectName {
  const adapterName = db.getExecutor().adapter.constructor.name;
  return adapterName.toLowerCase().includes('postgres') ? 'postgres' : 'sqlite';
}
