import type { Kysely } from 'kysely';
import { withTimes } from '../schema-helpers.js';

/**
 * Tracing keys (API.md §14, §18 `tenant_tracing`): one row per tenant with the Langfuse host and
 * key pair its chat and agent runs are traced to. The secret key is encrypted with the server key.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withTimes(
    db.schema
      .createTable('tenant_tracing')
      .addColumn('tenant_id', 'varchar(32)', (c) => c.primaryKey())
      .addColumn('secret_key', 'text', (c) => c.notNull())
      .addColumn('public_key', 'varchar(2048)', (c) => c.notNull())
      .addColumn('host', 'varchar(128)', (c) => c.notNull()),
  ).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('tenant_tracing').ifExists().execute();
}
