/**
 * One sandbox worker thread and the queue of runs waiting for it. The worker loads its engine once
 * (Pyodide takes seconds) and serves runs one at a time. At a run's time limit the lane first asks
 * the engine to stop (Python: the interrupt buffer; QuickJS stops itself at its deadline), then, if the
 * run is still going after a grace period, terminates the thread and starts a fresh one: a runaway
 * script never blocks the server's own thread and never outlives its limit by more than the grace.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { SnapshotStore } from './snapshot-store.js';
import { CodeExecError, LIMITS, type WorkerJob, type WorkerReply } from './types.js';

const fromSource = import.meta.url.endsWith('.ts');

/** The worker entry: next to this file from source; in the bundle, `dist/sandbox/<name>.js`. */
function entryOf(name: string): URL {
  if (fromSource) return new URL(`./${name}.ts`, import.meta.url);
  for (const rel of [`./${name}.js`, `./sandbox/${name}.js`]) {
    const url = new URL(rel, import.meta.url);
    if (fs.existsSync(fileURLToPath(url))) return url;
  }
  throw new CodeExecError('runner_error', `The sandbox worker ${name} is missing from the build.`);
}

/** The folder of the bundled sandbox workers (`dist/sandbox`), or undefined when running from source. */
export function builtSandboxDir(): string | undefined {
  if (fromSource) return undefined;
  try {
    return path.dirname(fileURLToPath(entryOf('python.worker')));
  } catch {
    return undefined;
  }
}

/** tsx's ESM register API, so a worker started from TypeScript sources can load them. */
function tsxEsmApi(): string {
  const require = createRequire(import.meta.url);
  const pkgFile = require.resolve('tsx/package.json');
  const pkg = JSON.parse(fs.readFileSync(pkgFile, 'utf8')) as {
    exports: Record<string, { import: { default: string } }>;
  };
  return pathToFileURL(path.join(path.dirname(pkgFile), pkg.exports['./esm/api'].import.default)).href;
}

export interface LaneOptions {
  /** Worker entry name under sandbox/, e.g. "python.worker". */
  entry: string;
  /** Engine name for messages ("Python", "JavaScript"). */
  label: string;
  /** V8 heap of the worker (the engine's WebAssembly memory is limited by the worker itself). */
  maxHeapMb: number;
  /** Time allowed for the engine to load. */
  startupTimeoutMs: number;
  /** Where the engine's memory snapshot is found and kept between processes (none: in memory only). */
  snapshots?: SnapshotStore;
}

interface Pending {
  job: WorkerJob;
  resolve: (reply: Extract<WorkerReply, { type: 'done' }>) => void;
  reject: (err: CodeExecError) => void;
}

export class WorkerLane {
  private worker: Worker | null = null;
  private ready: Promise<void> | null = null;
  private readonly queue: Pending[] = [];
  private current: Pending | null = null;
  private timers: NodeJS.Timeout[] = [];
  private nextId = 1;
  private closed = false;
  /** Shared with the worker: writing 2 raises KeyboardInterrupt in Python (Pyodide's interrupt buffer). */
  private interrupt = new Int32Array(new SharedArrayBuffer(4));
  /** Loads performed so far (a terminated worker is replaced by a fresh load). */
  loads = 0;
  /** The engine's memory snapshot, sent by the first worker and given to the next ones. */
  private snapshot: Uint8Array | undefined;
  /** The store is read once, by the first worker start. */
  private snapshotLooked = false;

  constructor(private readonly opts: LaneOptions) {}

  private keepSnapshot(bytes: Uint8Array): void {
    this.snapshot = bytes;
    this.opts.snapshots?.save(bytes);
  }

  private lookForSnapshot(): void {
    if (this.snapshotLooked) return;
    this.snapshotLooked = true;
    this.snapshot = this.opts.snapshots?.load();
  }

  /** A snapshot that would not load is dropped, in memory and from the store. */
  private dropSnapshot(): void {
    this.snapshot = undefined;
    this.opts.snapshots?.reject();
  }

  run(job: Omit<WorkerJob, 'id'>): Promise<Extract<WorkerReply, { type: 'done' }>> {
    if (this.closed) return Promise.reject(new CodeExecError('runner_error', 'The sandbox is closed.'));
    return new Promise((resolve, reject) => {
      this.queue.push({ job: { ...job, id: this.nextId++ }, resolve, reject });
      void this.pump();
    });
  }

