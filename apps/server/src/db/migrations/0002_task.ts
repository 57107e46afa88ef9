import type { Kysely } from 'kysely';
import { dialectOf, floatType, withTimes } from '../schema-helpers.js';

/**
 * Task rows (API.md §18 `task`): every long job is a row with progress, a lease and a cancel flag,
 * so a crash or restart loses nothing. Lease columns are ours: `lease_owner`, `lease_until`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const d = dialectOf(db);
  await withTimes(
    db.schema
      .createTable('task')
      .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
      .addColumn('doc_id', 'varchar(32)', (c) => c.notNull())
      .addColumn('kb_id', 'varchar(32)', (c) => c.notNull().defaultTo(''))
      .addColumn('tenant_id', 'varchar(32)', (c) => c.notNull().defaultTo(''))
      .addColumn('from_page', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('to_page', 'integer', (c) => c.notNull().defaultTo(100000000))
      .addColumn('task_type', 'varchar(32)', (c) => c.notNull().defaultTo(''))
      .addColumn('priority', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('begin_at', 'bigint')
      .addColumn('process_duration', floatType(d), (c) => c.notNull().defaultTo(0))
      .addColumn('progress', floatType(d), (c) => c.notNull().defaultTo(0))
      .addColumn('progress_msg', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('retry_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('digest', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('chunk_ids', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('cancel', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('lease_owner', 'varchar(64)')
      .addColumn('lease_until', 'bigint'),
  ).execute();
  await db.schema.createIndex('task_doc_idx').on('task').column('doc_id').execute();
  await db.schema
    .createIndex('task_claim_idx')
    .on('task')
    .columns(['progress', 'priority', 'create_time'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('task').ifExists().execute();
}
