import { UPLOAD_EXTENSIONS, UPLOAD_LIMITS } from '@lectern/shared';

/** Client-side checks of an upload batch against SPEC §9 before anything is sent. */

export type FileProblem = 'tooLarge' | 'badExtension';

export interface FileLike {
  name: string;
  size: number;
}

export interface BatchCheck<F extends FileLike> {
  /** Files that may be sent. */
  accepted: F[];
  rejected: Array<{ file: F; problem: FileProblem }>;
  /** More files than one batch may carry: nothing may be sent. */
  tooMany: boolean;
}

const ALLOWED = new Set(UPLOAD_EXTENSIONS);

export function extensionOf(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}

export function fileProblem(
  file: FileLike,
  maxBytes: number = UPLOAD_LIMITS.maxFileBytes,
): FileProblem | null {
  if (!ALLOWED.has(extensionOf(file.name))) return 'badExtension';
  if (file.size > maxBytes) return 'tooLarge';
  return null;
}

export function checkBatch<F extends FileLike>(
  files: readonly F[],
  limits: { maxFileBytes: number; maxFilesPerBatch: number } = UPLOAD_LIMITS,
): BatchCheck<F> {
  const accepted: F[] = [];
  const rejected: BatchCheck<F>['rejected'] = [];
  for (const file of files) {
    const problem = fileProblem(file, limits.maxFileBytes);
    if (problem) rejected.push({ file, problem });
    else accepted.push(file);
  }
  return { accepted, rejected, tooMany: accepted.length > limits.maxFilesPerBatch };
}

/** `accept` attribute of the file input: every allowed extension. */
export const ACCEPT_ATTRIBUTE = UPLOAD_EXTENSIONS.map((e) => `.${e}`).join(',');

/**
 * Which files of a batch the server refused, from its answer: code 500 lists one `"<filename>: <reason>"`
 * line per refused file; code 102 (bad format) and any other failure refuse the whole batch.
 */
export function refusedByServer(
  names: readonly string[],
  code: number,
  message: string,
): Map<string, string> {
  const refused = new Map<string, string>();
  if (code === 0) return refused;
  if (code === 500) {
    for (const line of message.split('\n')) {
      const name = names.find((n) => line.startsWith(`${n}: `));
      if (name) refused.set(name, line.slice(name.length + 2));
    }
    if (refused.size > 0) return refused;
  }
  for (const n of names) refused.set(n, message);
  return refused;
}
