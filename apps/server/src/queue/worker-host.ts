/**
 * This process's task workers (LECTERN_ROLE all|worker): up to `workerConcurrency` parse tasks at a
 * time, each claimed with a lease that a heartbeat keeps extending while it runs. Also publishes the
 * worker's heartbeat to the kv table (for /v1/system/status) and rolls running documents up every
 * few seconds. A malformed file fails its own task with a readable message; nothing here can bring
 * the process down.
 */
import crypto from 'node:crypto';
import os from 'node:os';
import type { AppContext } from '../context.js';
import { isParseError } from '../ingest/errors.js';
import { runParseTask } from '../ingest/pipeline.js';
import { chunkIndexOf } from '../modules/kb/chunk-store.js';
import { claimNextTask, MAX_RETRIES, releaseLeases, renewLease } from './claim.js';
import { TaskCancelled, TaskLost, TaskProgress } from './progress.js';
import { rollupRunning } from './rollup.js';
import { parsePoolOf } from './parse-pool.js';
import { queueEvents } from './signal.js';
import { WorkerJobError } from './worker-pool.js';

export interface WorkerOptions {
  /** Lease length; a task whose worker stops beating for this long is claimed again. */
  leaseMs?: number;
  pollMs?: number;
  rollupMs?: number;
  heartbeatMs?: number;
  concurrency?: number;
}

export interface WorkerHost {
  name: string;
  /** Orderly stop: running tasks are stopped and handed back to the queue. */
  stop(): Promise<void>;
}

const DEFAULTS = { pollMs: 1_000, rollupMs: 3_000, heartbeatMs: 10_000 };

/** A readable sentence for the task log: parser messages as they are, others without internals. */
export function failureMessage(err: unknown): string {
  if (isParseError(err) || err instanceof WorkerJobError) return (err as Error).message;
  const e = err instanceof Error ? err : new Error(String(err));
  if (e.name === 'ModelError') return `The model call failed: ${e.message}`;
  const first = (e.message || 'unknown error').split('\n')[0].slice(0, 300);
  return `Parsing failed: ${first}`;
}

export async function startWorkerHost(ctx: AppContext, options: WorkerOptions = {}): Promise<WorkerHost> {
  const o = { ...DEFAULTS, leaseMs: ctx.config.taskLeaseMs, ...options };
  const concurrency = options.concurrency ?? ctx.config.workerConcurrency;
  const name = `${os.hostname()}-${process.pid}-${crypto.randomBytes(3).toString('hex')}`;
  const running = new Map<string, AbortController>();
  const stats = { done: 0, failed: 0, lag: 0 };
  let stopping = false;
  const bootAt = Date.now();

  const beat = async () => {
    const now = Date.now();
    const value = JSON.stringify({
      name,
      now,
      pid: process.pid,
      boot_at: bootAt,
      pending: running.size,
      done: stats.done,
      failed: stats.failed,
      lag: stats.lag,
    });
    await ctx.db.kysely
      .insertInto('kv')
      .values({ key: `heartbeat:${name}`, value, update_time: now })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value, update_time: now }))
      .execute()
      .catch(() => undefined);
  };

  const work = async (progress: TaskProgress, controller: AbortController) => {
    const task = progress.task;
    const lease = setInterval(
      () => {
        void renewLease(ctx, task.id, name, o.leaseMs).then(
          (state) => {
            // The heartbeat also notices a cancel while the task waits for a parse worker or a model.
            if (state === 'lost') controller.abort(new TaskLost());
            if (state === 'cancelled') controller.abort(new TaskCancelled());
          },
          () => undefined,
        );
      },
      Math.max(200, Math.floor(o.leaseMs / 3)),
    );
    lease.unref();
    try {
      if (task.retry_count > MAX_RETRIES) {
        await progress.fail(
          ` The task was interrupted ${task.retry_count} times (its worker stopped while processing it) and was given up. Run the document again to retry.`,
        );
        stats.failed += 1;
        return;
      }
      await runParseTask(ctx, progress, name, controller.signal);
      stats.done += 1;
    } catch (err) {
      const reason = controller.signal.aborted ? controller.signal.reason : err;
      if (reason instanceof TaskCancelled || err instanceof TaskCancelled) {
        await progress.cancelled().catch(() => undefined);
      } else if (reason instanceof TaskLost || err instanceof TaskLost || stopping) {
        // Not ours any more (deleted, re-claimed elsewhere) or we are shutting down: write nothing.
      } else {
        stats.failed += 1;
        await progress.fail(` ${failureMessage(err)}`).catch(() => undefined);
      }
    } finally {
      clearInterval(lease);
    }
  };

  const fill = async () => {
    while (!stopping && running.size < concurrency) {
      const task = await claimNextTask(ctx, name, o.leaseMs).catch(() => null);
      if (!task) break;
      stats.lag = task.begin_at ? Math.max(0, task.begin_at - task.create_time) : 0;
      const controller = new AbortController();
      running.set(task.id, controller);
      const progress = new TaskProgress(ctx, task, name);
      void work(progress, controller).finally(() => {
        running.delete(task.id);
        poke();
      });
    }
  };

  let filling = false;
  const poke = () => {
    if (filling || stopping) return;
    filling = true;
    void fill().finally(() => {
      filling = false;
    });
  };

  await beat();
  // Parse workers start with the host, so the first document does not wait for them to boot.
  void parsePoolOf(ctx).warm();
  const timers = [
    setInterval(() => void beat(), o.heartbeatMs),
    setInterval(poke, o.pollMs),
    setInterval(() => void rollupRunning(ctx).catch(() => undefined), o.rollupMs),
  ];
  for (const t of timers) t.unref();
  const events = queueEvents(ctx);
  events.on('queued', poke);
  poke();

  return {
    name,
    async stop() {
      stopping = true;
      events.off('queued', poke);
      for (const t of timers) clearInterval(t);
      for (const c of running.values()) c.abort(new TaskLost());
      const deadline = Date.now() + 10_000;
      while (running.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      await releaseLeases(ctx, name).catch(() => undefined);
      await ctx.db.kysely
        .deleteFrom('kv')
        .where('key', '=', `heartbeat:${name}`)
        .execute()
        .catch(() => undefined);
    },
  };
}

/** Entry used by main.ts: starts the host and returns its stop function. */
export async function startWorkers(ctx: AppContext): Promise<() => Promise<void>> {
  await chunkIndexOf(ctx);
  const host = await startWorkerHost(ctx);
  return () => host.stop();
}
