/**
 * One component run: loop limit, time limit, cancel, and stage 1 of exception handling (§3.9: an
 * exception under `comment` with a default value becomes that value instead of an error).
 */
import { registryImpl } from '../components/registry.js';
import { CancelledError, errorMessage, isAbortError } from '../util/errors.js';
import { ComponentSignal } from './component-signal.js';
import { RunComponentContext, type RunServices } from './context.js';
import type { ComponentState } from './state.js';

export interface InvokeLimits {
  /** default runs per component per run (per round inside a container) */
  loopLimit: number;
  /** overrides the catalogue time limits (tests) */
  componentTimeoutMs?: number;
}

export function hasDefaultValue(c: ComponentState): boolean {
  const d = c.params.exception_default_value;
  return d !== null && d !== undefined && String(d) !== '';
}

export function loopLimitOf(c: ComponentState, limits: InvokeLimits): number {
  const own = c.params.loop_limit;
  return typeof own === 'number' && own > 0 ? own : limits.loopLimit;
}

export async function invokeComponent(
  run: RunServices,
  c: ComponentState,
  requestInputs: Record<string, unknown> | null,
  runSignal: AbortSignal,
  limits: InvokeLimits,
): Promise<RunComponentContext> {
  const clock = run.ports.clock;
  c.startedAt = clock.now();
  c.startedMono = clock.monotonic();
  c.finishedMono = 0;
  c.note = undefined;
  c.fatal = false;
  c.streams.clear();
  delete c.outputs._ERROR;
  c.outputs._created_time = c.startedAt / 1000;
  const componentSignal = new ComponentSignal(runSignal);
  const ctx = new RunComponentContext(run, c, componentSignal, requestInputs);
  // A new round of a container starts: its body's loop-limit counts start over.
  if ((c.type === 'IterationItem' || c.type === 'LoopItem') && c.parentId) {
    for (const sibling of run.state.childrenOf(c.parentId)) if (sibling !== c) sibling.runCount = 0;
  }
  c.runCount += 1;
  const limit = loopLimitOf(c, limits);
  try {
    if (c.runCount > limit) {
      c.outputs._ERROR = `${c.label} reached its loop limit of ${limit} runs; the run stops here`;
      c.fatal = true;
      return ctx;
    }
    await ctx.checkCancelled();
    const impl = registryImpl(c.type, run.ports);
    const timeoutMs = limits.componentTimeoutMs ?? c.entry.timeoutSeconds * 1000;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const err = new Error(`${c.label} timed out after ${timeoutMs / 1000} s`);
        componentSignal.abort(err);
        reject(err);
      }, timeoutMs);
    });
    try {
      await Promise.race([impl.invoke(ctx), timeout]);
    } finally {
      clearTimeout(timer);
    }
  } catch (e) {
    if (
      e instanceof CancelledError ||
      (isAbortError(e) && (runSignal.aborted || (await run.isCancelled())))
    ) {
      c.outputs._ERROR = new CancelledError().message;
    } else if (c.params.exception_method === 'comment' && hasDefaultValue(c)) {
      c.outputs[c.entry.primaryOutput] = String(c.params.exception_default_value);
    } else {
      c.outputs._ERROR = errorMessage(e);
    }
  } finally {
    // A live stream keeps listening: a cancel must still stop the model call behind it.
    if (!c.streams.size) componentSignal.release();
    c.finishedMono = c.streams.size ? 0 : clock.monotonic();
  }
  return ctx;
}
