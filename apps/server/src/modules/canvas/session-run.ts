/**
 * One turn of an agent session (API.md §13.2, AGENTS.md §7.4), shared by `/v1/canvas/<id>/completion`,
 * `/api/v1/agents/<id>/completions`, the OpenAI-compatible agent route and the agentbot embed: the
 * session (given, or a new one), the run started as a typed task, its feed streamed or collected.
 */
import type { FastifyReply } from 'fastify';
import { isErrorEvent, type RunEvent } from '@lectern/agent-core';
import { sseFrame, SseWriter } from '../../chat/sse.js';
import { sessionTarget } from '../../agents/targets.js';
import { startRun, type RunRequestSpec, type RunTarget } from '../../agents/runner.js';
import type { LiveRun } from '../../agents/live-runs.js';
import type { UserCanvasRow } from '../../db/tables/canvas.js';
import type { ServerContext } from '../context.js';
import { dslRefusal } from './service.js';
import { newAgentSession, sessionOf } from './sessions.js';

export async function startTurn(ctx: ServerContext, target: RunTarget, request: RunRequestSpec) {
  try {
    return await startRun(ctx, ctx.agents, target, request);
  } catch (err) {
    throw dslRefusal(err) ?? err;
  }
}

export interface SessionTurn {
  /** The question (`query`, or its alias `question`). */
  query: string;
  files: unknown[];
  inputs: Record<string, unknown>;
  /** The end user (`sys.user_id`); a new session is theirs. */
  userId: string;
  /** The session to continue; none → a new session of the canvas. */
  sessionId?: string;
}

/** Starts a turn on the session (a new one without `sessionId`; unknown → 102 "Session not found!"). */
export async function startSessionTurn(
  ctx: ServerContext,
  canvas: UserCanvasRow,
  turn: SessionTurn,
): Promise<{ live: LiveRun; sessionId: string }> {
  const session = turn.sessionId
    ? await sessionOf(ctx, canvas.id, turn.sessionId)
    : await newAgentSession(ctx, canvas, turn.userId, undefined);
  const request = { query: turn.query, files: turn.files, inputs: turn.inputs, userId: turn.userId };
  const live = await startTurn(ctx, sessionTarget(canvas, session, request), request);
  return { live, sessionId: session.id };
}

/** Streams a run's feed; `pick` maps each event to the frame sent (null = not forwarded). */
export async function streamFeed(
  reply: FastifyReply,
  live: LiveRun,
  pick: (e: RunEvent) => unknown,
  last = '',
): Promise<void> {
  const sse = new SseWriter(reply);
  sse.open();
  for await (const batch of live.feed.followBatches()) {
    let frames = '';
    for (const e of batch) {
      const frame = pick(e);
      if (frame !== null) frames += sseFrame(frame);
    }
    if (frames && !sse.write(frames)) break; // the client left; the run goes on
  }
  sse.close(last);
}

type TraceItem = { component_id: string; trace: unknown[] };

/**
 * The frames a session client sees: errors, `message` and `message_end` tagged with the session,
 * and with `returnTrace` each `node_finished` carrying the running list of finished nodes.
 */
export function sessionFrames(sessionId: string, returnTrace: boolean) {
  const finished: TraceItem[] = [];
  return (e: RunEvent): unknown => {
    if (isErrorEvent(e)) return e;
    const tagged = { ...e, session_id: sessionId };
    if (e.event === 'message' || e.event === 'message_end') return tagged;
    if (e.event !== 'node_finished' || !returnTrace) return null;
    finished.push({ component_id: e.data.component_id, trace: [e.data] });
    return { ...tagged, data: { ...e.data, trace: structuredClone(finished) } };
  };
}

export interface CollectedRun {
  /** The run's error event, when it failed. */
  error?: { code: number; message: string };
  /** The last event of the run (`workflow_finished`, or `user_inputs` when it paused). */
  last?: Exclude<RunEvent, { code: number }>;
  /** The answer text (think markers kept as `<think>` tags). */
  content: string;
  /** The reference buckets of the run's `message_end`s merged. */
  reference: { chunks: Record<string, unknown>; doc_aggs: Record<string, unknown> };
  trace: TraceItem[];
}

/** Waits for the whole run and gathers its answer (`stream: false`). */
export async function collectRun(live: LiveRun): Promise<CollectedRun> {
  const out: CollectedRun = { content: '', reference: { chunks: {}, doc_aggs: {} }, trace: [] };
  for await (const e of live.feed.follow()) {
    if (isErrorEvent(e)) {
      out.error = { code: e.code, message: e.message };
      continue;
    }
    out.last = e;
    if (e.event === 'message') {
      if (e.data.start_to_think) out.content += '<think>';
      out.content += e.data.content;
      if (e.data.end_to_think) out.content += '</think>';
    } else if (e.event === 'message_end' && e.data.reference) {
      Object.assign(out.reference.chunks, e.data.reference.chunks);
      Object.assign(out.reference.doc_aggs, e.data.reference.doc_aggs);
    } else if (e.event === 'node_finished') {
      out.trace.push({ component_id: e.data.component_id, trace: [structuredClone(e.data)] });
    }
  }
  return out;
}

/** The `stream: false` answer: the last event with the whole answer, its reference and (asked) the trace. */
export function collectedAnswer(run: CollectedRun, sessionId: string, returnTrace: boolean) {
  const last = run.last;
  return {
    ...(last ?? { event: 'workflow_finished', message_id: '', created_at: 0, task_id: '' }),
    session_id: sessionId,
    data: {
      ...(last?.data ?? {}),
      content: run.content,
      reference: run.reference,
      ...(returnTrace ? { trace: run.trace } : {}),
    },
  };
}

/** Whether the canvas can run as an agent (ingestion pipelines cannot). */
export function isAgentCanvas(canvas: Pick<UserCanvasRow, 'canvas_category'>): boolean {
  return canvas.canvas_category !== 'dataflow_canvas';
}
