/**
 * The CodeExec sandbox (AGENTS.md §10.4): `runCode` runs a script's `main` in QuickJS (JavaScript) or
 * Pyodide (Python), each in its own worker thread loaded once and reused, with time, memory and output
 * limits, no network, no file system and no access to the server process.
 */
import { builtSandboxDir, WorkerLane } from './lane.js';
import { PythonSnapshotStore } from './snapshot-store.js';
import { CodeExecError, LIMITS, type RunCodeRequest, type RunCodeResult, type SandboxLang } from './types.js';

export { CodeExecError, LIMITS, normalizeLang } from './types.js';
export type { CodeExecErrorKind, RunCodeRequest, RunCodeResult, SandboxLang } from './types.js';
export { coerceOutput, mapCodeOutputs, type DeclaredOutput } from './outputs.js';

const clamp = (v: number | undefined, fallback: number, max: number) =>
  Math.min(max, Math.max(1, Math.round(Number.isFinite(v) ? (v as number) : fallback)));

export interface SandboxOptions {
  /**
   * A private folder (e.g. `<data dir>/cache/sandbox`) where the loaded Python interpreter's memory
   * snapshot is kept, so that the first Python run of the next process starts in about a second
   * instead of loading Pyodide from scratch. Without it the snapshot is kept in memory only (restarts
   * after a runaway script are still fast).
   */
  cacheDir?: string;
  /**
   * The read-only folder holding the snapshot the build made (used when the cache has none);
   * default: next to the bundled sandbox workers, none when running from source. `null`: none.
   */
  builtSnapshotDir?: string | null;
  /** Where the sandbox says which snapshot it starts from, or why it ignores one. */
  log?: (message: string) => void;
}

export class Sandbox {
  private readonly lanes: Record<SandboxLang, WorkerLane>;

  constructor(options: SandboxOptions = {}) {
    this.lanes = {
      javascript: new WorkerLane({
        entry: 'quickjs.worker',
        label: 'JavaScript',
        maxHeapMb: 256,
        startupTimeoutMs: 30_000,
      }),
      python: new WorkerLane({
        entry: 'python.worker',
        label: 'Python',
        maxHeapMb: 512,
        startupTimeoutMs: 120_000,
        snapshots: new PythonSnapshotStore({
          cacheDir: options.cacheDir,
          builtDir:
            options.builtSnapshotDir === null ? undefined : (options.builtSnapshotDir ?? builtSandboxDir()),
          log: options.log,
        }),
      }),
    };
  }

  /** Runs `main` of the script; rejects with CodeExecError. Runs of one language wait for each other. */
  async runCode(req: RunCodeRequest): Promise<RunCodeResult> {
    const lane = this.lanes[req.lang];
    if (!lane) throw new CodeExecError('program_error', `Unsupported language: ${String(req.lang)}.`);
    if (typeof req.script !== 'string' || req.script.trim() === '')
      throw new CodeExecError('program_error', 'The script is empty.');
    let args: Record<string, unknown>;
    try {
      args = JSON.parse(JSON.stringify(req.args ?? {})) as Record<string, unknown>;
    } catch {
      throw new CodeExecError('program_error', 'The arguments must be JSON values.');
    }
    const timeoutMs = clamp(req.timeoutMs, LIMITS.defaultTimeoutMs, LIMITS.maxTimeoutMs);
    const memoryMb = clamp(req.memoryMb, LIMITS.defaultMemoryMb, LIMITS.maxMemoryMb);
    const started = performance.now();
    const elapsed = () => Math.round((performance.now() - started) * 100) / 100;
    try {
      const done = await lane.run({
        script: req.script,
        args,
        timeoutMs,
        memoryMb,
        maxOutputBytes: LIMITS.maxOutputBytes,
      });
      return {
        result: JSON.parse(done.resultJson),
        stdout: done.stdout,
        stderr: done.stderr,
        elapsedMs: elapsed(),
      };
    } catch (err) {
      const e = err instanceof CodeExecError ? err : new CodeExecError('runner_error', String(err));
      throw new CodeExecError(e.kind, messageOf(e, timeoutMs, memoryMb), e.stdout, elapsed());
    }
  }

  /** Loads an engine ahead of the first run (Pyodide takes seconds). */
  warm(lang: SandboxLang): Promise<void> {
    return this.lanes[lang].warm();
  }

  /** How many times each engine was loaded (a run that had to be stopped costs a reload). */
  loads(): Record<SandboxLang, number> {
    return { javascript: this.lanes.javascript.loads, python: this.lanes.python.loads };
  }

  async close(): Promise<void> {
    await Promise.all(Object.values(this.lanes).map((l) => l.close()));
  }
}

function messageOf(e: CodeExecError, timeoutMs: number, memoryMb: number): string {
  switch (e.kind) {
    case 'timeout':
      return `The script did not finish within ${timeoutMs / 1000} s (time limit).`;
    case 'memory':
      return /recursion|stack/.test(e.message)
        ? e.message
        : `The script used more than ${memoryMb} MB (memory limit).`;
    case 'output':
      return `The script printed more than ${LIMITS.maxOutputBytes / 1024 / 1024} MB (output limit).`;
    default:
      return e.message;
  }
}

let shared: Sandbox | null = null;

/** The process-wide sandbox (engines are loaded on first use and kept); options apply on the first call. */
export function sandbox(options?: SandboxOptions): Sandbox {
  shared ??= new Sandbox(options);
  return shared;
}

/**
 * Server start: the shared sandbox keeps its interpreter snapshot in `cacheDir`, and with `warmPython`
 * Python is loaded now, in its worker thread, so that a first call arriving meanwhile joins that load
 * instead of starting one. A failed warm-up is only logged: the first call tries again.
 */
export function startSharedSandbox(options: SandboxOptions & { warmPython: boolean }): Sandbox {
  const { warmPython, ...sandboxOptions } = options;
  const box = sandbox(sandboxOptions);
  if (warmPython)
    box
      .warm('python')
      .then(() => options.log?.('Python sandbox: ready'))
      .catch((err: unknown) =>
        options.log?.(
          `Python sandbox: the warm-up failed (${(err as Error).message}); the first call retries`,
        ),
      );
  return box;
}

/** `sandbox().runCode(req)`. */
export function runCode(req: RunCodeRequest): Promise<RunCodeResult> {
  return sandbox().runCode(req);
}

/** Stops the shared sandbox's workers (server shutdown). */
export async function closeSandbox(): Promise<void> {
  const s = shared;
  shared = null;
  await s?.close();
}
