/**
 * The process's pool of parse workers (one per context), created on first use and closed with the
 * context. They are child processes, not threads: a native decoder crashing on a hostile file, a
 * heap overflow or a runaway Buffer ends only that worker and fails only its document. Size:
 * PARSE_THREADS, or by default the worker concurrency capped at the cores left after the API's own
 * thread, so the event loop keeps a core for requests while documents parse.
 */
import os from 'node:os';
import type { AppContext } from '../context.js';
import { WorkerPool } from './worker-pool.js';

const pools = new WeakMap<AppContext, WorkerPool>();

/** Heap limit of each parse worker: a decompression bomb or a hostile file stops here, not the server. */
export const PARSE_HEAP_MB = 1024;
/** Time limit of one job on a parse worker. */
export const PARSE_TIMEOUT_MS = 10 * 60_000;

export function parseThreadCount(ctx: AppContext): number {
  if (ctx.config.parseThreads > 0) return ctx.config.parseThreads;
  const spare = Math.max(1, os.availableParallelism() - 1);
  return Math.max(1, Math.min(ctx.config.workerConcurrency, spare));
}

export function parsePoolOf(ctx: AppContext): WorkerPool {
  let pool = pools.get(ctx);
  if (!pool) {
    pool = new WorkerPool({
      entry: 'ingest/parse.worker',
      size: parseThreadCount(ctx),
      isolation: 'process',
      maxHeapMb: PARSE_HEAP_MB,
      defaultTimeoutMs: PARSE_TIMEOUT_MS,
    });
    pools.set(ctx, pool);
    const created = pool;
    ctx.onClose.push(() => created.close());
  }
  return pool;
}
