/**
 * Starts one of our `*.worker.ts` entry files off the main thread, in both shapes the server runs in:
 * - bundled (`dist/main.js`, built by scripts/build.mjs): every `src/**\/*.worker.ts` is its own entry
 *   next to main.js, so `ingest/parse.worker` is `dist/ingest/parse.worker.js`;
 * - from source (dev, tests, benches under tsx/vitest): the entry is TypeScript and is loaded through
 *   tsx's loader.
 * Two isolation levels share one handle: a worker thread (cheap, but a native crash in it — a
 * decoder segfaulting on a hostile image — takes the whole process down) or a child process (a crash,
 * an out-of-memory or a runaway Buffer only ends that child). Parsing uses child processes.
 */
import { fork } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

/** True when this module runs from TypeScript sources (not from the bundle). */
export const fromSource = import.meta.url.endsWith('.ts');

/** URL of a worker entry given its path under src without extension, e.g. "ingest/parse.worker". */
export function workerEntry(name: string): URL {
  // Source: this file is src/util/run-in-worker.ts. Bundle: this code lives in dist/main.js.
  return fromSource ? new URL(`../${name}.ts`, import.meta.url) : new URL(`./${name}.js`, import.meta.url);
}

/** File URL of tsx's ESM register API (its `import` export; `require.resolve` would give the CJS one). */
function tsxEsmApi(): string {
  const require = createRequire(import.meta.url);
  const pkgFile = require.resolve('tsx/package.json');
  const pkg = JSON.parse(fs.readFileSync(pkgFile, 'utf8')) as {
    exports: Record<string, { import: { default: string } }>;
  };
  return pathToFileURL(path.join(path.dirname(pkgFile), pkg.exports['./esm/api'].import.default)).href;
}

export type Isolation = 'thread' | 'process';

/** Why a worker ended: `memory` (heap limit), `crash` (signal or error), `exit` (ended by itself). */
export interface WorkerEnd {
  reason: 'memory' | 'crash' | 'exit';
  detail: string;
}

/** What the pool needs from a thread or a child process. */
export interface WorkerHandle {
  readonly pid: number | null;
  post(message: unknown): void;
  onMessage(listener: (message: unknown) => void): void;
  /** Called once when the worker is gone, however it went. */
  onEnd(listener: (end: WorkerEnd) => void): void;
  terminate(): void;
  ref(): void;
  unref(): void;
}

function threadHandle(name: string, maxHeapMb: number): WorkerHandle {
  const entry = workerEntry(name);
  const limits = { maxOldGenerationSizeMb: maxHeapMb };
  let worker: Worker;
  if (fromSource) {
    const bootstrap =
      `import(${JSON.stringify(tsxEsmApi())}).then((m) => { m.register(); return import(${JSON.stringify(entry.href)}); })` +
      `.catch((err) => { setImmediate(() => { throw err; }); });`;
    worker = new Worker(bootstrap, { eval: true, resourceLimits: limits });
  } else {
    worker = new Worker(entry, { resourceLimits: limits });
  }
  let ended = false;
  const endListeners: Array<(e: WorkerEnd) => void> = [];
  const end = (e: WorkerEnd) => {
    if (ended) return;
    ended = true;
    for (const l of endListeners) l(e);
  };
  worker.on('error', (err: Error & { code?: string }) =>
    end({ reason: err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'memory' : 'crash', detail: err.message }),
  );
  worker.on('exit', (code) => end({ reason: 'exit', detail: `exit code ${code}` }));
  return {
    pid: null,
    post: (m) => worker.postMessage(m),
    onMessage: (l) => worker.on('message', l),
    onEnd: (l) => endListeners.push(l),
    terminate: () => void worker.terminate().catch(() => 0),
    ref: () => worker.ref(),
    unref: () => worker.unref(),
  };
}

function processHandle(name: string, maxHeapMb: number): WorkerHandle {
  const entry = fileURLToPath(workerEntry(name));
  const execArgv = [`--max-old-space-size=${maxHeapMb}`, ...(fromSource ? ['--import', 'tsx'] : [])];
  const child = fork(entry, [], {
    execArgv,
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString('utf8')).slice(-4000);
  });
  let ended = false;
  const endListeners: Array<(e: WorkerEnd) => void> = [];
  const end = (e: WorkerEnd) => {
    if (ended) return;
    ended = true;
    for (const l of endListeners) l(e);
  };
  child.on('error', (err) => end({ reason: 'crash', detail: err.message }));
  child.on('exit', (code, signal) => {
    const oom = /heap out of memory|Allocation failed/i.test(stderr);
    if (oom) return end({ reason: 'memory', detail: 'out of memory' });
    if (signal) return end({ reason: 'crash', detail: `signal ${signal}` });
    end({ reason: code === 0 ? 'exit' : 'crash', detail: `exit code ${code}` });
  });
  return {
    pid: child.pid ?? null,
    post: (m) => {
      if (child.connected) child.send(m as never);
    },
    onMessage: (l) => child.on('message', l),
    onEnd: (l) => endListeners.push(l),
    terminate: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
    ref: () => {
      child.ref();
      (child.channel as { ref?: () => void } | undefined)?.ref?.();
    },
    unref: () => {
      child.unref();
      (child.channel as { unref?: () => void } | undefined)?.unref?.();
    },
  };
}

/** Starts the worker entry `name` (see `workerEntry`) as a thread or a child process. */
export function spawnWorker(name: string, opts: { isolation: Isolation; maxHeapMb: number }): WorkerHandle {
  return opts.isolation === 'process'
    ? processHandle(name, opts.maxHeapMb)
    : threadHandle(name, opts.maxHeapMb);
}
