/** Progress-log lines of API.md §19.9: `HH:MM:SS Page(a~b): <msg>` (page part only for page ranges). */
import { progressPagePrefix } from '@lectern/shared';
import type { TaskTable } from '../db/types.js';

/** Tasks that are not page ranges span this sentinel end (API.md §18 `task.to_page`). */
export const WHOLE_DOCUMENT_END = 100_000_000;
/** The task log keeps its last lines only. */
export const MAX_LOG_LINES = 3000;

function two(n: number): string {
  return String(n).padStart(2, '0');
}

export function clock(ms = Date.now()): string {
  const d = new Date(ms);
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
}

/** Page (or row) range of a split task; whole-document tasks have none. */
export function pagePrefix(task: Pick<TaskTable, 'from_page' | 'to_page'>): string {
  if (task.to_page >= WHOLE_DOCUMENT_END) return '';
  return progressPagePrefix(task.from_page + 1, task.to_page);
}

export function logLine(task: Pick<TaskTable, 'from_page' | 'to_page'>, msg: string, ms?: number): string {
  return `${clock(ms)} ${pagePrefix(task)}${msg}`;
}

/** Appends a line, keeping the last MAX_LOG_LINES lines. */
export function appendLog(log: string, line: string): string {
  const lines = log ? log.split('\n') : [];
  lines.push(line);
  return lines.slice(-MAX_LOG_LINES).join('\n');
}
