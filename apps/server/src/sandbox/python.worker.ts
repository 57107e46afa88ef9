/**
 * Python runs of the CodeExec sandbox: Pyodide (CPython compiled to WebAssembly) loaded once from
 * node_modules (no network), then locked down before the first run:
 * - the `js` module is an empty object and `js`/`pyodide_js` are unregistered, so Python holds no
 *   handle on this thread's JavaScript world;
 * - this thread's JavaScript realm loses code generation (Function constructors, eval) and the Node
 *   modules Emscripten would forward to (child_process, net, tls, http(s), dgram, dns, fs, vm…), and
 *   Emscripten's socket layer refuses to connect or listen;
 * - WebAssembly memory growth is capped per run (Python raises MemoryError);
 * - the Python prelude (python-prelude.ts) refuses the dangerous imports and watches module state.
 * The worker itself starts with an empty environment (lane.ts), so no server secret is in reach.
 */
import { createRequire, syncBuiltinESMExports } from 'node:module';
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { loadPyodide, type PyodideInterface } from 'pyodide';
import { PYTHON_PRELUDE, PYTHON_WARM_IMPORTS } from './python-prelude.js';
import type { WorkerJob, WorkerReply } from './types.js';

const { interrupt, snapshot } = workerData as { interrupt: Int32Array; snapshot?: Uint8Array };

// Memory: every growth of a WebAssembly memory in this thread is checked against the run's cap.
let memoryCapBytes = Number.POSITIVE_INFINITY;
interface WasmMemory {
  buffer: ArrayBuffer;
  grow(pages: number): number;
}
const memoryProto = (globalThis as unknown as { WebAssembly: { Memory: { prototype: WasmMemory } } })
  .WebAssembly.Memory.prototype;
const grow = memoryProto.grow;
memoryProto.grow = function guardedGrow(this: WasmMemory, pages: number) {
  if (this.buffer.byteLength + pages * 65536 > memoryCapBytes) throw new RangeError('sandbox memory limit');
  return grow.call(this, pages);
};

// Not named `require`: the server bundle's banner declares one at the top level.
const nodeRequire = createRequire(import.meta.url);
const indexURL = path.dirname(nodeRequire.resolve('pyodide/package.json')) + path.sep;

const io = { stdout: '', stderr: '', bytes: 0, cap: 0, overflow: false };
function capture(stream: 'stdout' | 'stderr') {
  return (text: string) => {
    const line = `${text}\n`;
    io.bytes += Buffer.byteLength(line);
    if (io.bytes > io.cap) {
      io.overflow = true;
      Atomics.store(interrupt, 0, 2); // stop the script at its next check
      return;
    }
    io[stream] += line;
  };
}

const loadOptions = {
  indexURL,
  packageCacheDir: indexURL,
  jsglobals: Object.create(null) as object,
  env: { HOME: '/home/pyodide', PYTHONHASHSEED: '0' },
  stdout: capture('stdout'),
  stderr: capture('stderr'),
};
/** Pyodide's snapshot options are marked experimental (underscore) in its typings. */
type SnapshotOptions = { _makeSnapshot?: boolean; _loadSnapshot?: Uint8Array };
type Snapshotting = PyodideInterface & { makeMemorySnapshot(): Uint8Array };
let pyodide: PyodideInterface;
if (snapshot) {
  // A worker after the first: the interpreter comes back from the first one's memory snapshot.
  pyodide = await loadPyodide({ ...loadOptions, _loadSnapshot: snapshot } as Parameters<
    typeof loadPyodide
  >[0] &
    SnapshotOptions);
} else {
  pyodide = await loadPyodide({ ...loadOptions, _makeSnapshot: true } as Parameters<typeof loadPyodide>[0] &
    SnapshotOptions);
  pyodide.runPython(PYTHON_WARM_IMPORTS);
  // Taken before the prelude and the lockdown, which every worker applies itself.
  const bytes = (pyodide as Snapshotting).makeMemorySnapshot().slice();
  parentPort?.postMessage({ type: 'snapshot', bytes } satisfies WorkerReply, [bytes.buffer]);
}
pyodide.setStdout({ batched: capture('stdout') });
pyodide.setStderr({ batched: capture('stderr') });
pyodide.runPython(PYTHON_PRELUDE);
type PyFn = ((...args: unknown[]) => unknown) & { destroy?: () => void };
const runScript = pyodide.globals.get('_lectern_run') as PyFn;
const seal = pyodide.globals.get('_lectern_seal') as PyFn;
pyodide.unregisterJsModule('js');
pyodide.unregisterJsModule('pyodide_js');
lockDownRealm(pyodide);
seal();
pyodide.setInterruptBuffer(interrupt);
const baselineBytes = (pyodide as unknown as { _module: { HEAP8: Int8Array } })._module.HEAP8.buffer
  .byteLength;

