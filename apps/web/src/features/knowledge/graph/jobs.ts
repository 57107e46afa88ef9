import type { KbTaskData } from '@lectern/shared';

/**
 * A KB job's state from its `trace_*` row (API.md §5): none yet (`{}`), running (0 ≤ progress < 1),
 * done (1) or failed/cancelled (−1, the log says which). Running jobs are polled.
 */

export type JobState = 'none' | 'running' | 'done' | 'failed';

export interface JobView {
  state: JobState;
  /** 0..100 while running, 100 when done. */
  percent: number;
  /** The whole log (progress_msg). */
  log: string;
  taskId: string | null;
}

export function jobView(task: KbTaskData | undefined): JobView {
  if (!task || !('id' in task)) return { state: 'none', percent: 0, log: '', taskId: null };
  const p = task.progress;
  const state: JobState = p >= 1 ? 'done' : p < 0 ? 'failed' : 'running';
  const percent =
    state === 'done' ? 100 : state === 'running' ? Math.min(99, Math.floor(Math.max(0, p) * 100)) : 0;
  return { state, percent, log: task.progress_msg, taskId: task.id };
}

/** How often the trace is read: every 1.5 s while the job runs, not at all otherwise. */
export function tracePollMs(task: KbTaskData | undefined): number | false {
  return jobView(task).state === 'running' ? 1500 : false;
}
