import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { jsonType, dialectOf } from '../schema-helpers.js';

/**
 * Typed tasks: `task_type` becomes `kind` (`parse`, `graphrag`, `raptor`, `mindmap`, `agent_run`, …;
 * parse rows were stored as "") and each row gets a `payload` validated by its kind's schema.
 * API.md's `task_type` is presented from `kind` ("" for parse).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const d = dialectOf(db);
  await db.schema.alterTable('task').renameColumn('task_type', 'kind').execute();
  await sql`update task set kind = 'parse' where kind = ''`.execute(db);
  await db.schema
    .alterTable('task')
    .addColumn('payload', jsonType(d), (c) => c.notNull().defaultTo(sql`'{}'`))
    .execute();
  await db.schema.createIndex('task_kind_claim_idx').on('task').columns(['kind', 'progress']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('task_kind_claim_idx').ifExists().execute();
  await db.schema.alterTable('task').dropColumn('payload').execute();
  await sql`update task set kind = '' where kind = 'parse'`.execute(db);
  await db.schema.alterTable('task').renameColumn('kind', 'task_type').execute();
}