function lockDownRealm(py: PyodideInterface): void {
  const deny = (what: string) =>
    function denied(): never {
      throw new Error(`${what} is not available in the sandbox`);
    };
  const emscripten = (py as unknown as { _module: Record<string, unknown> })._module;
  const FS = py.FS as unknown as {
    ErrnoError: new (errno: number) => Error;
    mount: unknown;
    filesystems: Record<string, unknown>;
  };
  // Emscripten's sockets would open WebSocket connections from this thread: refuse (EACCES).
  const sockOps = (emscripten.SOCKFS as { websocket_sock_ops?: Record<string, unknown> } | undefined)
    ?.websocket_sock_ops;
  if (sockOps) {
    sockOps.connect = () => {
      throw new FS.ErrnoError(2);
    };
    sockOps.listen = () => {
      throw new FS.ErrnoError(2);
    };
  }
  FS.mount = deny('mounting a file system');
  delete FS.filesystems.NODEFS;
  delete FS.filesystems.NODERAWFS;

  // Node modules of this thread (the main thread's are separate objects).
  for (const name of [
    'child_process',
    'net',
    'tls',
    'http',
    'https',
    'http2',
    'dgram',
    'dns',
    'fs',
    'vm',
    'worker_threads',
    'inspector',
    'cluster',
  ]) {
    const mod = nodeRequire(`node:${name}`) as Record<string, unknown>;
    for (const key of Object.keys(mod)) {
      const d = Object.getOwnPropertyDescriptor(mod, key);
      if (d?.writable && typeof d.value === 'function') mod[key] = deny(`${name}.${key}`);
    }
  }
  // os.system() goes to child_process.spawnSync: answer "command not found" instead of running it.
  (nodeRequire('node:child_process') as Record<string, unknown>).spawnSync = () => ({
    status: 127,
    signal: null,
  });
  syncBuiltinESMExports();

  const proc = process as unknown as Record<string, unknown>;
  for (const key of [
    'dlopen',
    'binding',
    '_linkedBinding',
    'kill',
    'getBuiltinModule',
    'chdir',
    'setuid',
    'setgid',
  ])
    if (typeof proc[key] === 'function') proc[key] = deny(`process.${key}`);
  const g = globalThis as Record<string, unknown>;
  for (const key of ['fetch', 'WebSocket', 'EventSource', 'XMLHttpRequest', 'Request', 'Response', 'require'])
    delete g[key];
  // No new code from strings in this thread: Python cannot turn a JS object into JS code.
  const noCodegen = deny('code generation');
  const constructors = [async () => undefined, function* () {}, async function* () {}].map(
    (fn) => (Object.getPrototypeOf(fn) as { constructor: { prototype: object } }).constructor,
  );
  for (const C of [Function, ...constructors]) {
    // Same name and prototype as the real constructor: Pyodide tells async functions apart by name.
    const stub = deny('code generation');
    Object.defineProperty(stub, 'name', { value: (C as unknown as { name: string }).name });
    Object.defineProperty(stub, 'prototype', { value: C.prototype });
    Object.defineProperty(C.prototype, 'constructor', { value: stub });
  }
  g.eval = noCodegen;
  g.Function = noCodegen;
}

function reply(job: WorkerJob, outcome: unknown[]): WorkerReply {
  const [kind, payload, flag] = outcome as [string, string, string | undefined];
  const recycle = flag === 'recycle';
  if (io.overflow)
    return {
      type: 'failed',
      id: job.id,
      kind: 'output',
      message: 'output limit',
      stdout: io.stdout,
      stderr: io.stderr,
      recycle,
    };
  if (kind === 'ok') {
    if (recycle)
      return {
        type: 'failed',
        id: job.id,
        kind: 'unauthorized',
        message: 'The script changed the sandbox’s shared modules.',
        stdout: io.stdout,
        stderr: io.stderr,
        recycle,
      };
    return { type: 'done', id: job.id, resultJson: payload, stdout: io.stdout, stderr: io.stderr };
  }
  return {
    type: 'failed',
    id: job.id,
    kind: kind as Extract<WorkerReply, { type: 'failed' }>['kind'],
    message: payload,
    stdout: io.stdout,
    stderr: io.stderr,
    recycle,
  };
}

function run(job: WorkerJob): WorkerReply {
  io.stdout = io.stderr = '';
  io.bytes = 0;
  io.cap = job.maxOutputBytes;
  io.overflow = false;
  memoryCapBytes = baselineBytes + job.memoryMb * 1024 * 1024;
  try {
    const out = runScript(job.script, JSON.stringify(job.args ?? {})) as {
      toJs(): unknown[];
      destroy(): void;
    };
    const list = out.toJs();
    out.destroy();
    return reply(job, list);
  } catch (err) {
    // Errors that escape the runner: an interrupt outside the script, or Pyodide failing fatally.
    const fatal = (err as { pyodide_fatal_error?: boolean }).pyodide_fatal_error === true;
    const text = String((err as Error).message ?? err);
    const kind = /KeyboardInterrupt/.test(text)
      ? 'timeout'
      : /MemoryError/.test(text)
        ? 'memory'
        : 'runner_error';
    return {
      type: 'failed',
      id: job.id,
      kind,
      message: kind === 'runner_error' ? 'The Python sandbox failed.' : kind,
      stdout: io.stdout,
      stderr: io.stderr,
      recycle: fatal || kind === 'runner_error',
    };
  } finally {
    memoryCapBytes = Number.POSITIVE_INFINITY;
    Atomics.store(interrupt, 0, 0);
  }
}

parentPort?.on('message', (job: WorkerJob) => parentPort?.postMessage(run(job)));
parentPort?.postMessage({ type: 'ready' } satisfies WorkerReply);
