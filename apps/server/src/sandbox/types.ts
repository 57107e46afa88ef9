/**
 * The contract of the CodeExec sandbox (AGENTS.md §10.4): a script with a `main(...)` function, its
 * arguments, and what comes back. Shared by the main-thread side and the two worker entries.
 */

export type SandboxLang = 'python' | 'javascript';

export interface RunCodeRequest {
  /** `python` or `javascript`; AGENTS.md's aliases (`python3`, `nodejs`) go through `normalizeLang`. */
  lang: SandboxLang;
  /** Source defining `main`. Python: `def main(**args)`; JavaScript: `function main(args)` (may be async). */
  script: string;
  /** Python gets them as keyword arguments, JavaScript as one object. JSON values only. */
  args?: Record<string, unknown>;
  /** Wall-clock limit of the run (default 10 s, at most 10 min). */
  timeoutMs?: number;
  /** Memory the script may use (default 256 MB, at most 2 GB). */
  memoryMb?: number;
}

export interface RunCodeResult {
  /** What `main` returned, as JSON (undefined/None → null; Python tuples/sets → arrays…). */
  result: unknown;
  /** Everything the script printed (print / console.log…), capped. */
  stdout: string;
  /** What it wrote to stderr (console.error / sys.stderr); not an error by itself. */
  stderr: string;
  elapsedMs: number;
}

/**
 * Why a run did not produce a result:
 * - `program_error`: the script raised/threw (or has no `main`, or a syntax error);
 * - `unauthorized`: it tried something the sandbox refuses (a blocked module, the host, the network);
 * - `timeout` / `memory` / `output`: it hit a limit (AGENTS.md resource_limit_type time/memory/output);
 * - `runner_error`: the sandbox itself failed (a worker that could not start).
 */
export type CodeExecErrorKind =
  'program_error' | 'unauthorized' | 'timeout' | 'memory' | 'output' | 'runner_error';

export class CodeExecError extends Error {
  constructor(
    readonly kind: CodeExecErrorKind,
    message: string,
    readonly stdout = '',
    readonly elapsedMs = 0,
  ) {
    super(message);
    this.name = 'CodeExecError';
  }
}

export const LIMITS = {
  defaultTimeoutMs: 10_000,
  maxTimeoutMs: 600_000,
  defaultMemoryMb: 256,
  maxMemoryMb: 2048,
  /** stdout + stderr a run may print before it is stopped with `output`. */
  maxOutputBytes: 1024 * 1024,
  /** After the soft stop (interrupt) at the time limit, how long before the worker is terminated. */
  graceMs: 500,
};

/** AGENTS.md's language names: python, python3 → python; javascript, nodejs → javascript. */
export function normalizeLang(lang: string): SandboxLang | null {
  const l = lang.trim().toLowerCase();
  if (l === 'python' || l === 'python3') return 'python';
  if (l === 'javascript' || l === 'nodejs' || l === 'js') return 'javascript';
  return null;
}

/** Messages between the main thread and a sandbox worker. */
export interface WorkerJob {
  id: number;
  script: string;
  args: Record<string, unknown>;
  timeoutMs: number;
  memoryMb: number;
  maxOutputBytes: number;
}

export type WorkerReply =
  | { type: 'ready' }
  /** A memory snapshot of the freshly loaded engine: later workers start from it (seconds faster). */
  | { type: 'snapshot'; bytes: Uint8Array }
  | { type: 'done'; id: number; resultJson: string; stdout: string; stderr: string }
  | {
      type: 'failed';
      id: number;
      kind: CodeExecErrorKind;
      message: string;
      stdout: string;
      stderr: string;
      recycle?: boolean;
    };
