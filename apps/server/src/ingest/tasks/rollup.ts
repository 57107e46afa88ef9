/**
 * Document roll-up (API.md §19.9): a running document's `progress` is the mean of its tasks' progress
 * (failed ones count 0), `progress_msg` their logs joined (or "<n> tasks are ahead in the queue..."
 * while none has started), `process_duration` the seconds since `process_begin_at`. When every task
 * has finished the document becomes run "3" (progress 1) or, with any failure, run "4" (progress −1).
 * Only documents with run "1" are touched, so a cancelled document (run "2") is never rolled up.
 */
import type { Kysely } from 'kysely';
import { matchProgressMessage, progressMessage } from '@lectern/shared';
import type { AppContext } from '../../context.js';
import type { Database, TaskTable } from '../../db/types.js';
import { updateStamps } from '../../util/time.js';

type TaskView = Pick<
  TaskTable,
  'doc_id' | 'progress' | 'progress_msg' | 'begin_at' | 'from_page' | 'create_time' | 'priority'
>;

interface DocView {
  id: string;
  progress: number;
  progress_msg: string;
  process_begin_at: number | null;
}

function summarize(tasks: TaskView[], ahead: () => number) {
  const sorted = [...tasks].sort((a, b) => a.from_page - b.from_page);
  const finished = sorted.every((t) => t.progress >= 1 || t.progress < 0);
  const failed = sorted.some((t) => t.progress < 0);
  const mean = sorted.reduce((s, t) => s + Math.max(0, t.progress), 0) / sorted.length;
  const started = sorted.some((t) => t.begin_at !== null || t.progress_msg !== '');
  const msg = started
    ? sorted
        .map((t) => t.progress_msg)
        .filter((m) => m.length > 0)
        .join('\n')
    : progressMessage('tasksAhead', { count: ahead() });
  if (finished) return { run: failed ? '4' : '3', progress: failed ? -1 : 1, msg, finished, started };
  return { run: '1', progress: mean, msg, finished, started };
}

/**
 * Queue positions of documents still waiting are rewritten by the periodic pass at most this often:
 * every finished task moves all of them, and rewriting thousands of rows on every pass starved the
 * event loop (SciFact ingest fell from 85 to 29 docs/s). Any other change is written at once.
 */
export const QUEUE_MESSAGE_REFRESH_MS = 10_000;
/** Roll-up writes per transaction: one commit for many rows, short enough not to hold requests up. */
const WRITE_BATCH = 50;
/**
 * better-sqlite3 answers synchronously, so awaiting query after query never lets a request in: the
 * pass over 400 waiting documents was one ~0.3 s slice. A turn of the event loop between batches.
 */
const loopTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
const lastQueueRefresh = new WeakMap<AppContext, number>();
const isQueueMessage = (msg: string) => matchProgressMessage(msg)?.key === 'tasksAhead';

async function write(db: Kysely<Database>, doc: DocView, s: ReturnType<typeof summarize>): Promise<void> {
  const now = Date.now();
  const duration = doc.process_begin_at ? (now - doc.process_begin_at) / 1000 : 0;
  await db
    .updateTable('document')
    .set({
      run: s.run,
      progress: s.progress,
      progress_msg: s.msg,
      process_duration: duration,
      ...updateStamps(now),
    })
    .where('id', '=', doc.id)
    .where('run', '=', '1')
    .execute();
}

const TASK_COLUMNS = [
  'doc_id',
  'progress',
  'progress_msg',
  'begin_at',
  'from_page',
  'create_time',
  'priority',
] as const;

