/**
 * JavaScript runs of the CodeExec sandbox: QuickJS compiled to WebAssembly, a fresh runtime and
 * context per run (a few hundred microseconds) with a memory limit, a stack limit and a deadline
 * checked by QuickJS's interrupt handler. The context holds nothing of the host: no require, process,
 * fetch, import loader or timers; only `console` (captured) and a CommonJS-style `module.exports`.
 */
import { parentPort } from 'node:worker_threads';
import variant from '@jitl/quickjs-wasmfile-release-sync';
import {
  newQuickJSWASMModuleFromVariant,
  shouldInterruptAfterDeadline,
  type QuickJSContext,
  type QuickJSHandle,
} from 'quickjs-emscripten-core';
import type { CodeExecErrorKind, WorkerJob, WorkerReply } from './types.js';

const PRELUDE = `
const __fmt = (args) => args.map((a) => {
  if (typeof a === 'string') return a;
  if (a instanceof Error) return String(a.stack || a);
  try { const s = JSON.stringify(a, (k, v) => (typeof v === 'bigint' ? v.toString() : v)); return s === undefined ? String(a) : s; }
  catch { return String(a); }
}).join(' ');
globalThis.console = {
  log: (...a) => __emit(1, __fmt(a)), info: (...a) => __emit(1, __fmt(a)), debug: (...a) => __emit(1, __fmt(a)),
  warn: (...a) => __emit(2, __fmt(a)), error: (...a) => __emit(2, __fmt(a)),
};
globalThis.module = { exports: {} };
globalThis.exports = globalThis.module.exports;
globalThis.__json = (v) => (v === undefined ? 'null' : JSON.stringify(v, (k, x) => (typeof x === 'bigint' ? x.toString() : x)) ?? 'null');
`;

const DRIVER = `(() => {
  const exported = globalThis.module && globalThis.module.exports;
  const main = exported && typeof exported.main === 'function' ? exported.main
    : typeof exported === 'function' ? exported
    : typeof globalThis.main === 'function' ? globalThis.main : undefined;
  if (!main) throw new Error('The script must define a function main(args).');
  return main(globalThis.__args);
})()`;

class RunFailure extends Error {
  constructor(
    readonly kind: CodeExecErrorKind,
    message: string,
  ) {
    super(message);
  }
}

const quickjs = await newQuickJSWASMModuleFromVariant(variant);

/** A QuickJS exception as a failure: the interrupt is the time limit, "out of memory" the memory one. */
function failureOf(vm: QuickJSContext, handle: QuickJSHandle): RunFailure {
  const err = vm.dump(handle) as { name?: string; message?: string; stack?: string } | string | null;
  handle.dispose();
  if (err && typeof err === 'object') {
    const text = `${err.name ?? 'Error'}: ${err.message ?? ''}`;
    if (err.name === 'InternalError' && /interrupted/.test(err.message ?? ''))
      return new RunFailure('timeout', 'time limit');
    if (/out of memory/i.test(err.message ?? '')) return new RunFailure('memory', 'memory limit');
    if ((err.message ?? '').startsWith('The script must define'))
      return new RunFailure('program_error', err.message ?? '');
    if (/stack overflow/i.test(err.message ?? ''))
      return new RunFailure('memory', 'The script went too deep (stack overflow).');
    const where = (err.stack ?? '').split('\n').find((l) => l.includes('script.js'));
    return new RunFailure('program_error', where ? `${text}\n${where.trim()}` : text);
  }
  return new RunFailure('program_error', `Uncaught ${String(err)}`);
}

function run(job: WorkerJob): WorkerReply {
  const reply = runInContext(job);
  return brokenModule && reply.type === 'failed' ? { ...reply, recycle: true } : reply;
}

/** Set when QuickJS could not free a runtime: the module may be corrupt, so the worker is replaced. */
let brokenModule = false;

function runInContext(job: WorkerJob): WorkerReply {
  const out = { stdout: '', stderr: '', bytes: 0, overflow: false };
  const runtime = quickjs.newRuntime();
  runtime.setMemoryLimit(job.memoryMb * 1024 * 1024);
  runtime.setMaxStackSize(1024 * 1024);
  const deadline = Date.now() + job.timeoutMs;
  runtime.setInterruptHandler(shouldInterruptAfterDeadline(deadline));
  const vm = runtime.newContext();
  try {
    const emit = vm.newFunction('__emit', (streamHandle, textHandle) => {
      const text = `${vm.getString(textHandle)}\n`;
      out.bytes += Buffer.byteLength(text);
      if (out.bytes > job.maxOutputBytes) {
        out.overflow = true;
        // Throwing stops the script: it keeps printing past the cap.
        return { error: vm.newError('output limit') };
      }
      if (vm.getNumber(streamHandle) === 2) out.stderr += text;
      else out.stdout += text;
    });
    vm.setProp(vm.global, '__emit', emit);
    emit.dispose();
    const fail = (error: QuickJSHandle): never => {
      const failure = failureOf(vm, error);
      if (out.overflow) throw new RunFailure('output', 'output limit');
      throw failure;
    };
    const unwrap = (r: ReturnType<QuickJSContext['evalCode']>): QuickJSHandle =>
      r.error ? fail(r.error) : r.value;
    unwrap(vm.evalCode(PRELUDE, 'prelude.js')).dispose();
    unwrap(vm.evalCode(`globalThis.__args = ${JSON.stringify(job.args ?? {})};`, 'args.js')).dispose();
    unwrap(vm.evalCode(job.script, 'script.js')).dispose();
    let value = unwrap(vm.evalCode(DRIVER, 'driver.js'));
    // An async main: run the job queue until its promise settles (nothing else can resolve it).
    for (;;) {
      const state = vm.getPromiseState(value);
      if (state.type === 'fulfilled') {
        if (!state.notAPromise) value.dispose();
        value = state.value;
        break;
      }
      if (state.type === 'rejected') {
        value.dispose();
        fail(state.error);
      }
      const jobs = runtime.executePendingJobs();
      if (jobs.error) {
        value.dispose();
        fail(jobs.error);
      }
      if (!jobs.error && jobs.value === 0 && vm.getPromiseState(value).type === 'pending') {
        value.dispose();
        throw new RunFailure('program_error', 'main() returned a promise that never settles.');
      }
      if (Date.now() > deadline) throw new RunFailure('timeout', 'time limit');
    }
    const json = vm.getProp(vm.global, '__json');
    const resultJson = vm.getString(unwrap(vm.callFunction(json, vm.undefined, value)));
    json.dispose();
    value.dispose();
    return { type: 'done', id: job.id, resultJson, stdout: out.stdout, stderr: out.stderr };
  } catch (err) {
    const f = err instanceof RunFailure ? err : new RunFailure('runner_error', String(err));
    return {
      type: 'failed',
      id: job.id,
      kind: f.kind,
      message: f.message,
      stdout: out.stdout,
      stderr: out.stderr,
    };
  } finally {
    try {
      vm.dispose();
      runtime.dispose();
    } catch {
      // A runtime stopped mid-allocation may not free cleanly (QuickJS aborts): replace the worker.
      brokenModule = true;
    }
  }
}

parentPort?.on('message', (job: WorkerJob) => {
  const reply = run(job);
  if (brokenModule && reply.type === 'done') {
    parentPort?.postMessage(reply);
    process.exit(0); // the lane starts a fresh worker for the next run
  }
  parentPort?.postMessage(reply);
});
parentPort?.postMessage({ type: 'ready' } satisfies WorkerReply);
