import type { Kysely } from 'kysely';
import { dialectOf, floatType, jsonType, withTimes } from '../schema-helpers.js';

/**
 * Chat assistants, their conversations and the external/agent sessions behind the API statistics
 * (API.md §18 `dialog`, `conversation`, `api_4_conversation`; `api_token` exists since 0001).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const d = dialectOf(db);
  await withTimes(
    db.schema
      .createTable('dialog')
      .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
      .addColumn('tenant_id', 'varchar(32)', (c) => c.notNull())
      .addColumn('name', 'varchar(255)', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('icon', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('language', 'varchar(32)', (c) => c.notNull().defaultTo('English'))
      .addColumn('llm_id', 'varchar(128)', (c) => c.notNull().defaultTo(''))
      .addColumn('llm_setting', jsonType(d), (c) => c.notNull())
      .addColumn('prompt_type', 'varchar(16)', (c) => c.notNull().defaultTo('simple'))
      .addColumn('prompt_config', jsonType(d), (c) => c.notNull())
      .addColumn('meta_data_filter', jsonType(d), (c) => c.notNull())
      .addColumn('similarity_threshold', floatType(d), (c) => c.notNull().defaultTo(0.2))
      .addColumn('vector_similarity_weight', floatType(d), (c) => c.notNull().defaultTo(0.3))
      .addColumn('top_n', 'integer', (c) => c.notNull().defaultTo(6))
      .addColumn('top_k', 'integer', (c) => c.notNull().defaultTo(1024))
      .addColumn('do_refer', 'varchar(1)', (c) => c.notNull().defaultTo('1'))
      .addColumn('rerank_id', 'varchar(128)', (c) => c.notNull().defaultTo(''))
      .addColumn('kb_ids', jsonType(d), (c) => c.notNull())
      .addColumn('status', 'varchar(1)', (c) => c.notNull().defaultTo('1')),
  ).execute();
  await db.schema.createIndex('dialog_tenant_idx').on('dialog').columns(['tenant_id', 'status']).execute();

  await withTimes(
    db.schema
      .createTable('conversation')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('dialog_id', 'varchar(32)', (c) => c.notNull())
      .addColumn('name', 'varchar(255)', (c) => c.notNull().defaultTo(''))
      .addColumn('message', jsonType(d), (c) => c.notNull())
      .addColumn('reference', jsonType(d), (c) => c.notNull())
      .addColumn('user_id', 'varchar(255)', (c) => c.notNull().defaultTo('')),
  ).execute();
  await db.schema.createIndex('conversation_dialog_idx').on('conversation').column('dialog_id').execute();

  await withTimes(
    db.schema
      .createTable('api_4_conversation')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('name', 'varchar(255)')
      .addColumn('dialog_id', 'varchar(32)', (c) => c.notNull())
      .addColumn('user_id', 'varchar(255)', (c) => c.notNull().defaultTo(''))
      .addColumn('exp_user_id', 'varchar(255)')
      .addColumn('message', jsonType(d), (c) => c.notNull())
      .addColumn('reference', jsonType(d), (c) => c.notNull())
      .addColumn('tokens', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('source', 'varchar(16)')
      .addColumn('dsl', jsonType(d), (c) => c.notNull())
      .addColumn('duration', floatType(d), (c) => c.notNull().defaultTo(0))
      .addColumn('round', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('thumb_up', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('errors', 'text'),
  ).execute();
  await db.schema
    .createIndex('api_4_conversation_dialog_idx')
    .on('api_4_conversation')
    .columns(['dialog_id', 'create_time'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['api_4_conversation', 'conversation', 'dialog']) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
