/**
 * The Python interpreter's memory snapshot on disk. Loading Pyodide from scratch takes seconds (CPython
 * start-up and Pyodide's own initialisation inside the WebAssembly module); restoring a snapshot of a
 * loaded interpreter takes about one. A snapshot is only valid for the exact Pyodide build and the
 * modules imported before it was taken, so each file starts with a header naming both, and a file
 * whose header differs (another Pyodide version, other warm imports, a truncated write) is ignored.
 *
 * File layout: `LECTERN-PYSNAP 1\n` · one JSON line `{"pyodide":…,"warm":…,"bytes":n}\n` · n bytes.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { PYTHON_WARM_IMPORTS } from './python-prelude.js';

const MAGIC = 'LECTERN-PYSNAP 1\n';
/** The header's JSON line is short; anything longer is not one of ours. */
const MAX_HEADER_BYTES = 1024;

/** What a snapshot was taken of: the Pyodide version and the modules imported before it. */
export interface SnapshotKey {
  pyodide: string;
  warm: string;
}

export function currentSnapshotKey(): SnapshotKey {
  const require = createRequire(import.meta.url);
  const pkg = JSON.parse(fs.readFileSync(require.resolve('pyodide/package.json'), 'utf8')) as {
    version: string;
  };
  const warm = crypto.createHash('sha256').update(PYTHON_WARM_IMPORTS).digest('hex').slice(0, 12);
  return { pyodide: pkg.version, warm };
}

/** One file name per key, so installations of different versions sharing a folder do not collide. */
export function snapshotFileName(key: SnapshotKey): string {
  return `pyodide-${key.pyodide}-${key.warm}.snapshot`;
}

export type SnapshotRead =
  | { ok: true; bytes: Uint8Array }
  | { ok: false; reason: 'missing' | 'unreadable' | 'not a snapshot' | 'other version' | 'truncated' };

export function encodeSnapshot(key: SnapshotKey, bytes: Uint8Array): Buffer {
  const header = `${MAGIC}${JSON.stringify({ pyodide: key.pyodide, warm: key.warm, bytes: bytes.byteLength })}\n`;
  return Buffer.concat([Buffer.from(header, 'utf8'), bytes]);
}

export function decodeSnapshot(file: Buffer, key: SnapshotKey): SnapshotRead {
  const magic = Buffer.from(MAGIC, 'utf8');
  if (file.length < magic.length || !file.subarray(0, magic.length).equals(magic))
    return { ok: false, reason: 'not a snapshot' };
  const end = file.indexOf(0x0a, magic.length);
  if (end < 0 || end - magic.length > MAX_HEADER_BYTES) return { ok: false, reason: 'not a snapshot' };
  let meta: { pyodide?: unknown; warm?: unknown; bytes?: unknown };
  try {
    meta = JSON.parse(file.subarray(magic.length, end).toString('utf8')) as typeof meta;
  } catch {
    return { ok: false, reason: 'not a snapshot' };
  }
  if (meta.pyodide !== key.pyodide || meta.warm !== key.warm) return { ok: false, reason: 'other version' };
  const body = file.subarray(end + 1);
  if (typeof meta.bytes !== 'number' || body.length !== meta.bytes) return { ok: false, reason: 'truncated' };
  // A copy that owns its buffer: it is handed to worker threads.
  return { ok: true, bytes: new Uint8Array(body) };
}

export function readSnapshotFile(file: string, key: SnapshotKey): SnapshotRead {
  let raw: Buffer;
  try {
    raw = fs.readFileSync(file);
  } catch (err) {
    return { ok: false, reason: (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : 'unreadable' };
  }
  return decodeSnapshot(raw, key);
}

/** Written to a temporary name and renamed, so a reader never sees half a file. */
export function writeSnapshotFile(file: string, key: SnapshotKey, bytes: Uint8Array): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
  try {
    fs.writeFileSync(tmp, encodeSnapshot(key, bytes), { mode: 0o600 });
    fs.renameSync(tmp, file);
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}
