import { DOC_NAME_LIMIT_BYTES, KB_NAME_LIMIT_BYTES } from '@lectern/shared';

/** Name rules of API.md §1.8 as the forms check them before asking the server. */

const encoder = new TextEncoder();

export function utf8Bytes(value: string): number {
  return encoder.encode(value).length;
}

export type NameProblem = 'required' | 'tooLong';

/** A knowledge-base name: required (not blank) and at most 128 UTF-8 bytes. */
export function kbNameProblem(name: string | undefined | null): NameProblem | null {
  if (!name || name.trim() === '') return 'required';
  if (utf8Bytes(name) > KB_NAME_LIMIT_BYTES) return 'tooLong';
  return null;
}

/** `report.pdf` → `{ stem: 'report', ext: '.pdf' }`; a name without extension keeps `ext` empty. */
export function splitExtension(name: string): { stem: string; ext: string } {
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return { stem: name, ext: '' };
  return { stem: name.slice(0, dot), ext: name.slice(dot) };
}

/** A new document name from an edited stem; the extension never changes (API.md §6 rename). */
export function renamedDocument(stem: string, ext: string): { name: string; problem: NameProblem | null } {
  const name = `${stem.trim()}${ext}`;
  if (stem.trim() === '') return { name, problem: 'required' };
  if (utf8Bytes(name) > DOC_NAME_LIMIT_BYTES) return { name, problem: 'tooLong' };
  return { name, problem: null };
}
