import type { Kysely } from 'kysely';
import { dialectOf, jsonType, withTimes } from '../schema-helpers.js';

/**
 * MCP servers (API.md §16, §18; AGENTS.md §11): one row per server a tenant registered. `variables`
 * holds the user's variables and the cached tool list (`variables.tools`); `headers` the request
 * headers (values may reference variables). Names are unique per tenant.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const d = dialectOf(db);
  await withTimes(
    db.schema
      .createTable('mcp_server')
      .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
      .addColumn('name', 'varchar(255)', (c) => c.notNull())
      .addColumn('tenant_id', 'varchar(32)', (c) => c.notNull())
      .addColumn('url', 'varchar(2048)', (c) => c.notNull())
      .addColumn('server_type', 'varchar(32)', (c) => c.notNull())
      .addColumn('description', 'text')
      .addColumn('variables', jsonType(d), (c) => c.notNull())
      .addColumn('headers', jsonType(d), (c) => c.notNull()),
  ).execute();
  await db.schema
    .createIndex('mcp_server_tenant_name_uq')
    .on('mcp_server')
    .columns(['tenant_id', 'name'])
    .unique()
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('mcp_server').ifExists().execute();
}
