import type { Kysely } from 'kysely';
import { withTimes } from '../schema-helpers.js';

/**
 * Model providers (API.md §18): the catalogue tables `llm_factories` and `llm` (seeded from
 * models/catalogue.json at start-up) and the per-tenant `tenant_llm` rows holding encrypted keys.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withTimes(
    db.schema
      .createTable('llm_factories')
      .addColumn('name', 'varchar(128)', (c) => c.primaryKey())
      .addColumn('logo', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('tags', 'varchar(255)', (c) => c.notNull().defaultTo(''))
      .addColumn('rank', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('status', 'varchar(1)', (c) => c.notNull().defaultTo('1')),
  ).execute();

  await withTimes(
    db.schema
      .createTable('llm')
      .addColumn('llm_name', 'varchar(128)', (c) => c.notNull())
      .addColumn('model_type', 'varchar(128)', (c) => c.notNull())
      .addColumn('fid', 'varchar(128)', (c) => c.notNull())
      .addColumn('max_tokens', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('tags', 'varchar(255)', (c) => c.notNull().defaultTo(''))
      .addColumn('is_tools', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('status', 'varchar(1)', (c) => c.notNull().defaultTo('1'))
      .addPrimaryKeyConstraint('llm_pk', ['fid', 'llm_name']),
  ).execute();

  await withTimes(
    db.schema
      .createTable('tenant_llm')
      .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
      .addColumn('tenant_id', 'varchar(32)', (c) => c.notNull())
      .addColumn('llm_factory', 'varchar(128)', (c) => c.notNull())
      .addColumn('model_type', 'varchar(128)', (c) => c.notNull())
      .addColumn('llm_name', 'varchar(255)', (c) => c.notNull())
      .addColumn('api_key', 'text')
      .addColumn('api_base', 'varchar(255)')
      .addColumn('max_tokens', 'integer', (c) => c.notNull().defaultTo(8192))
      .addColumn('used_tokens', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('status', 'varchar(1)', (c) => c.notNull().defaultTo('1'))
      .addUniqueConstraint('tenant_llm_uq', ['tenant_id', 'llm_factory', 'llm_name']),
  ).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['tenant_llm', 'llm', 'llm_factories']) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
