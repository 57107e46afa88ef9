/**
 * Running an agent turn as a typed task (`agent_run`). The request's process runs it at once — the
 * stream reads the run's feed, and a browser that goes away stops nothing — while the task row
 * (leased by this process, renewed, with its cancel flag) makes it cancellable from any request and
 * lets a worker run it again if this process stops before it ended. Every event lands in the run's
 * `canvas_run` row (written as it goes, by the process's one RunLogFlusher), which `GET /v1/canvas/trace` replays.
 *
 * When the run ends, one transaction writes its results: the target's DSL (and session messages)
 * only for a finished or paused run, the run log, and the task's end. A run that failed or was
 * cancelled leaves the canvas as it was.
 */
import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  isErrorEvent,
  runCanvas,
  type CanvasRun,
  type RunEvent,
  type RunLimits,
  type RunOutcome,
} from '@lectern/agent-core';
import type { AppContext } from '../context.js';
import { toJson } from '../db/json.js';
import type { Database } from '../db/types.js';
import { newTaskRow } from '../queue/enqueue.js';
import { renewLease } from '../queue/claim.js';
import { logLine } from '../queue/log.js';
import { creationStamps, updateStamps } from '../util/time.js';
import { newId } from '../util/ids.js';
import { RunFeed, type LiveRun } from './live-runs.js';
import { RunTrace } from './run-trace.js';
import type { AgentServices } from './services.js';

export interface RunRequestSpec {
  query: string;
  files: unknown[];
  inputs: Record<string, unknown>;
  /** The end user (`sys.user_id`). */
  userId: string;
}

export interface RunTarget {
  canvasId: string;
  /** The canvas owner's tenant: its models, KBs and tools serve the run. */
  tenantId: string;
  /** The session run on, or null for the canvas's own conversation. */
  sessionId: string | null;
  /** The DSL the turn continues. */
  dsl: unknown;
  /** Writes a finished or paused run's results, inside the final transaction. */
  save(tx: Kysely<Database>, result: RunResult): Promise<void>;
}

export interface RunResult {
  run: CanvasRun;
  outcome: RunOutcome;
  events: readonly RunEvent[];
  elapsedMs: number;
}

export interface StartOptions {
  /** Run again under an existing task (a worker recovering it holds the lease). */
  task?: { id: string; owner: string; messageId: string; signal: AbortSignal };
  limits?: Partial<RunLimits>;
}

/** Ids whose first uuid is the given message id (a recovered run keeps its message id). */
function idsStartingWith(messageId: string) {
  let first = true;
  return {
    uuid: () => {
      if (!first) return crypto.randomUUID();
      first = false;
      return messageId;
    },
    random: () => Math.random(),
  };
}

const statusOf = (o: RunOutcome) => o.status;

/**
 * Starts the turn. A malformed DSL throws agent-core's `DslError` before anything is written.
 * Resolves once the task and run log rows exist; the run continues in the background.
 */
