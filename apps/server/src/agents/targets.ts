/**
 * What a run continues and where its results go (AGENTS.md §7.4): the canvas's own conversation
 * (the editor's Run panel — the updated DSL is saved to the canvas) or an agent session (an
 * `api_4_conversation` row with `source "agent"` — its DSL, the user and assistant messages, the
 * answer's reference, rounds, tokens and duration).
 */
import { isErrorEvent, type RunEvent } from '@lectern/agent-core';
import { parseJson, toJson } from '../db/json.js';
import type { UserCanvasRow } from '../db/tables/canvas.js';
import { updateStamps } from '../util/time.js';
import type { RunTarget } from './runner.js';

/** The answer text of a run: its message deltas, with the think markers put back as tags. */
export function answerOf(events: readonly RunEvent[]): string {
  let out = '';
  for (const e of events) {
    if (isErrorEvent(e) || e.event !== 'message') continue;
    if (e.data.start_to_think) out += '<think>';
    out += e.data.content;
    if (e.data.end_to_think) out += '</think>';
  }
  return out;
}

/** The reference bucket of the run's last `message_end` that had one, else an empty bucket. */
export function referenceOf(events: readonly RunEvent[]): unknown {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i];
    if (!isErrorEvent(e) && e.event === 'message_end' && e.data.reference) return e.data.reference;
  }
  return { chunks: {}, doc_aggs: {} };
}

export function canvasTarget(canvas: Pick<UserCanvasRow, 'id' | 'user_id' | 'dsl'>): RunTarget {
  return {
    canvasId: canvas.id,
    tenantId: canvas.user_id,
    sessionId: null,
    dsl: parseJson<unknown>(canvas.dsl, {}),
    async save(tx, { run }) {
      await tx
        .updateTable('user_canvas')
        .set({ dsl: toJson(run.dsl), ...updateStamps() })
        .where('id', '=', canvas.id)
        .execute();
    },
  };
}

export interface SessionMessage {
  role: string;
  content: string;
  [k: string]: unknown;
}

export function sessionTarget(
  canvas: Pick<UserCanvasRow, 'id' | 'user_id'>,
  session: { id: string; dsl: unknown },
  request: { query: string; files: unknown[] },
): RunTarget {
  return {
    canvasId: canvas.id,
    tenantId: canvas.user_id,
    sessionId: session.id,
    dsl: parseJson<unknown>(session.dsl, {}),
    async save(tx, { run, outcome, events, elapsedMs }) {
      // Read again inside the transaction: another turn of the same session may have ended meanwhile.
      const row = await tx
        .selectFrom('api_4_conversation')
        .select(['message', 'reference', 'round', 'tokens', 'duration'])
        .where('id', '=', session.id)
        .executeTakeFirst();
      if (!row) return; // the session was removed during the run
      const messages = parseJson<SessionMessage[]>(row.message, []);
      const references = parseJson<unknown[]>(row.reference, []);
      if (request.query || request.files.length)
        messages.push({ role: 'user', content: request.query, id: run.messageId, files: request.files });
      messages.push({
        role: 'assistant',
        content: answerOf(events),
        created_at: Date.now() / 1000,
        id: run.messageId,
      });
      references.push(referenceOf(events));
      await tx
        .updateTable('api_4_conversation')
        .set({
          dsl: toJson(run.dsl),
          message: toJson(messages),
          reference: toJson(references),
          round: row.round + 1,
          tokens: row.tokens + outcome.usage.totalTokens,
          duration: row.duration + elapsedMs / 1000,
          ...updateStamps(),
        })
        .where('id', '=', session.id)
        .execute();
    },
  };
}
