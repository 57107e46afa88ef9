/**
 * What a worker needs to run one kind of task (STYLE.md "typed task contracts"): each kind's handler
 * lives with its domain (parsing in ingest/, graph jobs in graph/, …) and is registered once by the
 * composition root. The worker host claims only the kinds it has handlers for.
 */
import type { TaskKind } from '@lectern/shared';
import type { TaskProgress } from './progress.js';

export interface TaskHandler {
  /** Runs one claimed task; reports through `progress`; stops when `signal` aborts (cancel, lease lost). */
  run(progress: TaskProgress, signal: AbortSignal): Promise<void>;
  /** Called after every progress write and at the end (e.g. to roll a document's state up). */
  afterWrite?(progress: TaskProgress): Promise<void>;
  /** A readable sentence for the task log when `run` throws. */
  describeFailure?(err: unknown): string | undefined;
  /** Started with the worker host (e.g. warming a parser pool). */
  start?(): Promise<void> | void;
  /** Periodic housekeeping while the host runs (every `tickMs`). */
  tick?(): Promise<void>;
}

export type TaskHandlers = Partial<Record<TaskKind, TaskHandler>>;