  /** Starts the engine now (e.g. at server start) so the first run does not wait for it. */
  warm(): Promise<void> {
    return this.ensureWorker();
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const p of this.queue.splice(0))
      p.reject(new CodeExecError('runner_error', 'The sandbox is closed.'));
    this.current?.reject(new CodeExecError('runner_error', 'The sandbox is closed.'));
    this.current = null;
    await this.stopWorker();
  }

  private ensureWorker(): Promise<void> {
    if (this.ready) return this.ready;
    const entry = entryOf(this.opts.entry);
    this.lookForSnapshot();
    const options = {
      // The sandbox sees none of the server's environment (secrets, database URLs).
      env: {},
      resourceLimits: { maxOldGenerationSizeMb: this.opts.maxHeapMb },
      workerData: { interrupt: this.interrupt, ...(this.snapshot ? { snapshot: this.snapshot } : {}) },
      stdout: true,
      stderr: true,
    };
    const worker = fromSource
      ? new Worker(
          `import(${JSON.stringify(tsxEsmApi())}).then((m) => { m.register(); return import(${JSON.stringify(entry.href)}); })` +
            `.catch((err) => { setImmediate(() => { throw err; }); });`,
          { ...options, eval: true },
        )
      : new Worker(entry, options);
    // Whatever the engine writes to the process streams is dropped: runs capture their own output.
    worker.stdout.resume();
    worker.stderr.resume();
    worker.unref();
    this.worker = worker;
    this.loads++;
    const fromSnapshot = this.snapshot !== undefined;
    let readyYet = false;
    this.ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new CodeExecError('runner_error', `The ${this.opts.label} sandbox did not start in time.`));
        void this.stopWorker();
      }, this.opts.startupTimeoutMs);
      worker.on('message', (msg: WorkerReply) => {
        if (msg.type === 'ready') {
          readyYet = true;
          clearTimeout(timer);
          resolve();
        } else if (msg.type === 'snapshot') this.keepSnapshot(msg.bytes);
        else this.onReply(msg);
      });
      worker.on('error', (err: Error & { code?: string }) => {
        clearTimeout(timer);
        const memory = err.code === 'ERR_WORKER_OUT_OF_MEMORY';
        const e = new CodeExecError(
          memory ? 'memory' : 'runner_error',
          memory
            ? `The script used more memory than the sandbox allows.`
            : `The ${this.opts.label} sandbox failed: ${err.message.split('\n')[0]}`,
        );
        // Only a start that failed on its own condemns the snapshot (not close() during the load).
        if (fromSnapshot && !readyYet && this.worker === worker) this.dropSnapshot();
        reject(e);
        this.onWorkerGone(worker, e, readyYet);
      });
      worker.on('exit', () => {
        if (fromSnapshot && !readyYet && this.worker === worker) this.dropSnapshot();
        clearTimeout(timer);
        const e = new CodeExecError('runner_error', `The ${this.opts.label} sandbox stopped unexpectedly.`);
        reject(e);
        this.onWorkerGone(worker, e, readyYet);
      });
    });
    this.ready.catch(() => undefined);
    return this.ready;
  }

  private onWorkerGone(worker: Worker, err: CodeExecError, started: boolean): void {
    if (this.worker !== worker) return;
    this.worker = null;
    this.ready = null;
    // A worker that never got ready had no run yet: pump() sees the failed start and retries or rejects.
    if (!started) return;
    const current = this.current;
    if (current) {
      this.finish();
      current.reject(err);
    }
  }

  private async stopWorker(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    this.ready = null;
    if (worker) await worker.terminate().catch(() => undefined);
  }

  private finish(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers = [];
    this.current = null;
    setImmediate(() => void this.pump());
  }

  private onReply(msg: WorkerReply): void {
    const current = this.current;
    if (!current || msg.type === 'ready' || msg.type === 'snapshot' || msg.id !== current.job.id) return;
    this.finish();
    if (msg.type === 'done') return current.resolve(msg);
    if (msg.type === 'failed' && msg.recycle) void this.stopWorker();
    current.reject(new CodeExecError(msg.kind, msg.message, msg.stdout));
  }

  private async pump(): Promise<void> {
    if (this.current || this.closed) return;
    const next = this.queue.shift();
    if (!next) return;
    this.current = next;
    try {
      this.lookForSnapshot();
      const hadSnapshot = this.snapshot !== undefined;
      await this.ensureWorker().catch((err: unknown) => {
        // A worker that failed to start from a snapshot dropped it: the next start loads normally.
        if (hadSnapshot && this.snapshot === undefined) return this.ensureWorker();
        throw err;
      });
    } catch (err) {
      if (this.current === next) this.finish();
      return next.reject(err as CodeExecError);
    }
    const worker = this.worker;
    if (!worker || this.current !== next) return;
    Atomics.store(this.interrupt, 0, 0);
    const { timeoutMs } = next.job;
    this.timers.push(
      setTimeout(() => {
        Atomics.store(this.interrupt, 0, 2); // SIGINT: Python raises KeyboardInterrupt at the next check
        this.timers.push(
          setTimeout(() => {
            if (this.current !== next) return;
            // Still running after the grace: the thread is stopped and a fresh one will be loaded.
            this.finish();
            void this.stopWorker();
            next.reject(
              new CodeExecError(
                'timeout',
                `The script did not finish within ${timeoutMs / 1000} s (time limit).`,
              ),
            );
          }, LIMITS.graceMs),
        );
      }, timeoutMs),
    );
    worker.postMessage(next.job);
  }
}
