import type { Kysely } from 'kysely';
import { dialectOf, jsonType, withTimes } from '../schema-helpers.js';

/**
 * Search apps (API.md §15, §18 `search`): a named search page of a tenant with its `search_config`
 * (knowledge bases, retrieval settings, summary model…), read by `conversation/ask`, `mindmap` and
 * `related_questions` when they get a `search_id`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const d = dialectOf(db);
  await withTimes(
    db.schema
      .createTable('search')
      .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
      .addColumn('avatar', 'text')
      .addColumn('tenant_id', 'varchar(32)', (c) => c.notNull())
      .addColumn('name', 'varchar(255)', (c) => c.notNull())
      .addColumn('description', 'text')
      .addColumn('created_by', 'varchar(32)', (c) => c.notNull())
      .addColumn('search_config', jsonType(d), (c) => c.notNull())
      .addColumn('status', 'varchar(1)', (c) => c.notNull().defaultTo('1')),
  ).execute();
  await db.schema.createIndex('search_tenant_idx').on('search').columns(['tenant_id', 'status']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('search').ifExists().execute();
}
