/**
 * Names in the file manager: one path segment per entry (no separators, no `.`/`..`, no control
 * characters, at most 255 UTF-8 bytes), and upload names that may carry a relative path (`a/b/c.txt`)
 * but never an absolute one or a way out of the target folder. Bad names are refused whole (101)
 * before anything is stored.
 */
import { errors } from '../../http/envelope.js';
import { FILE_NAME_LIMIT_BYTES, utf8Bytes } from '../kb/naming.js';

// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const CONTROL = /[\u0000-\u001f\u007f]/;

/** One entry name, trimmed; throws 101 with the reason when it is not usable. */
export function checkedName(raw: unknown, what = 'File name'): string {
  if (typeof raw !== 'string') throw errors.argument(`\`name\` must be a string.`);
  const name = raw.trim();
  if (name === '') throw errors.argument(`${what} can't be empty.`);
  if (CONTROL.test(name)) throw errors.argument(`${what} must not contain control characters.`);
  if (/[\\/]/.test(name)) throw errors.argument(`${what} must not contain "/" or "\\".`);
  if (name === '.' || name === '..') throw errors.argument(`${what} can't be "." or "..".`);
  if (utf8Bytes(name) > FILE_NAME_LIMIT_BYTES)
    throw errors.argument(`${what} must be ${FILE_NAME_LIMIT_BYTES} bytes or less.`);
  return name;
}

/**
 * The folders and the file name of an uploaded file's name (`a/b/c.txt` → [a, b], c.txt).
 * Absolute paths (`/x`, `\x`, `C:\x`), `.`/`..` segments, NUL and other control characters, and
 * segments over 255 bytes are refused with the offending name.
 */
export function uploadPathOf(raw: string): { folders: string[]; name: string } {
  if (raw === '') throw errors.argument('No file selected!');
  const shown = JSON.stringify(raw.slice(0, 80));
  if (CONTROL.test(raw)) throw errors.argument(`${shown}: a file name must not contain control characters.`);
  if (/^[\\/]/.test(raw) || /^[a-zA-Z]:/.test(raw))
    throw errors.argument(`${shown}: a file name must be a relative path.`);
  const segments = raw.split(/[\\/]/).map((s) => s.trim());
  for (const s of segments) {
    if (s === '' || s === '.' || s === '..')
      throw errors.argument(`${shown}: a file path must not contain empty, "." or ".." segments.`);
    if (utf8Bytes(s) > FILE_NAME_LIMIT_BYTES)
      throw errors.argument(`${shown}: a file name must be ${FILE_NAME_LIMIT_BYTES} bytes or less.`);
  }
  return { folders: segments.slice(0, -1), name: segments[segments.length - 1]! };
}
