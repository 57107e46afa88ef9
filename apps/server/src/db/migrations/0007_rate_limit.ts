import type { Kysely } from 'kysely';

/**
 * Rate-limit windows shared by every process on one database (login attempts today): a counter and
 * the end of its window per key. Rows of ended windows are reused by the next attempt.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('rate_limit')
    .addColumn('key', 'varchar(512)', (c) => c.primaryKey())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('reset_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('rate_limit').ifExists().execute();
}
