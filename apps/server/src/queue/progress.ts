/**
 * Progress reporting of one claimed task (API.md §19.9): each report appends a timestamped line to
 * the task's log, raises its progress (never lowers it), checks the cancel flag and the lease, and
 * calls the kind's `afterWrite` hook (parsing rolls its document up there) at most once a second.
 * A cancelled task stops at its next report; a task whose lease was taken over stops without
 * writing anything more.
 */
import {
  parseTaskPayload,
  progressMessage,
  PROGRESS_CANCELED_MARK,
  PROGRESS_ERROR_MARK,
  type TaskKind,
  type TaskPayload,
} from '@lectern/shared';
import type { Db } from '../db/connection.js';
import { parseJson } from '../db/json.js';
import type { TaskTable } from '../db/types.js';
import { updateStamps } from '../util/time.js';
import { appendLog, logLine } from './log.js';

export class TaskCancelled extends Error {
  constructor() {
    super('The task was cancelled.');
    this.name = 'TaskCancelled';
  }
}

/** The task is no longer ours: deleted (document removed or re-parsed) or re-claimed elsewhere. */
export class TaskLost extends Error {
  constructor() {
    super('The task is no longer held by this worker.');
    this.name = 'TaskLost';
  }
}

/**
 * A lazy report writes at most this often. Parsing many small documents wrote the task row ~5 times
 * per task (each rewriting its whole log) plus a document roll-up: a fifth of the event loop's
 * SQLite time while ingesting. Lines held back are carried by the next write or the final one.
 */
export const LAZY_WRITE_MS = 500;

export class TaskProgress {
  private log: string;
  private progress: number;
  private readonly started = Date.now();
  private lastRollup = 0;
  /** When the row was last written (lazy reports write at most once per LAZY_WRITE_MS). */
  private lastWrite = 0;

  constructor(
    private readonly db: Db,
    readonly task: TaskTable,
    readonly owner: string,
    private readonly afterWrite: (progress: TaskProgress) => Promise<void> = async () => undefined,
  ) {
    this.log = task.progress_msg;
    this.progress = Math.max(0, task.progress);
  }

  /** The row's payload, checked against its kind's schema. */
  payload<K extends TaskKind>(kind: K): TaskPayload<K> {
    if (this.task.kind !== kind)
      throw new Error(`Task ${this.task.id} is a ${this.task.kind} task, not ${kind}.`);
    return parseTaskPayload(kind, parseJson<unknown>(this.task.payload, {}));
  }

  /** Seconds since this attempt started. */
  elapsed(): number {
    return (Date.now() - this.started) / 1000;
  }

  line(msg: string): string {
    return logLine(this.task, msg);
  }

  /** Appends `msg` (when given) and raises progress to `value` (when given); throws when cancelled or lost. */
  async report(value: number | null, msg?: string): Promise<void> {
    if (msg) this.log = appendLog(this.log, this.line(msg));
    if (value !== null) this.progress = Math.max(this.progress, Math.min(value, 0.99));
    const res = await this.db.kysely
      .updateTable('task')
      .set({ progress: this.progress, progress_msg: this.log, ...updateStamps() })
      .where('id', '=', this.task.id)
      .where('lease_owner', '=', this.owner)
      .where('cancel', '=', 0)
      .executeTakeFirst();
    this.lastWrite = Date.now();
    if (Number(res.numUpdatedRows) === 0) await this.whyStopped();
    const now = Date.now();
    if (now - this.lastRollup > 1000) {
      this.lastRollup = now;
      await this.afterWrite(this);
    }
  }

  /**
   * Like report, but only writes when the last write is at least LAZY_WRITE_MS old; otherwise the
   * line and progress wait in memory for the next write (every final write carries the whole log).
   * It skips the cancel check when it does not write: the lease heartbeat still notices a cancel
   * (worker-host aborts the task's signal). The document roll-up waits for the task's first second,
   * so a short task rolls its document up once, when it finishes.
   */
  async reportLazily(value: number | null, msg?: string): Promise<void> {
    if (Date.now() - this.lastWrite >= LAZY_WRITE_MS) {
      if (this.lastRollup === 0) this.lastRollup = this.started;
      await this.report(value, msg);
      return;
    }
    if (msg) this.log = appendLog(this.log, this.line(msg));
    if (value !== null) this.progress = Math.max(this.progress, Math.min(value, 0.99));
  }

  /** Throws TaskCancelled or TaskLost for a task the last write could not touch. */
  async whyStopped(): Promise<never> {
    const row = await this.db.kysely
      .selectFrom('task')
      .select(['cancel', 'lease_owner'])
      .where('id', '=', this.task.id)
      .executeTakeFirst();
    if (row && row.cancel && row.lease_owner === this.owner) throw new TaskCancelled();
    throw new TaskLost();
  }

  /** Throws when the task was cancelled meanwhile (a check without writing). */
  async checkCancel(): Promise<void> {
    const row = await this.db.kysely
      .selectFrom('task')
      .select(['cancel', 'lease_owner'])
      .where('id', '=', this.task.id)
      .executeTakeFirst();
    if (!row || row.lease_owner !== this.owner) throw new TaskLost();
    if (row.cancel) throw new TaskCancelled();
  }

  /** Ends the task as failed (progress −1) with an `[ERROR]` line, unless it is no longer ours. */
  async fail(message: string): Promise<void> {
    await this.end(-1, `${PROGRESS_ERROR_MARK}${message}`);
  }

  /** Ends a cancelled task: `… [Canceled]`, progress −1. */
  async cancelled(): Promise<void> {
    await this.end(-1, `${this.lastStep()}${PROGRESS_CANCELED_MARK}`);
  }

  private lastStep(): string {
    const last = this.log.split('\n').pop() ?? '';
    const m = /^\d\d:\d\d:\d\d (?:Page\(\d+~\d+\): )?(.*)$/.exec(last);
    return m?.[1] || progressMessage('task');
  }

  private async end(progress: number, msg: string): Promise<void> {
    this.log = appendLog(this.log, this.line(msg));
    await this.db.kysely
      .updateTable('task')
      .set({
        progress,
        progress_msg: this.log,
        process_duration: this.elapsed(),
        ...updateStamps(),
      })
      .where('id', '=', this.task.id)
      .where('lease_owner', '=', this.owner)
      .execute();
    await this.afterWrite(this);
  }

  /** The current log with `lines` appended (for the final write, done in the caller's transaction). */
  logWith(...lines: string[]): string {
    let log = this.log;
    for (const l of lines) log = appendLog(log, this.line(l));
    this.log = log;
    return log;
  }
}
