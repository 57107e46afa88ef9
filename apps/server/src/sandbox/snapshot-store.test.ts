import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  currentSnapshotKey,
  decodeSnapshot,
  encodeSnapshot,
  readSnapshotFile,
  snapshotFileName,
  writeSnapshotFile,
} from './snapshot-file.js';
import { PythonSnapshotStore } from './snapshot-store.js';

/**
 * Validity rules of the Python interpreter snapshot on disk: a file is used only when its header names
 * this Pyodide build and these warm imports and its body is whole; the cache folder is preferred over
 * the build's snapshot; a snapshot that failed to start is skipped (and removed when it is the cache's).
 */
const require = createRequire(import.meta.url);
const KEY = { pyodide: '314.0.7', warm: 'abcdef012345' };
const BODY = new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]);

describe('Python snapshot file', () => {
  it('round-trips the bytes under the same key', () => {
    const read = decodeSnapshot(encodeSnapshot(KEY, BODY), KEY);
    expect(read).toEqual({ ok: true, bytes: BODY });
  });

  it('refuses another Pyodide version or other warm imports', () => {
    const file = encodeSnapshot(KEY, BODY);
    expect(decodeSnapshot(file, { ...KEY, pyodide: '0.28.3' })).toEqual({
      ok: false,
      reason: 'other version',
    });
    expect(decodeSnapshot(file, { ...KEY, warm: '000000000000' })).toEqual({
      ok: false,
      reason: 'other version',
    });
  });

  it('refuses a truncated body, a foreign file and a header without its JSON', () => {
    const file = encodeSnapshot(KEY, BODY);
    expect(decodeSnapshot(file.subarray(0, file.length - 1), KEY)).toEqual({
      ok: false,
      reason: 'truncated',
    });
    expect(decodeSnapshot(Buffer.from(BODY), KEY)).toEqual({ ok: false, reason: 'not a snapshot' });
    expect(decodeSnapshot(Buffer.from('LECTERN-PYSNAP 1\n{oops\n'), KEY)).toEqual({
      ok: false,
      reason: 'not a snapshot',
    });
    // A raw Pyodide snapshot (the format before the header existed) is not ours either.
    expect(decodeSnapshot(Buffer.alloc(64, 7), KEY)).toEqual({ ok: false, reason: 'not a snapshot' });
  });

  it('names the installed Pyodide version in the key and the file name', () => {
    const pkg = JSON.parse(fs.readFileSync(require.resolve('pyodide/package.json'), 'utf8')) as {
      version: string;
    };
    const key = currentSnapshotKey();
    expect(key.pyodide).toBe(pkg.version);
    expect(key.warm).toMatch(/^[0-9a-f]{12}$/);
    expect(snapshotFileName(key)).toBe(`pyodide-${pkg.version}-${key.warm}.snapshot`);
  });
});

describe('Python snapshot store', () => {
  let root: string;
  let cacheDir: string;
  let builtDir: string;
  let logs: string[];
  const name = snapshotFileName(KEY);
  const storeOf = (sources: { cache?: boolean; built?: boolean } = { cache: true, built: true }) =>
    new PythonSnapshotStore({
      cacheDir: sources.cache ? cacheDir : undefined,
      builtDir: sources.built ? builtDir : undefined,
      key: KEY,
      log: (m) => logs.push(m),
    });

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-snapshot-store-'));
    cacheDir = path.join(root, 'cache');
    builtDir = path.join(root, 'built');
    logs = [];
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('has nothing to offer without files, says so, and caches what it is given', () => {
    const store = storeOf();
    expect(store.load()).toBeUndefined();
    expect(logs.join('\n')).toMatch(/no interpreter snapshot for Pyodide 314\.0\.7; loading it from scratch/);
    store.save(BODY);
    expect(readSnapshotFile(path.join(cacheDir, name), KEY)).toEqual({ ok: true, bytes: BODY });
    expect(fs.readdirSync(cacheDir)).toEqual([name]); // no temporary file left behind
    expect(storeOf().load()).toEqual(BODY);
  });

  it('prefers the cache, falls back to the build’s snapshot, and ignores mismatched files with a log line', () => {
    writeSnapshotFile(path.join(builtDir, name), KEY, BODY);
    expect(storeOf().load()).toEqual(BODY);
    expect(logs.at(-1)).toContain(path.join(builtDir, name));

    const cached = new Uint8Array([9, 9]);
    writeSnapshotFile(path.join(cacheDir, name), KEY, cached);
    expect(storeOf().load()).toEqual(cached);

    // The cache file of another Pyodide build (same name, other header) is skipped, not used.
    writeSnapshotFile(path.join(cacheDir, name), { ...KEY, pyodide: '0.27.0' }, cached);
    logs = [];
    expect(storeOf().load()).toEqual(BODY);
    expect(logs[0]).toMatch(/ignoring the snapshot .*cache.* \(other version\)/);
  });

  it('after a failed start removes the cache’s snapshot and skips the build’s, without deleting it', () => {
    writeSnapshotFile(path.join(cacheDir, name), KEY, BODY);
    writeSnapshotFile(path.join(builtDir, name), KEY, BODY);
    const store = storeOf();
    expect(store.load()).toEqual(BODY);
    store.reject();
    expect(fs.existsSync(path.join(cacheDir, name))).toBe(false);
    expect(store.load()).toEqual(BODY); // now from the build
    store.reject();
    expect(store.load()).toBeUndefined();
    expect(fs.existsSync(path.join(builtDir, name))).toBe(true);
    // A fresh snapshot saved after the failure is offered again.
    store.save(BODY);
    expect(store.load()).toEqual(BODY);
  });

  it('without a cache folder never writes anything', () => {
    const store = storeOf({ built: true });
    store.save(BODY);
    expect(fs.existsSync(cacheDir)).toBe(false);
  });
});
