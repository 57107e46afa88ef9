/**
 * The upload queue of the file manager, as pure functions: each picked or dropped file becomes an
 * entry keeping its relative path (`webkitRelativePath` of a folder pick or drop, else the name), so
 * the server recreates the folders. Entries move queued → uploading → uploaded | failed; a failed one
 * can be retried (back to queued). A few upload at once.
 */

export type UploadState = 'queued' | 'uploading' | 'failed' | 'uploaded';

export interface UploadEntry {
  uid: string;
  /** Relative path sent as the part's file name (`photos/2024/a.jpg`). */
  path: string;
  size: number;
  /** The folder the entry goes into (undefined = the root). */
  parentId: string | undefined;
  state: UploadState;
  /** 0..1 while uploading; 1 once uploaded. */
  progress: number;
  error?: string;
}

export type UploadAction =
  | {
      type: 'add';
      entries: Array<Pick<UploadEntry, 'uid' | 'path' | 'size' | 'parentId'> & { error?: string }>;
    }
  | { type: 'start'; uid: string }
  | { type: 'progress'; uid: string; fraction: number }
  | { type: 'done'; uid: string }
  | { type: 'fail'; uid: string; error: string }
  | { type: 'retry'; uid: string }
  | { type: 'retryFailed' }
  | { type: 'clearFinished' };

/** How many files upload at the same time. */
export const UPLOAD_CONCURRENCY = 3;

const clamp = (n: number) => Math.min(1, Math.max(0, Number.isFinite(n) ? n : 0));

export function uploadReducer(entries: UploadEntry[], action: UploadAction): UploadEntry[] {
  const update = (uid: string, fn: (e: UploadEntry) => UploadEntry) =>
    entries.map((e) => (e.uid === uid ? fn(e) : e));
  switch (action.type) {
    case 'add':
      return [
        ...entries,
        ...action.entries.map((e): UploadEntry => ({
          ...e,
          state: e.error ? 'failed' : 'queued',
          progress: 0,
        })),
      ];
    case 'start':
      return update(action.uid, (e) =>
        e.state === 'queued' ? { ...e, state: 'uploading', progress: 0, error: undefined } : e,
      );
    case 'progress':
      // Never backwards, and never "done" before the server answered.
      return update(action.uid, (e) =>
        e.state === 'uploading'
          ? { ...e, progress: Math.max(e.progress, Math.min(0.99, clamp(action.fraction))) }
          : e,
      );
    case 'done':
      return update(action.uid, (e) => ({ ...e, state: 'uploaded', progress: 1, error: undefined }));
    case 'fail':
      return update(action.uid, (e) => ({ ...e, state: 'failed', error: action.error }));
    case 'retry':
      return update(action.uid, (e) =>
        e.state === 'failed' ? { ...e, state: 'queued', progress: 0, error: undefined } : e,
      );
    case 'retryFailed':
      return entries.map((e) =>
        e.state === 'failed' ? { ...e, state: 'queued', progress: 0, error: undefined } : e,
      );
    case 'clearFinished':
      return entries.filter((e) => e.state !== 'uploaded');
  }
}

/** The queued entries to start now, keeping at most `concurrency` uploading. */
export function entriesToStart(entries: UploadEntry[], concurrency = UPLOAD_CONCURRENCY): UploadEntry[] {
  const running = entries.filter((e) => e.state === 'uploading').length;
  return entries.filter((e) => e.state === 'queued').slice(0, Math.max(0, concurrency - running));
}

export interface UploadSummary {
  total: number;
  queued: number;
  uploading: number;
  failed: number;
  uploaded: number;
  /** Overall progress 0..1, each file weighted by its size (empty files count as one byte). */
  progress: number;
}

export function summarize(entries: UploadEntry[]): UploadSummary {
  const count = (s: UploadState) => entries.filter((e) => e.state === s).length;
  const weight = (e: UploadEntry) => Math.max(1, e.size);
  const total = entries.reduce((n, e) => n + weight(e), 0);
  const done = entries.reduce((n, e) => n + weight(e) * (e.state === 'uploaded' ? 1 : e.progress), 0);
  return {
    total: entries.length,
    queued: count('queued'),
    uploading: count('uploading'),
    failed: count('failed'),
    uploaded: count('uploaded'),
    progress: total === 0 ? 0 : done / total,
  };
}

/** The path a picked or dropped file is uploaded under: its path inside the dropped folder, else its name. */
export function relativePathOf(file: { name: string; webkitRelativePath?: string }): string {
  const rel = (file.webkitRelativePath ?? '').replace(/\\/g, '/').replace(/^\/+/, '');
  return rel !== '' ? rel : file.name;
}

/** Entries grouped by their top folder (files picked on their own form the group `null`), in order. */
export function groupByTopFolder(
  entries: UploadEntry[],
): Array<{ folder: string | null; entries: UploadEntry[] }> {
  const groups = new Map<string | null, UploadEntry[]>();
  for (const e of entries) {
    const slash = e.path.indexOf('/');
    const key = slash > 0 ? e.path.slice(0, slash) : null;
    const list = groups.get(key) ?? [];
    list.push(e);
    groups.set(key, list);
  }
  return [...groups.entries()].map(([folder, list]) => ({ folder, entries: list }));
}
