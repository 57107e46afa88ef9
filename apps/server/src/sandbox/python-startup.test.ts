import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { closeSandbox, runCode, Sandbox, sandbox, startSharedSandbox } from './index.js';
import {
  currentSnapshotKey,
  readSnapshotFile,
  snapshotFileName,
  writeSnapshotFile,
} from './snapshot-file.js';

/**
 * How the Python interpreter starts (issue 15, first call < 4 s): the server's warm-up at start, which a
 * first call joins instead of loading Pyodide a second time; the snapshot the build ships, used by a
 * process whose cache is empty; and a snapshot that will not start, after which Pyodide loads from
 * scratch and the cache gets a good one. Loads are counted, never timed.
 */
describe('CodeExec sandbox: Python start-up', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-python-startup-'));
  const key = currentSnapshotKey();
  const fileIn = (dir: string) => path.join(dir, snapshotFileName(key));
  const ADD = 'def main(a, b):\n    return {"sum": a + b}';
  const boxes: Sandbox[] = [];
  afterEach(async () => {
    await Promise.all(boxes.splice(0).map((b) => b.close()));
    await closeSandbox();
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('a first call during the start-up warm-up joins it: one load, and the snapshot is cached', async () => {
    const cacheDir = path.join(root, 'warm-cache');
    const logs: string[] = [];
    startSharedSandbox({ cacheDir, builtSnapshotDir: null, warmPython: true, log: (m) => logs.push(m) });
    const result = await runCode({ lang: 'python', script: ADD, args: { a: 2, b: 3 } });
    expect(result.result).toEqual({ sum: 5 });
    expect(sandbox().loads().python).toBe(1);
    expect(logs.join('\n')).toMatch(/loading it from scratch/);
    expect(readSnapshotFile(fileIn(cacheDir), key).ok).toBe(true);
  }, 180_000);

  it('an empty cache starts from the build’s snapshot and leaves the cache empty', async () => {
    const builtDir = path.join(root, 'warm-cache'); // what the previous test cached stands for the build's
    const cacheDir = path.join(root, 'empty-cache');
    const logs: string[] = [];
    const box = new Sandbox({ cacheDir, builtSnapshotDir: builtDir, log: (m) => logs.push(m) });
    boxes.push(box);
    expect((await box.runCode({ lang: 'python', script: ADD, args: { a: 1, b: 1 } })).result).toEqual({
      sum: 2,
    });
    expect(logs).toEqual([`Python sandbox: starting from the interpreter snapshot ${fileIn(builtDir)}`]);
    expect(box.loads().python).toBe(1);
    expect(fs.existsSync(cacheDir)).toBe(false);
  }, 180_000);

  it('a snapshot with a valid header that does not start is dropped; Pyodide loads from scratch', async () => {
    const cacheDir = path.join(root, 'bad-cache');
    writeSnapshotFile(fileIn(cacheDir), key, new Uint8Array(4096).fill(42));
    const logs: string[] = [];
    const box = new Sandbox({ cacheDir, builtSnapshotDir: null, log: (m) => logs.push(m) });
    boxes.push(box);
    expect((await box.runCode({ lang: 'python', script: ADD, args: { a: 4, b: 5 } })).result).toEqual({
      sum: 9,
    });
    expect(logs.join('\n')).toMatch(/did not start; loading Pyodide from scratch/);
    expect(box.loads().python).toBe(2);
    const cached = readSnapshotFile(fileIn(cacheDir), key);
    expect(cached.ok && cached.bytes.byteLength > 4096).toBe(true);
  }, 180_000);
});
