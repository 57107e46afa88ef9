import type { Kysely } from 'kysely';
import { dialectOf, floatType, jsonType, withTimes } from '../schema-helpers.js';

/**
 * Knowledge bases, documents and their file-manager links (API.md §18), plus the task columns the
 * ingestion queue needs beyond 0002: how many tokens a finished task indexed (so a reused task keeps
 * its counters).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const d = dialectOf(db);
  await withTimes(
    db.schema
      .createTable('knowledgebase')
      .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
      .addColumn('tenant_id', 'varchar(32)', (c) => c.notNull())
      .addColumn('created_by', 'varchar(32)', (c) => c.notNull())
      .addColumn('name', 'varchar(128)', (c) => c.notNull())
      .addColumn('avatar', 'text')
      .addColumn('language', 'varchar(32)', (c) => c.notNull().defaultTo('English'))
      .addColumn('description', 'text')
      .addColumn('embd_id', 'varchar(128)', (c) => c.notNull().defaultTo(''))
      .addColumn('permission', 'varchar(16)', (c) => c.notNull().defaultTo('me'))
      .addColumn('doc_num', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('token_num', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('chunk_num', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('similarity_threshold', floatType(d), (c) => c.notNull().defaultTo(0.2))
      .addColumn('vector_similarity_weight', floatType(d), (c) => c.notNull().defaultTo(0.3))
      .addColumn('parser_id', 'varchar(32)', (c) => c.notNull().defaultTo('naive'))
      .addColumn('pipeline_id', 'varchar(32)')
      .addColumn('parser_config', jsonType(d), (c) => c.notNull())
      .addColumn('pagerank', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('graphrag_task_id', 'varchar(32)')
      .addColumn('graphrag_task_finish_at', 'bigint')
      .addColumn('raptor_task_id', 'varchar(32)')
      .addColumn('raptor_task_finish_at', 'bigint')
      .addColumn('mindmap_task_id', 'varchar(32)')
      .addColumn('mindmap_task_finish_at', 'bigint')
      .addColumn('status', 'varchar(1)', (c) => c.notNull().defaultTo('1')),
  ).execute();
  await db.schema.createIndex('knowledgebase_tenant_idx').on('knowledgebase').column('tenant_id').execute();

  await withTimes(
    db.schema
      .createTable('document')
      .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
      .addColumn('kb_id', 'varchar(32)', (c) => c.notNull())
      .addColumn('created_by', 'varchar(32)', (c) => c.notNull())
      .addColumn('name', 'varchar(255)', (c) => c.notNull())
      .addColumn('type', 'varchar(32)', (c) => c.notNull())
      .addColumn('suffix', 'varchar(32)', (c) => c.notNull().defaultTo(''))
      .addColumn('location', 'varchar(255)', (c) => c.notNull().defaultTo(''))
      .addColumn('size', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('thumbnail', 'text')
      .addColumn('parser_id', 'varchar(32)', (c) => c.notNull())
      .addColumn('pipeline_id', 'varchar(32)')
      .addColumn('parser_config', jsonType(d), (c) => c.notNull())
      .addColumn('source_type', 'varchar(128)', (c) => c.notNull().defaultTo('local'))
      .addColumn('token_num', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('chunk_num', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('progress', floatType(d), (c) => c.notNull().defaultTo(0))
      .addColumn('progress_msg', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('process_begin_at', 'bigint')
      .addColumn('process_duration', floatType(d), (c) => c.notNull().defaultTo(0))
      .addColumn('run', 'varchar(1)', (c) => c.notNull().defaultTo('0'))
      .addColumn('status', 'varchar(1)', (c) => c.notNull().defaultTo('1'))
      .addColumn('meta_fields', jsonType(d), (c) => c.notNull()),
  ).execute();
  await db.schema.createIndex('document_kb_idx').on('document').column('kb_id').execute();
  await db.schema.createIndex('document_run_idx').on('document').column('run').execute();

  await withTimes(
    db.schema
      .createTable('file2document')
      .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
      .addColumn('file_id', 'varchar(32)', (c) => c.notNull())
      .addColumn('document_id', 'varchar(32)', (c) => c.notNull()),
  ).execute();
  await db.schema.createIndex('file2document_file_idx').on('file2document').column('file_id').execute();
  await db.schema.createIndex('file2document_doc_idx').on('file2document').column('document_id').execute();

  await db.schema
    .alterTable('task')
    .addColumn('token_num', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('task').dropColumn('token_num').execute();
  for (const t of ['file2document', 'document', 'knowledgebase']) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