export async function startRun(
  ctx: AppContext,
  agents: AgentServices,
  target: RunTarget,
  request: RunRequestSpec,
  opts: StartOptions = {},
): Promise<LiveRun> {
  const taskId = opts.task?.id ?? newId();
  const controller = new AbortController();
  opts.task?.signal.addEventListener('abort', () => controller.abort(), { once: true });
  // One trace per run when the canvas owner has tracing keys (API.md §14); never fails the run.
  const trace = await ctx.tracing.start(target.tenantId, {
    name: 'agent',
    input: request.query,
    userId: request.userId,
    sessionId: target.sessionId ?? undefined,
    metadata: { canvas_id: target.canvasId, inputs: request.inputs },
  });
  const runTrace = new RunTrace(trace);
  const ports = agents.portsFor(target.tenantId, target.canvasId, runTrace.traced ? trace : undefined);
  const run = runCanvas({
    dsl: target.dsl,
    query: request.query,
    files: request.files as never[],
    inputs: request.inputs,
    userId: request.userId,
    taskId,
    ports: opts.task ? { ...ports, ids: idsStartingWith(opts.task.messageId) } : ports,
    signal: controller.signal,
    limits: opts.limits,
  });
  const started = Date.now();
  const owner = agents.owner;
  const leaseOwner = opts.task?.owner ?? owner;
  const db = ctx.db.kysely;
  try {
    await db.transaction().execute(async (tx) => {
      if (!opts.task) {
        const row = newTaskRow(
          'agent_run',
          {
            canvas_id: target.canvasId,
            session_id: target.sessionId ?? '',
            message_id: run.messageId,
            user_id: request.userId,
            request: {
              query: request.query,
              files: request.files as never[],
              inputs: request.inputs as Record<string, never>,
            },
          },
          { doc_id: target.canvasId, kb_id: '', tenant_id: target.tenantId },
        );
        await tx
          .insertInto('task')
          .values({
            ...row,
            id: taskId,
            lease_owner: owner,
            lease_until: started + ctx.config.taskLeaseMs,
            begin_at: started,
          })
          .execute();
      }
      // A run started again (a task picked up after a restart) replaces its old log; a new run's
      // message id is fresh, so it has none to delete.
      if (opts.task) await tx.deleteFrom('canvas_run').where('id', '=', run.messageId).execute();
      await tx
        .insertInto('canvas_run')
        .values({
          id: run.messageId,
          canvas_id: target.canvasId,
          task_id: taskId,
          session_id: target.sessionId,
          tenant_id: target.tenantId,
          status: 'running',
          events: '[]',
          trace: '[]',
          ...creationStamps(started),
        })
        .execute();
    });
  } catch (err) {
    run.cancel();
    ports.release();
    runTrace.abandon(err instanceof Error ? err.message : String(err));
    throw err;
  }

  const feed = new RunFeed();
  const log = { id: run.messageId, eventsJson: () => feed.eventsJson(), trace: () => run.trace };
  // Our own lease: renewing it also notices a cancel set by another process.
  const lease = opts.task
    ? undefined
    : setInterval(
        () => {
          void renewLease(ctx.db, taskId, owner, ctx.config.taskLeaseMs).then(
            (state) => state !== 'held' && controller.abort(),
            () => undefined,
          );
        },
        Math.max(200, Math.floor(ctx.config.taskLeaseMs / 3)),
      );
  lease?.unref();

  const finished = (async () => {
    try {
      for await (const e of run) {
        feed.push(e);
        runTrace.observe(e);
        agents.logs.touch(log);
      }
      const outcome = await run.outcome;
      runTrace.finish(outcome);
      agents.logs.forget(log.id);
      await finish(ctx, target, run, outcome, feed, started, taskId, leaseOwner);
    } finally {
      // Success, failure or cancel: the run's MCP sessions go back to the pool.
      ports.release();
      runTrace.abandon('The run stopped before it ended.');
      agents.logs.forget(log.id);
      if (lease) clearInterval(lease);
      feed.end();
    }
  })();
  const live: LiveRun = {
    taskId,
    messageId: run.messageId,
    canvasId: target.canvasId,
    tenantId: target.tenantId,
    feed,
    cancel: () => controller.abort(),
    finished: finished.catch(() => undefined),
  };
  agents.runs.add(live);
  return live;
}

/** The final transaction: the target's results (finished/paused only), the run log, the task's end. */
async function finish(
  ctx: AppContext,
  target: RunTarget,
  run: CanvasRun,
  outcome: RunOutcome,
  feed: RunFeed,
  started: number,
  taskId: string,
  leaseOwner: string,
): Promise<void> {
  const elapsedMs = Date.now() - started;
  const write = async (status: string, saveTarget: boolean) =>
    ctx.db.kysely.transaction().execute(async (tx) => {
      if (saveTarget) await target.save(tx, { run, outcome, events: feed.events, elapsedMs });
      await tx
        .updateTable('canvas_run')
        .set({ status, events: toJson(feed.events), trace: toJson(run.trace), ...updateStamps() })
        .where('id', '=', run.messageId)
        .execute();
      const failed = status === 'error' || status === 'cancelled';
      const line = failed ? `[ERROR]${outcome.error ?? status}` : `Run ${status}.`;
      const task = { from_page: 0, to_page: 100_000_000 };
      await tx
        .updateTable('task')
        .set({
          progress: failed ? -1 : 1,
          progress_msg: logLine(task, line),
          process_duration: elapsedMs / 1000,
          ...updateStamps(),
        })
        .where('id', '=', taskId)
        .where('lease_owner', '=', leaseOwner)
        .execute();
    });
  const status = statusOf(outcome);
  const saves = status === 'finished' || status === 'paused';
  try {
    await write(status, saves);
  } catch {
    // The results could not be written: say so on the stream and keep the canvas as it was.
    if (!feed.events.some(isErrorEvent))
      feed.push({ code: 500, message: 'The run ended but its results could not be saved.', data: false });
    await write('error', false).catch(() => undefined);
  }
}
