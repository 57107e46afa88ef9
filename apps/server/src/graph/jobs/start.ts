/**
 * Queueing a KB job (`run_graphrag`, `run_raptor`, `run_mindmap`, API.md §5) and reading its row back
 * (`trace_*`). A KB holds at most one running job of each kind: the new task id replaces the KB's
 * `<kind>_task_id` only if that column still holds what was read (compare-and-set in the transaction
 * that inserts the row), so two simultaneous starts queue one task and the other is told it runs.
 */
import { taskTypeOf } from '@lectern/shared';
import type { AppContext } from '../../context.js';
import type { KnowledgebaseTable } from '../../db/tables/knowledge.js';
import type { TaskTable } from '../../db/types.js';
import { errors } from '../../errors.js';
import { newTaskRow } from '../../queue/enqueue.js';
import { sqlDateTime } from '../../util/time.js';
import type { KbJobKind } from './kb-task.js';

const ID_COLUMN = {
  graphrag: 'graphrag_task_id',
  raptor: 'raptor_task_id',
  mindmap: 'mindmap_task_id',
} as const;

const LABEL: Record<KbJobKind, string> = { graphrag: 'Graph', raptor: 'RAPTOR', mindmap: 'Mindmap' };

function running(task: Pick<TaskTable, 'progress' | 'cancel'> | undefined): boolean {
  return !!task && task.progress >= 0 && task.progress < 1 && !task.cancel;
}

function inProgress(kind: KbJobKind, task: Pick<TaskTable, 'id' | 'progress'>) {
  return errors.data(
    `Task ${task.id} in progress with status ${task.progress}. A ${LABEL[kind]} Task is already running.`,
  );
}

export async function startKbJob(ctx: AppContext, kb: KnowledgebaseTable, kind: KbJobKind): Promise<string> {
  const column = ID_COLUMN[kind];
  const id = await ctx.db.kysely.transaction().execute(async (trx) => {
    const current = await trx
      .selectFrom('knowledgebase')
      .select(column)
      .where('id', '=', kb.id)
      .executeTakeFirstOrThrow();
    const previousId = (current as Record<string, string | null>)[column];
    if (previousId) {
      const task = await trx
        .selectFrom('task')
        .select(['id', 'progress', 'cancel'])
        .where('id', '=', previousId)
        .executeTakeFirst();
      if (task && running(task)) throw inProgress(kind, task);
    }
    const docs = await trx
      .selectFrom('document')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('kb_id', '=', kb.id)
      .where('status', '=', '1')
      .executeTakeFirstOrThrow();
    if (Number(docs.n) === 0) throw errors.data(`No documents in Knowledgebase ${kb.id}`);
    const row = newTaskRow(kind, { kb_id: kb.id }, { doc_id: '', kb_id: kb.id, tenant_id: kb.tenant_id });
    await trx.insertInto('task').values(row).execute();
    let swap = trx
      .updateTable('knowledgebase')
      .set({ [column]: row.id })
      .where('id', '=', kb.id);
    swap = previousId ? swap.where(column, '=', previousId) : swap.where(column, 'is', null);
    const res = await swap.executeTakeFirst();
    if (Number(res.numUpdatedRows) === 0) {
      // Another start won between our read and our write (PostgreSQL read committed).
      throw errors.data(`A ${LABEL[kind]} Task was started meanwhile; trace it instead.`);
    }
    return row.id;
  });
  ctx.queue.notifyQueued();
  return id;
}

export async function kbJobTask(ctx: AppContext, kb: KnowledgebaseTable, kind: KbJobKind) {
  const taskId = kb[ID_COLUMN[kind]];
  if (!taskId) return {};
  const t = await ctx.db.kysely.selectFrom('task').selectAll().where('id', '=', taskId).executeTakeFirst();
  if (!t) return {};
  return {
    id: t.id,
    doc_id: t.doc_id,
    kb_id: t.kb_id,
    task_type: taskTypeOf(kind),
    progress: Number(t.progress),
    progress_msg: t.progress_msg,
    begin_at: sqlDateTime(t.begin_at),
    process_duration: Number(t.process_duration),
    retry_count: Number(t.retry_count),
    token_num: Number(t.token_num),
    create_time: Number(t.create_time),
    create_date: t.create_date,
    update_time: Number(t.update_time),
    update_date: t.update_date,
  };
}
