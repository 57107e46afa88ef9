/**
 * `main.js prepare-python-snapshot [dir]`, run by the build: loads Pyodide once and writes its memory
 * snapshot next to the bundled sandbox workers (default), so the first Python call of a fresh
 * installation restores the interpreter (about a second) instead of loading it from scratch. Snapshots
 * of other Pyodide versions left in the folder are removed. Exit code 1 when no snapshot could be made;
 * the server still works without one.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Sandbox } from '../sandbox/index.js';
import { builtSandboxDir } from '../sandbox/lane.js';
import { currentSnapshotKey, readSnapshotFile, snapshotFileName } from '../sandbox/snapshot-file.js';

export async function runPythonSnapshotCommand(argv: string[]): Promise<number> {
  const args = argv.slice(argv.indexOf('prepare-python-snapshot') + 1).filter((a) => !a.startsWith('-'));
  const dir = args[0] ? path.resolve(args[0]) : builtSandboxDir();
  if (!dir) {
    console.error(
      'prepare-python-snapshot: give the folder (no bundled sandbox folder when run from source)',
    );
    return 1;
  }
  const started = performance.now();
  const box = new Sandbox({ cacheDir: dir, builtSnapshotDir: null, log: (m) => console.log(m) });
  try {
    await box.warm('python');
  } catch (err) {
    console.error(`prepare-python-snapshot: Pyodide did not load (${(err as Error).message})`);
    return 1;
  } finally {
    await box.close();
  }
  const key = currentSnapshotKey();
  const name = snapshotFileName(key);
  const file = path.join(dir, name);
  if (!readSnapshotFile(file, key).ok) {
    console.error(`prepare-python-snapshot: no valid snapshot was written to ${file}`);
    return 1;
  }
  // Part of the build, read by whichever user runs the server; it holds no secret (loaded with an
  // empty environment, before any script).
  fs.chmodSync(file, 0o644);
  for (const other of fs.readdirSync(dir))
    if (/^pyodide-.*\.snapshot$/.test(other) && other !== name)
      fs.rmSync(path.join(dir, other), { force: true });
  console.log(
    `Python sandbox snapshot ${file} ready in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  return 0;
}
