import type { Kysely } from 'kysely';
import { dialectOf, jsonType, withTimes } from '../schema-helpers.js';

/**
 * Agents (API.md §13, §18): `user_canvas` (the canvases), `user_canvas_version` (the newest 20
 * saves of each) and `canvas_run` (one row per run: its events as streamed and its tool-call trace,
 * for `GET /v1/canvas/trace`). Agent sessions are `api_4_conversation` rows with `source "agent"`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const d = dialectOf(db);
  await withTimes(
    db.schema
      .createTable('user_canvas')
      .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
      .addColumn('avatar', 'text')
      .addColumn('user_id', 'varchar(255)', (c) => c.notNull())
      .addColumn('title', 'varchar(255)', (c) => c.notNull())
      .addColumn('permission', 'varchar(16)', (c) => c.notNull().defaultTo('me'))
      .addColumn('description', 'text')
      .addColumn('canvas_type', 'varchar(32)')
      .addColumn('canvas_category', 'varchar(32)', (c) => c.notNull().defaultTo('agent_canvas'))
      .addColumn('dsl', jsonType(d), (c) => c.notNull()),
  ).execute();
  await db.schema.createIndex('user_canvas_user_idx').on('user_canvas').column('user_id').execute();

  await withTimes(
    db.schema
      .createTable('user_canvas_version')
      .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
      .addColumn('user_canvas_id', 'varchar(32)', (c) => c.notNull())
      .addColumn('title', 'varchar(255)', (c) => c.notNull())
      .addColumn('description', 'text')
      .addColumn('dsl', jsonType(d), (c) => c.notNull()),
  ).execute();
  await db.schema
    .createIndex('user_canvas_version_canvas_idx')
    .on('user_canvas_version')
    .columns(['user_canvas_id', 'create_time'])
    .execute();

  await withTimes(
    db.schema
      .createTable('canvas_run')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey()) // the run's message id
      .addColumn('canvas_id', 'varchar(32)', (c) => c.notNull())
      .addColumn('task_id', 'varchar(32)', (c) => c.notNull())
      .addColumn('session_id', 'varchar(64)')
      .addColumn('tenant_id', 'varchar(32)', (c) => c.notNull())
      .addColumn('status', 'varchar(16)', (c) => c.notNull())
      .addColumn('events', jsonType(d), (c) => c.notNull())
      .addColumn('trace', jsonType(d), (c) => c.notNull()),
  ).execute();
  await db.schema.createIndex('canvas_run_canvas_idx').on('canvas_run').column('canvas_id').execute();
  await db.schema.createIndex('canvas_run_task_idx').on('canvas_run').column('task_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['canvas_run', 'user_canvas_version', 'user_canvas']) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
