import type { Config } from './config.js';
import type { Db } from './db/connection.js';
import type { HealthRegistry } from './health/registry.js';
import type { ChunkIndex } from './chunk-index/chunk-index.js';
import type { TaskSignal } from './queue/signal.js';
import type { Secrets } from './security/secrets.js';
import type { BlobStore } from './storage/blob-store.js';
import type { Tracing } from './tracing/types.js';
import type { WorkerPool } from './util/worker-pool.js';

/**
 * The ports every layer may use, built once per process by the composition root (root.ts) and
 * passed down explicitly — no module-level registries. Domain services built on top of these
 * (chat, and later agents and graph jobs) live in `ServerContext` (modules/context.ts).
 */
export interface AppContext {
  config: Config;
  db: Db;
  secrets: Secrets;
  blobs: BlobStore;
  health: HealthRegistry;
  chunkIndex: ChunkIndex;
  /** Child processes that parse documents (a crashing parser fails one document, never the server). */
  parsePool: WorkerPool;
  /** Wakes this process's workers when a task is queued. */
  queue: TaskSignal;
  /** Traces of chat and agent runs to the tenant's tracing host, when it set keys (API.md §14). */
  tracing: Tracing;
  /** Resources to release on shutdown, last registered first. */
  onClose: Array<() => Promise<void> | void>;
}

export async function closeContext(ctx: Pick<AppContext, 'onClose'>): Promise<void> {
  for (const close of [...ctx.onClose].reverse()) {
    try {
      await close();
    } catch {
      // Shutdown keeps going: one failing resource must not keep the others open.
    }
  }
}
