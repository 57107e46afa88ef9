/**
 * This process's task workers (LECTERN_ROLE all|worker): up to `workerConcurrency` tasks at a time,
 * of the kinds it has handlers for, each claimed with a lease that a heartbeat keeps extending while
 * it runs. Also publishes the worker's heartbeat to the kv table (for /v1/system/status) and calls
 * each handler's housekeeping every few seconds. A failing task ends with a readable message in its
 * own log; nothing here can bring the process down.
 */
import crypto from 'node:crypto';
import os from 'node:os';
import { progressMessage, type TaskKind } from '@lectern/shared';
import type { AppContext } from '../context.js';
import { claimNextTask, MAX_RETRIES, releaseLeases, renewLease } from './claim.js';
import type { TaskHandler, TaskHandlers } from './handlers.js';
import { TaskCancelled, TaskLost, TaskProgress } from './progress.js';

export interface WorkerOptions {
  /** Lease length; a task whose worker stops beating for this long is claimed again. */
  leaseMs?: number;
  pollMs?: number;
  tickMs?: number;
  heartbeatMs?: number;
  concurrency?: number;
}

export interface WorkerHost {
  name: string;
  /** Orderly stop: running tasks are stopped and handed back to the queue. */
  stop(): Promise<void>;
}

const DEFAULTS = { pollMs: 1_000, tickMs: 3_000, heartbeatMs: 10_000 };

/** A readable sentence for the task log: the handler's own wording, else the error without internals. */
export function failureMessage(handler: TaskHandler, err: unknown): string {
  const own = handler.describeFailure?.(err);
  if (own) return own;
  const e = err instanceof Error ? err : new Error(String(err));
  if (e.name === 'ModelError') return progressMessage('modelCallFailed', { error: e.message });
  const first = (e.message || 'unknown error').split('\n')[0].slice(0, 300);
  return progressMessage('taskFailed', { error: first });
}

export async function startWorkerHost(
  ctx: AppContext,
  handlers: TaskHandlers,
  options: WorkerOptions = {},
): Promise<WorkerHost> {
  const kinds = Object.keys(handlers) as TaskKind[];
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

  const work = async (progress: TaskProgress, handler: TaskHandler, controller: AbortController) => {
    const task = progress.task;
    const lease = setInterval(
      () => {
        void renewLease(ctx.db, task.id, name, o.leaseMs).then(
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
        await progress.fail(` ${progressMessage('taskInterrupted', { count: task.retry_count })}`);
        stats.failed += 1;
        return;
      }
      await handler.run(progress, controller.signal);
      stats.done += 1;
    } catch (err) {
      const reason = controller.signal.aborted ? controller.signal.reason : err;
      if (reason instanceof TaskCancelled || err instanceof TaskCancelled) {
        await progress.cancelled().catch(() => undefined);
      } else if (reason instanceof TaskLost || err instanceof TaskLost || stopping) {
        // Not ours any more (deleted, re-claimed elsewhere) or we are shutting down: write nothing.
      } else {
        stats.failed += 1;
        await progress.fail(` ${failureMessage(handler, err)}`).catch(() => undefined);
      }
    } finally {
      clearInterval(lease);
    }
  };

  const fill = async () => {
    while (!stopping && running.size < concurrency) {
      const task = await claimNextTask(ctx.db, name, o.leaseMs, kinds).catch(() => null);
      if (!task) break;
      const handler = handlers[task.kind as TaskKind];
      if (!handler) break;
      stats.lag = task.begin_at ? Math.max(0, task.begin_at - task.create_time) : 0;
      const controller = new AbortController();
      running.set(task.id, controller);
      const progress = new TaskProgress(ctx.db, task, name, async (p) => handler.afterWrite?.(p));
      void work(progress, handler, controller).finally(() => {
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
  // Handlers start with the host (parsing warms its parser processes, so the first document does not wait).
  for (const h of Object.values(handlers)) void Promise.resolve(h.start?.()).catch(() => undefined);
  const tick = () => {
    for (const h of Object.values(handlers)) void h.tick?.().catch(() => undefined);
  };
  const timers = [
    setInterval(() => void beat(), o.heartbeatMs),
    setInterval(poke, o.pollMs),
    setInterval(tick, o.tickMs),
  ];
  for (const t of timers) t.unref();
  const unsubscribe = ctx.queue.onQueued(poke);
  poke();

  return {
    name,
    async stop() {
      stopping = true;
      unsubscribe();
      for (const t of timers) clearInterval(t);
      for (const c of running.values()) c.abort(new TaskLost());
      const deadline = Date.now() + 10_000;
      while (running.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      await releaseLeases(ctx.db, name).catch(() => undefined);
      await ctx.db.kysely
        .deleteFrom('kv')
        .where('key', '=', `heartbeat:${name}`)
        .execute()
        .catch(() => undefined);
    },
  };
}