/** Number of unfinished parse tasks queued before `first` (priority first, then age). */
async function tasksAhead(ctx: AppContext, first: TaskView): Promise<number> {
  const row = await ctx.db.kysely
    .selectFrom('task')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('kind', '=', 'parse')
    .where('cancel', '=', 0)
    .where('progress', '>=', 0)
    .where('progress', '<', 1)
    .where((eb) =>
      eb.or([
        eb('priority', '>', first.priority),
        eb.and([eb('priority', '=', first.priority), eb('create_time', '<', first.create_time)]),
      ]),
    )
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Rolls one document up from its tasks (no-op unless it is running). */
export async function rollupDocument(ctx: AppContext, docId: string): Promise<void> {
  const doc = await ctx.db.kysely
    .selectFrom('document')
    .select(['id', 'run', 'progress', 'progress_msg', 'process_begin_at'])
    .where('id', '=', docId)
    .executeTakeFirst();
  if (!doc || doc.run !== '1') return;
  const tasks = await ctx.db.kysely
    .selectFrom('task')
    .select([...TASK_COLUMNS])
    .where('doc_id', '=', docId)
    .where('kind', '=', 'parse')
    .execute();
  if (tasks.length === 0) return;
  const first = tasks.reduce((a, b) => (a.create_time <= b.create_time ? a : b));
  const n = tasks.every((t) => t.begin_at === null && t.progress_msg === '')
    ? await tasksAhead(ctx, first)
    : 0;
  await write(
    ctx.db.kysely,
    doc,
    summarize(tasks, () => n),
  );
}

/**
 * Rolls up every running document at once (the periodic pass): one read of their tasks, queue
 * positions computed in memory, and a write only where something changed.
 */
export async function rollupRunning(ctx: AppContext): Promise<void> {
  const docs = await ctx.db.kysely
    .selectFrom('document')
    .select(['id', 'progress', 'progress_msg', 'process_begin_at'])
    .where('run', '=', '1')
    .execute();
  if (docs.length === 0) return;
  const pending = await ctx.db.kysely
    .selectFrom('task')
    .select([...TASK_COLUMNS])
    .where('kind', '=', 'parse')
    .where('cancel', '=', 0)
    .where('progress', '>=', 0)
    .where('progress', '<', 1)
    .orderBy('priority', 'desc')
    .orderBy('create_time', 'asc')
    .execute();
  const position = new Map<string, number>();
  pending.forEach((t, i) => {
    if (!position.has(t.doc_id)) position.set(t.doc_id, i);
  });
  const now = Date.now();
  const refreshQueue = now - (lastQueueRefresh.get(ctx) ?? 0) >= QUEUE_MESSAGE_REFRESH_MS;
  if (refreshQueue) lastQueueRefresh.set(ctx, now);
  const writes: Array<{ doc: DocView; s: ReturnType<typeof summarize> }> = [];
  for (let i = 0; i < docs.length; i += 500) {
    if (i > 0) await loopTurn();
    const batch = docs.slice(i, i + 500);
    const tasks = await ctx.db.kysely
      .selectFrom('task')
      .select([...TASK_COLUMNS])
      .where(
        'doc_id',
        'in',
        batch.map((d) => d.id),
      )
      .where('kind', '=', 'parse')
      .execute();
    const byDoc = new Map<string, TaskView[]>();
    for (const t of tasks) byDoc.set(t.doc_id, [...(byDoc.get(t.doc_id) ?? []), t]);
    for (const doc of batch) {
      const own = byDoc.get(doc.id);
      if (!own || own.length === 0) continue;
      const s = summarize(own, () => position.get(doc.id) ?? 0);
      const progressed = s.finished || Math.abs(s.progress - doc.progress) > 1e-9;
      // Still waiting, and only its place in the queue moved: refreshed every few seconds only.
      const queueMoved = !s.started && isQueueMessage(doc.progress_msg) && isQueueMessage(s.msg);
      const moved = progressed || (s.msg !== doc.progress_msg && (!queueMoved || refreshQueue));
      if (moved || s.started) writes.push({ doc, s });
    }
  }
  for (let i = 0; i < writes.length; i += WRITE_BATCH) {
    await loopTurn();
    const batch = writes.slice(i, i + WRITE_BATCH);
    await ctx.db.kysely.transaction().execute(async (trx) => {
      for (const w of batch) await write(trx, w.doc, w.s);
    });
  }
}
