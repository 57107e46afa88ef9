/**
 * Idempotent POSTs (README "Idempotent requests"): a client that may send the same request twice (a
 * double-clicked Create, a retry after a network error) names it with an `Idempotency-Key` header.
 * Scope: the signed-in user + the route + the key. The first request runs; while it runs, a repeat
 * waits for it (at most `WAIT_MS`, then code 106 "still running"); once it succeeded (envelope code
 * 0), a repeat within `TTL_MS` gets the same answer without running again (header
 * `Idempotent-Replayed: true`). A failed first attempt is forgotten, so a retry runs anew. The same key
 * with a different body is refused (101): it names another request. Requests without the header are
 * untouched.
 *
 * The records live in the metadata database (`idempotency_key`, migration 0014), so every API process
 * on one database sees them: a repeat sent to another process waits for or replays the first one. The
 * primary key decides who runs (insert … on conflict do nothing); the remembered answer is sealed with
 * the server key (it may hold a new API key, shown once). A row left `running` by a process that died
 * frees itself after `RUNNING_LEASE_MS`.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { RetCode } from '@lectern/shared';
import type { Db } from '../db/connection.js';
import { randomHex, sha256, type Secrets } from '../security/secrets.js';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const TTL_MS = 10 * 60_000;
/** How long a repeat waits for the first attempt before answering 106. */
export const WAIT_MS = 60_000;
const RUNNING_LEASE_MS = 15 * 60_000;
const POLL_MS = 40;
const SWEEP_EVERY_MS = 60_000;
const MAX_KEY_LENGTH = 255;

interface Answer {
  status: number;
  contentType: string;
  payload: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    idempotency?: { scopeHash: string; owner: string; captured?: Answer };
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

const refusal = (code: number, message: string) => ({ code, message, data: null });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function installIdempotency(app: FastifyInstance, db: Db, secrets: Secrets): void {
  const table = () => db.kysely.selectFrom('idempotency_key');
  let lastSweep = 0;

  /** Expired records (answers older than TTL_MS, runs of dead processes) are dropped now and then. */
  const sweep = (now: number) => {
    if (now - lastSweep < SWEEP_EVERY_MS) return;
    lastSweep = now;
    void db.kysely
      .deleteFrom('idempotency_key')
      .where('expires_at', '<', now)
      .execute()
      .catch((err: unknown) => app.log.warn({ err }, 'idempotency sweep failed'));
  };

  /** True when this attempt now owns the key (it runs the request). */
  const claim = async (scopeHash: string, bodyHash: string, owner: string, now: number) => {
    const inserted = await db.kysely
      .insertInto('idempotency_key')
      .values({
        scope_hash: scopeHash,
        body_hash: bodyHash,
        owner,
        state: 'running',
        status: null,
        content_type: null,
        payload: null,
        expires_at: now + RUNNING_LEASE_MS,
      })
      .onConflict((oc) => oc.column('scope_hash').doNothing())
      .executeTakeFirst();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
  };

  /** Remembers the first attempt's answer, or forgets the key when there is none to replay. */
  const settle = async (scopeHash: string, owner: string, captured: Answer | undefined) => {
    if (captured)
      await db.kysely
        .updateTable('idempotency_key')
        .set({
          state: 'done',
          status: captured.status,
          content_type: captured.contentType,
          payload: secrets.encrypt(captured.payload),
          expires_at: Date.now() + TTL_MS,
        })
        .where('scope_hash', '=', scopeHash)
        .where('owner', '=', owner)
        .execute();
    else
      await db.kysely
        .deleteFrom('idempotency_key')
        .where('scope_hash', '=', scopeHash)
        .where('owner', '=', owner)
        .execute();
  };

  app.addHook('preHandler', async (req, reply) => {
    if (req.method !== 'POST' || !req.auth) return;
    const key = keyOf(req);
    if (key === null) return;
    if (key.length > MAX_KEY_LENGTH)
      return reply.send(refusal(RetCode.ARGUMENT_ERROR, 'Idempotency-Key is too long.'));
    const scopeHash = sha256(`${req.auth.user.id}\n${req.routeOptions.url ?? req.url}\n${key}`);
    const bodyHash = sha256(JSON.stringify(req.body ?? null));
    const owner = randomHex(16);
    const deadline = Date.now() + WAIT_MS;
    sweep(Date.now());
    for (;;) {
      const now = Date.now();
      if (await claim(scopeHash, bodyHash, owner, now)) break;
      const seen = await table().selectAll().where('scope_hash', '=', scopeHash).executeTakeFirst();
      if (!seen) continue; // the first attempt failed and let go between the two statements
      if (Number(seen.expires_at) <= now) {
        await db.kysely
          .deleteFrom('idempotency_key')
          .where('scope_hash', '=', scopeHash)
          .where('owner', '=', seen.owner)
          .execute();
        continue;
      }
      if (seen.body_hash !== bodyHash)
        return reply.send(
          refusal(RetCode.ARGUMENT_ERROR, 'This Idempotency-Key was used for a different request.'),
        );
      if (seen.state === 'done' && seen.payload !== null)
        return replay(reply, {
          status: Number(seen.status ?? 200),
          contentType: seen.content_type ?? 'application/json; charset=utf-8',
          payload: secrets.decrypt(seen.payload),
        });
      if (now >= deadline)
        return reply.send(
          refusal(
            RetCode.RUNNING,
            'The first request with this Idempotency-Key is still running; try again later.',
          ),
        );
      await sleep(POLL_MS);
    }
    const held = { scopeHash, owner } as NonNullable<FastifyRequest['idempotency']>;
    req.idempotency = held;
    // Settled once the response is over, whatever it was (an SSE stream or a dropped client included).
    reply.raw.once('close', () => {
      settle(scopeHash, owner, held.captured).catch((err: unknown) =>
        app.log.warn({ err }, 'idempotency record not settled'),
      );
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
