/**
 * Where the Python lane finds and keeps its interpreter snapshot: first the writable cache folder
 * (`<data dir>/cache/sandbox`, written by the first process that loaded Pyodide from scratch), then the
 * snapshot the build made next to the server bundle (`npm run build` / first `npm start`), so the very
 * first call of a fresh installation already starts from a snapshot. Any file that does not match this
 * Pyodide build is skipped with a log line; with none, Pyodide loads from scratch and the result is
 * cached for the next process.
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  currentSnapshotKey,
  readSnapshotFile,
  snapshotFileName,
  writeSnapshotFile,
  type SnapshotKey,
} from './snapshot-file.js';

/** What a worker lane needs from a snapshot store (lane.ts). */
export interface SnapshotStore {
  /** The snapshot to start the engine from, if a valid one exists. */
  load(): Uint8Array | undefined;
  /** Keeps the snapshot a freshly loaded engine made. */
  save(bytes: Uint8Array): void;
  /** The snapshot `load` gave did not start: it is not offered again (and leaves the cache). */
  reject(): void;
}

export interface SnapshotSources {
  /** Writable cache folder; written after a load from scratch. */
  cacheDir?: string;
  /** Read-only folder the build wrote its snapshot into (next to the server bundle). */
  builtDir?: string;
  log?: (message: string) => void;
  /** default: the installed Pyodide and the current warm imports */
  key?: SnapshotKey;
}

export class PythonSnapshotStore implements SnapshotStore {
  private readonly key: SnapshotKey;
  private readonly log: (message: string) => void;
  private readonly candidates: string[];
  private readonly cacheFile: string | undefined;
  /** The file the last `load` used, and files that failed to start: skipped from then on. */
  private loadedFrom: string | undefined;
  private readonly rejected = new Set<string>();

  constructor(private readonly sources: SnapshotSources) {
    this.key = sources.key ?? currentSnapshotKey();
    this.log = sources.log ?? (() => undefined);
    const name = snapshotFileName(this.key);
    this.cacheFile = sources.cacheDir ? path.join(sources.cacheDir, name) : undefined;
    this.candidates = [this.cacheFile, sources.builtDir && path.join(sources.builtDir, name)].filter(
      (f): f is string => f !== undefined,
    );
  }

  load(): Uint8Array | undefined {
    this.loadedFrom = undefined;
    for (const file of this.candidates) {
      if (this.rejected.has(file)) continue;
      const read = readSnapshotFile(file, this.key);
      if (read.ok) {
        this.loadedFrom = file;
        this.log(`Python sandbox: starting from the interpreter snapshot ${file}`);
        return read.bytes;
      }
      if (read.reason !== 'missing')
        this.log(`Python sandbox: ignoring the snapshot ${file} (${read.reason})`);
    }
    this.log(
      `Python sandbox: no interpreter snapshot for Pyodide ${this.key.pyodide}; loading it from scratch` +
        (this.cacheFile ? ` (the snapshot will be cached in ${path.dirname(this.cacheFile)})` : ''),
    );
    return undefined;
  }

  save(bytes: Uint8Array): void {
    if (!this.cacheFile) return;
    try {
      writeSnapshotFile(this.cacheFile, this.key, bytes);
      this.rejected.delete(this.cacheFile);
    } catch (err) {
      // Not cached: the next process loads Pyodide from scratch once more.
      this.log(`Python sandbox: could not cache the snapshot (${(err as Error).message})`);
    }
  }

  reject(): void {
    const file = this.loadedFrom;
    this.loadedFrom = undefined;
    if (!file) return;
    this.rejected.add(file);
    this.log(`Python sandbox: the snapshot ${file} did not start; loading Pyodide from scratch`);
    // The cache is ours to remove; the build's snapshot is only skipped.
    if (file === this.cacheFile) fs.rmSync(file, { force: true });
  }
}
