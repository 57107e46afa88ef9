/**
 * Idempotent POSTs (README "Idempotent requests"): a client that may send the same request twice (a
 * double-clicked Create, a retry after a network error) names it with an `Idempotency-Key` header.
 * Scope: the signed-in user + the route + the key. The first request runs; while it runs, a repeat
 * waits for it; once it succeeded (envelope code 0), a repeat within `TTL_MS` gets the same answer
 * without running again (header `Idempotent-Replayed: true`). A failed first attempt is forgotten, so
 * a retry runs anew. The same key with a different body is refused (101): it names another request.
 * Requests without the header are untouched. The memory is the server process's own (one process
 * serves an installation), bounded to `MAX_ENTRIES` keys.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { RetCode } from '@lectern/shared';
import { sha256 } from '../security/secrets.js';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const TTL_MS = 10 * 60_000;
const MAX_ENTRIES = 10_000;
const MAX_KEY_LENGTH = 255;

interface Answer {
  status: number;
  contentType: string;
  payload: string;
}

interface Entry {
  bodyHash: string;
  /** Settles with the remembered answer, or null when the first attempt is not replayable. */
  done: Promise<Answer | null>;
  settle: (answer: Answer | null) => void;
  answer?: Answer;
  expires: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    idempotency?: { scope: string; entry: Entry; captured?: Answer };
  }
}

function keyOf(req: FastifyRequest): string | null {
  const raw = req.headers[IDEMPOTENCY_HEADER];
  const key = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  return key ? key : null;
}

function isSuccessEnvelope(payload: string): boolean {
  try {
    return (JSON.parse(payload) as { code?: unknown }).code === RetCode.SUCCESS;
  } catch {
    return false;
  }
}

function replay(reply: FastifyReply, answer: Answer) {
  return reply
    .header('Idempotent-Replayed', 'true')
    .status(answer.status)
    .type(answer.contentType)
    .send(answer.payload);
}

export function installIdempotency(app: FastifyInstance): void {
  const entries = new Map<string, Entry>();

  const sweep = (now: number) => {
    // Insertion order is age order: drop from the oldest until the rest is young and few enough.
    for (const [scope, e] of entries) {
      if (entries.size <= MAX_ENTRIES && e.expires > now) break;
      entries.delete(scope);
    }
  };

  app.addHook('preHandler', async (req, reply) => {
    if (req.method !== 'POST' || !req.auth) return;
    const key = keyOf(req);
    if (key === null) return;
    if (key.length > MAX_KEY_LENGTH)
      return reply.send({
        code: RetCode.ARGUMENT_ERROR,
        message: 'Idempotency-Key is too long.',
        data: null,
      });
    const scope = `${req.auth.user.id}\n${req.routeOptions.url ?? req.url}\n${key}`;
    const bodyHash = sha256(JSON.stringify(req.body ?? null));
    const now = Date.now();
    sweep(now);
    for (;;) {
      const seen = entries.get(scope);
      if (!seen || seen.expires <= now) break;
      if (seen.bodyHash !== bodyHash)
        return reply.send({
          code: RetCode.ARGUMENT_ERROR,
          message: 'This Idempotency-Key was used for a different request.',
          data: null,
        });
      const answer = seen.answer ?? (await seen.done);
      if (answer) return replay(reply, answer);
      // The first attempt failed or streamed: this one runs (unless another repeat got there first).
    }
    let settle: (answer: Answer | null) => void = () => undefined;
    const done = new Promise<Answer | null>((resolve) => (settle = resolve));
    const entry: Entry = { bodyHash, done, settle, expires: now + TTL_MS };
    entries.set(scope, entry);
    req.idempotency = { scope, entry };
    // Settled once the response is over, whatever it was (an SSE stream or a dropped client included).
    reply.raw.once('close', () => {
      const captured = req.idempotency?.captured;
      if (captured) entry.answer = captured;
      else if (entries.get(scope) === entry) entries.delete(scope);
      entry.settle(captured ?? null);
    });
  });

  app.addHook('onSend', async (req, reply, payload) => {
    const held = req.idempotency;
    if (!held || typeof payload !== 'string' || !isSuccessEnvelope(payload)) return payload;
    held.captured = {
      status: reply.statusCode,
      contentType: String(reply.getHeader('content-type') ?? 'application/json; charset=utf-8'),
      payload,
    };
    return payload;
  });
}
