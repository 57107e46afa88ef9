/**
 * The process's pool of parse workers, built once by the composition root (root.ts) and closed with
 * it. They are child processes, not threads: a native decoder crashing on a hostile file, a heap
 * overflow or a runaway Buffer ends only that worker and fails only its document. Size:
 * PARSE_THREADS, or by default the worker concurrency capped at the cores left after the API's own
 * thread, so the event loop keeps a core for requests while documents parse.
 */
import os from 'node:os';
import type { Config } from '../config.js';
import { WorkerPool } from '../util/worker-pool.js';

/** Heap limit of each parse worker: a decompression bomb or a hostile file stops here, not the server. */
export const PARSE_HEAP_MB = 1024;
/** Time limit of one job on a parse worker. */
export const PARSE_TIMEOUT_MS = 10 * 60_000;

export function parseThreadCount(config: Config): number {
  if (config.parseThreads > 0) return config.parseThreads;
  const spare = Math.max(1, os.availableParallelism() - 1);
  return Math.max(1, Math.min(config.workerConcurrency, spare));
}

export function createParsePool(config: Config): WorkerPool {
  return new WorkerPool({
    entry: 'ingest/parse.worker',
    size: parseThreadCount(config),
    isolation: 'process',
    maxHeapMb: PARSE_HEAP_MB,
    defaultTimeoutMs: PARSE_TIMEOUT_MS,
  });
}
