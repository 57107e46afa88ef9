import type { Config } from '../config.js';
import { ModelError, ModelTimeoutError, toModelError } from './errors.js';

/** Time limit and retry budget of model calls, from config (MODEL_TIMEOUT_MS, MODEL_MAX_RETRIES, MODEL_RETRY_BASE_MS). */
export interface CallPolicy {
  timeoutMs: number;
  retries: number;
  retryBaseMs: number;
}

const MAX_BACKOFF_MS = 30_000;

export function policyFromConfig(config: Config, overrides: Partial<CallPolicy> = {}): CallPolicy {
  return {
    timeoutMs: config.modelTimeoutMs,
    retries: config.modelMaxRetries,
    retryBaseMs: config.modelRetryBaseMs,
    ...overrides,
  };
}

/**
 * A time limit combined with the caller's cancel signal. `arm()` restarts the clock, so a stream can
 * use it as "the next chunk must arrive within the limit".
 */
export class Deadline {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private readonly onParentAbort = () => this.controller.abort(this.parent?.reason);
  timedOut = false;

  constructor(
    private readonly ms: number,
    private readonly parent?: AbortSignal,
  ) {
    if (parent?.aborted) this.controller.abort(parent.reason);
    else parent?.addEventListener('abort', this.onParentAbort, { once: true });
    this.arm();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  arm(): void {
    clearTimeout(this.timer);
    if (this.controller.signal.aborted) return;
    this.timer = setTimeout(() => {
      this.timedOut = true;
      this.controller.abort(new DOMException(`time limit of ${this.ms} ms exceeded`, 'TimeoutError'));
    }, this.ms);
  }

  /** Stops the request (the consumer went away). */
  cancel(): void {
    this.controller.abort(new DOMException('cancelled', 'AbortError'));
  }

  clear(): void {
    clearTimeout(this.timer);
    this.parent?.removeEventListener('abort', this.onParentAbort);
  }
}

export function backoffMs(attempt: number, policy: CallPolicy, retryAfterMs?: number): number {
  if (retryAfterMs !== undefined && retryAfterMs <= MAX_BACKOFF_MS) return retryAfterMs;
  const exp = Math.min(MAX_BACKOFF_MS, policy.retryBaseMs * 2 ** attempt);
  return Math.round(exp * (0.8 + Math.random() * 0.4));
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export function cancelledError(provider: string): ModelError {
  return new ModelError(`${provider}: call cancelled`, provider, undefined, false);
}

/** The final error of a call: a timeout, a cancel, or the provider's failure (noting spent retries). */
export function finalError(
  provider: string,
  err: unknown,
  deadline: Deadline,
  policy: CallPolicy,
  signal?: AbortSignal,
  attempt = 0,
): ModelError {
  if (deadline.timedOut) return new ModelTimeoutError(provider, policy.timeoutMs);
  if (signal?.aborted) return cancelledError(provider);
  const e = toModelError(provider, err);
  if (attempt > 0 && e.retryable) {
    return new ModelError(
      `${e.message} (gave up after ${attempt} ${attempt === 1 ? 'retry' : 'retries'})`,
      provider,
      e.status,
      false,
    );
  }
  return e;
}

/**
 * Runs one model request with the time limit, retrying 429/5xx/connection failures with exponential
 * backoff (bounded by `policy.retries`). Every failure leaves as a ModelError.
 */
export async function withRetry<T>(
  provider: string,
  policy: CallPolicy,
  signal: AbortSignal | undefined,
  run: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    const deadline = new Deadline(policy.timeoutMs, signal);
    try {
      return await run(deadline.signal);
    } catch (err) {
      const e = finalError(provider, err, deadline, policy, signal);
      if (!e.retryable || attempt >= policy.retries)
        throw finalError(provider, err, deadline, policy, signal, attempt);
      await sleep(backoffMs(attempt, policy, e.retryAfterMs), signal).catch(() => {
        throw cancelledError(provider);
      });
    } finally {
      deadline.clear();
    }
  }
}
