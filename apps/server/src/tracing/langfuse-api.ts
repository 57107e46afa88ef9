/**
 * The two calls of Langfuse's public API the server makes, through the outbound guard (net/) like
 * every request made on a user's behalf:
 * - `GET <host>/api/public/projects` with Basic auth (public key : secret key) — the keys check;
 *   Langfuse answers the keys' project, or 401 for keys it does not know;
 * - `POST <host>/api/public/ingestion` with a batch of events — 207 with `{successes, errors}`.
 */
import { isOutboundError, safeFetch, type OutboundPolicy } from '../net/index.js';
import type { TracingKeys } from './keys.js';

export type KeyCheck =
  | { ok: true; project: { id: string; name: string } }
  | { ok: false; kind: 'invalid' }
  | { ok: false; kind: 'unreachable'; message: string };

export interface IngestionEvent {
  /** Unique per event (Langfuse deduplicates on it). */
  id: string;
  timestamp: string;
  type: 'trace-create' | 'span-create' | 'generation-create';
  body: Record<string, unknown>;
}

export type BatchOutcome =
  { ok: true; accepted: number; rejected: number; firstError?: string } | { ok: false; message: string };

const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

export function basicAuth(keys: Pick<TracingKeys, 'publicKey' | 'secretKey'>): string {
  return `Basic ${Buffer.from(`${keys.publicKey}:${keys.secretKey}`).toString('base64')}`;
}

function unreachable(err: unknown): string {
  if (isOutboundError(err)) {
    if (err.refused) return `The tracing host is not allowed: ${err.message}`;
    if (err.kind === 'timeout') return 'The tracing host did not answer in time.';
    return `The tracing host could not be reached: ${err.message}`;
  }
  if (err instanceof Error && err.name === 'TimeoutError') return 'The tracing host did not answer in time.';
  return 'The tracing host could not be reached.';
}

/** Checks the keys against the host: the project they belong to, refused keys, or no answer. */
export async function checkKeys(
  policy: OutboundPolicy,
  keys: TracingKeys,
  timeoutMs = 15_000,
): Promise<KeyCheck> {
  let res: Response;
  try {
    res = await safeFetch(policy, `${keys.host}/api/public/projects`, {
      method: 'GET',
      headers: { Authorization: basicAuth(keys), Accept: 'application/json' },
      maxBytes: MAX_ANSWER_BYTES,
      timeoutMs,
    });
  } catch (err) {
    return { ok: false, kind: 'unreachable', message: unreachable(err) };
  }
  if (!res.ok) {
    await res.body?.cancel().catch(() => undefined);
    return { ok: false, kind: 'invalid' };
  }
  const body = (await res.json().catch(() => null)) as { data?: unknown } | null;
  const first = Array.isArray(body?.data) ? (body.data[0] as Record<string, unknown> | undefined) : undefined;
  if (!first || typeof first.id !== 'string') return { ok: false, kind: 'invalid' };
  return { ok: true, project: { id: first.id, name: typeof first.name === 'string' ? first.name : '' } };
}

/** Posts one batch; a refused or unanswered batch is reported, never thrown. */
export async function sendBatch(
  policy: OutboundPolicy,
  keys: TracingKeys,
  batch: IngestionEvent[],
  timeoutMs = 15_000,
): Promise<BatchOutcome> {
  let res: Response;
  try {
    res = await safeFetch(policy, `${keys.host}/api/public/ingestion`, {
      method: 'POST',
      headers: { Authorization: basicAuth(keys), 'Content-Type': 'application/json' },
      body: JSON.stringify({ batch, metadata: { sdk_name: 'lectern', batch_size: batch.length } }),
      maxBytes: MAX_ANSWER_BYTES,
      timeoutMs,
    });
  } catch (err) {
    return { ok: false, message: unreachable(err) };
  }
  const body = (await res.json().catch(() => null)) as {
    successes?: unknown[];
    errors?: Array<{ message?: unknown; error?: unknown; status?: unknown }>;
  } | null;
  if (!res.ok) return { ok: false, message: `The tracing host answered HTTP ${res.status}.` };
  const errors = Array.isArray(body?.errors) ? body.errors : [];
  const first = errors[0];
  return {
    ok: true,
    accepted: batch.length - errors.length,
    rejected: errors.length,
    firstError: first ? String(first.message ?? first.error ?? first.status ?? '') : undefined,
  };
}
