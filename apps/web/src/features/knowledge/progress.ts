import { DocRun } from '@lectern/shared';

/** Presentation of a document's parsing state (SPEC §4, API.md §19.9). */

export type RunKey = 'unstart' | 'running' | 'cancel' | 'done' | 'fail' | 'schedule';

const RUN_KEYS: Record<string, RunKey> = {
  [DocRun.UNSTART]: 'unstart',
  [DocRun.RUNNING]: 'running',
  [DocRun.CANCEL]: 'cancel',
  [DocRun.DONE]: 'done',
  [DocRun.FAIL]: 'fail',
  [DocRun.SCHEDULE]: 'schedule',
};

export function runKey(run: string): RunKey {
  return RUN_KEYS[run] ?? 'unstart';
}

/** `progress` (0..1, −1 on failure) as a whole percentage 0..100. */
export function progressPercent(progress: number): number {
  if (!Number.isFinite(progress) || progress <= 0) return 0;
  return Math.min(100, Math.floor(progress * 100));
}

export interface LogLine {
  /** `HH:MM:SS` when the line starts with one. */
  time: string | null;
  text: string;
  error: boolean;
}

/** The timestamped progress log, one entry per non-empty line. */
export function progressLog(message: string | null | undefined): LogLine[] {
  if (!message) return [];
  return message
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.length > 0)
    .map((line) => {
      const m = /^(\d{1,2}:\d{2}:\d{2})\s+(.*)$/.exec(line);
      const text = m ? m[2] : line;
      return { time: m ? m[1] : null, text, error: /\[ERROR\]/i.test(text) };
    });
}

/** The last line of the log: what the document is doing now. */
export function lastLogLine(message: string | null | undefined): string {
  const lines = progressLog(message);
  return lines.length > 0 ? lines[lines.length - 1].text : '';
}

/** Seconds as `0.4 s`, `12.3 s`, `2 min 5 s`, `1 h 2 min`. */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '0 s';
  if (seconds < 60) return `${seconds < 10 ? seconds.toFixed(1) : Math.round(seconds)} s`;
  const total = Math.round(seconds);
  const h = Math.floor(total / 3600);
  const min = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return h > 0 ? `${h} h ${min} min` : `${min} min ${s} s`;
}
