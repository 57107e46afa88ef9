import type { Kysely } from 'kysely';
import { dialectOf, withTimes } from '../schema-helpers.js';

/** Accounts, tenants, memberships, API keys and the file-manager root (issue: foundation). */
export async function up(db: Kysely<unknown>): Promise<void> {
  void dialectOf(db);
  await withTimes(
    db.schema
      .createTable('user')
      .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
      .addColumn('email', 'varchar(255)', (c) => c.notNull().unique())
      .addColumn('nickname', 'varchar(100)', (c) => c.notNull())
      .addColumn('password', 'varchar(255)', (c) => c.notNull())
      .addColumn('access_token', 'varchar(255)', (c) => c.notNull())
      .addColumn('avatar', 'text')
      .addColumn('language', 'varchar(32)', (c) => c.notNull().defaultTo('English'))
      .addColumn('color_schema', 'varchar(32)', (c) => c.notNull().defaultTo('Bright'))
      .addColumn('timezone', 'varchar(64)', (c) => c.notNull())
      .addColumn('last_login_time', 'bigint')
      .addColumn('is_authenticated', 'varchar(1)', (c) => c.notNull().defaultTo('1'))
      .addColumn('is_active', 'varchar(1)', (c) => c.notNull().defaultTo('1'))
      .addColumn('is_anonymous', 'varchar(1)', (c) => c.notNull().defaultTo('0'))
      .addColumn('login_channel', 'varchar(32)')
      .addColumn('is_superuser', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('status', 'varchar(1)', (c) => c.notNull().defaultTo('1')),
  ).execute();
  await db.schema.createIndex('user_access_token_idx').on('user').column('access_token').execute();

  await withTimes(
    db.schema
      .createTable('tenant')
      .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
      .addColumn('name', 'varchar(100)', (c) => c.notNull())
      .addColumn('llm_id', 'varchar(128)', (c) => c.notNull().defaultTo(''))
      .addColumn('embd_id', 'varchar(128)', (c) => c.notNull().defaultTo(''))
      .addColumn('asr_id', 'varchar(128)', (c) => c.notNull().defaultTo(''))
      .addColumn('img2txt_id', 'varchar(128)', (c) => c.notNull().defaultTo(''))
      .addColumn('rerank_id', 'varchar(128)', (c) => c.notNull().defaultTo(''))
      .addColumn('tts_id', 'varchar(256)')
      .addColumn('parser_ids', 'varchar(256)', (c) => c.notNull())
      .addColumn('credit', 'integer', (c) => c.notNull().defaultTo(512))
      .addColumn('status', 'varchar(1)', (c) => c.notNull().defaultTo('1')),
  ).execute();

  await withTimes(
    db.schema
      .createTable('user_tenant')
      .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
      .addColumn('user_id', 'varchar(32)', (c) => c.notNull())
      .addColumn('tenant_id', 'varchar(32)', (c) => c.notNull())
      .addColumn('role', 'varchar(32)', (c) => c.notNull())
      .addColumn('invited_by', 'varchar(32)', (c) => c.notNull())
      .addColumn('status', 'varchar(1)', (c) => c.notNull().defaultTo('1'))
      .addUniqueConstraint('user_tenant_user_tenant_uq', ['user_id', 'tenant_id']),
  ).execute();
  await db.schema.createIndex('user_tenant_tenant_idx').on('user_tenant').column('tenant_id').execute();

  await withTimes(
    db.schema
      .createTable('api_token')
      .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
      .addColumn('tenant_id', 'varchar(32)', (c) => c.notNull())
      .addColumn('token', 'text', (c) => c.notNull())
      .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('dialog_id', 'varchar(32)')
      .addColumn('source', 'varchar(16)')
      .addColumn('beta', 'text')
      .addColumn('beta_hash', 'varchar(64)'),
  ).execute();
  await db.schema.createIndex('api_token_tenant_idx').on('api_token').column('tenant_id').execute();
  await db.schema.createIndex('api_token_beta_idx').on('api_token').column('beta_hash').execute();

  await withTimes(
    db.schema
      .createTable('file')
      .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
      .addColumn('parent_id', 'varchar(32)', (c) => c.notNull())
      .addColumn('tenant_id', 'varchar(32)', (c) => c.notNull())
      .addColumn('created_by', 'varchar(32)', (c) => c.notNull())
      .addColumn('name', 'varchar(255)', (c) => c.notNull())
      .addColumn('location', 'varchar(255)', (c) => c.notNull().defaultTo(''))
      .addColumn('size', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('type', 'varchar(32)', (c) => c.notNull())
      .addColumn('source_type', 'varchar(128)', (c) => c.notNull().defaultTo('')),
  ).execute();
  await db.schema.createIndex('file_parent_idx').on('file').column('parent_id').execute();
  await db.schema.createIndex('file_tenant_idx').on('file').column('tenant_id').execute();

  await db.schema
    .createTable('kv')
    .addColumn('key', 'varchar(128)', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('update_time', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['kv', 'file', 'api_token', 'user_tenant', 'tenant', 'user']) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
