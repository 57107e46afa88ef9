/**
 * Bounded concurrency for model calls. Model-bound jobs (graph extraction, summaries, reports, RAPTOR)
 * are throughput-limited by how many calls are in flight, so the scheduler is a pool of `limit` workers
 * pulling the next item as soon as their previous one settles: `limit` calls stay in flight until the
 * queue runs dry, with no batch barrier (a batch-of-N scheme waits for its slowest call before
 * starting the next N, leaving slots idle).
 */

/** Throws the signal's reason (an AbortError by default) when it has been aborted. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw abortReason(signal);
}

export function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason;
  const err = new Error(typeof reason === 'string' ? reason : 'The operation was aborted');
  err.name = 'AbortError';
  return err;
}

export function isAbortError(err: unknown): boolean {
  return err instanceof Error && (err.name === 'AbortError' || err.name === 'TimeoutError');
}

/**
 * Runs `fn` over `items` with at most `limit` calls pending; results keep the input order. The first
 * error stops handing out new items; the returned promise settles after the calls already running have
 * settled (nothing keeps running after it returns) and rejects with that first error.
 */
export async function mapConcurrent<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
  signal?: AbortSignal,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  const workers = Math.max(1, Math.min(Math.floor(limit) || 1, items.length));
  let next = 0;
  let failure: { error: unknown } | null = null;
  const work = async (): Promise<void> => {
    while (!failure && next < items.length) {
      if (signal?.aborted) {
        failure ??= { error: abortReason(signal) };
        return;
      }
      const index = next++;
      try {
        results[index] = await fn(items[index], index);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: items.length ? workers : 0 }, work));
  if (failure) throw (failure as { error: unknown }).error;
  return results;
}
