import http from 'node:http';
import { APICallError, RetryError } from 'ai';
import { isOutboundError } from '../net/index.js';

/**
 * A model call that failed, with a sentence a person can act on, e.g.
 * "OpenAI: 401 Unauthorized — Incorrect API key provided". Adapters throw only this.
 */
export class ModelError extends Error {
  constructor(
    message: string,
    readonly provider: string,
    readonly status: number | undefined,
    /** Worth another try after a pause (429, 5xx, dropped connection). */
    readonly retryable: boolean,
    /** Seconds the provider asked us to wait (Retry-After), when given. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'ModelError';
  }
}

export class ModelTimeoutError extends ModelError {
  constructor(provider: string, ms: number) {
    super(`${provider}: no answer within ${ms} ms (time limit)`, provider, undefined, false);
    this.name = 'ModelTimeoutError';
  }
}

const MAX_DETAIL = 300;
/** A body that is not JSON is only ever summarized by its first line, this long at most. */
const MAX_TEXT_DETAIL = 120;

/** One printable line, at most `max` characters: what of a provider's answer reaches the user. */
function summarize(text: string, max: number): string {
  const line = text
    // eslint-disable-next-line no-control-regex -- removing control characters is the point
    .replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/**
 * The provider's own explanation from an error body, summarized, never echoed raw (the base URL may
 * be a user's, and its answer must not become a way to read what the server can reach):
 * {error:{message}}, {message}, {error:"…"}, {detail}… of a JSON body, else the first line of a text body.
 */
export function detailFromBody(body: string | undefined): string {
  if (!body) return '';
  const text = body.trim();
  try {
    const json = JSON.parse(text) as unknown;
    const found = pickMessage(Array.isArray(json) ? json[0] : json);
    if (found) return summarize(found, MAX_DETAIL);
    return '';
  } catch {
    // Not JSON: fall through to the text.
  }
  if (text.startsWith('<')) return ''; // an HTML error page says nothing useful
  return summarize(text.split(/\r?\n/, 1)[0], MAX_TEXT_DETAIL);
}

function pickMessage(value: unknown): string {
  if (typeof value === 'string') return value;
  if (!value || typeof value !== 'object') return '';
  const o = value as Record<string, unknown>;
  // OAuth token endpoints: {error: "invalid_grant", error_description: "…"}
  if (typeof o.error === 'string' && typeof o.error_description === 'string')
    return `${o.error}: ${o.error_description}`;
  for (const key of ['error', 'message', 'detail', 'error_msg', 'msg']) {
    const v = o[key];
    if (typeof v === 'string' && v) return v;
    if (v && typeof v === 'object') {
      const inner = pickMessage(v);
      if (inner) return inner;
    }
  }
  return '';
}

export function statusLine(status: number): string {
  return `${status} ${http.STATUS_CODES[status] ?? 'Error'}`;
}

export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || (status >= 500 && status !== 501);
}

function retryAfterFrom(headers: Record<string, string> | undefined): number | undefined {
  if (!headers) return undefined;
  const ms = Number(headers['retry-after-ms']);
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const s = Number(headers['retry-after']);
  if (Number.isFinite(s) && s >= 0) return s * 1000;
  return undefined;
}

export function httpError(
  provider: string,
  status: number,
  body: string | undefined,
  headers?: Record<string, string>,
): ModelError {
  const detail = detailFromBody(body);
  const hint = status === 401 || status === 403 ? (detail ? '' : ' — invalid api key') : '';
  return new ModelError(
    `${provider}: ${statusLine(status)}${detail ? ` — ${detail}` : hint}`,
    provider,
    status,
    isRetryableStatus(status),
    retryAfterFrom(headers),
  );
}

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EPIPE',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
]);

function causeCode(err: unknown): string | undefined {
  let e: unknown = err;
  for (let i = 0; i < 5 && e && typeof e === 'object'; i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && CONNECTION_CODES.has(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Turns whatever a client library threw into a ModelError with a readable message. */
export function toModelError(provider: string, err: unknown): ModelError {
  if (err instanceof ModelError) return err;
  if (isOutboundError(err)) {
    // Refused by the outbound guard (private address, size cap…) or the host could not be reached.
    if (err.kind === 'network')
      return new ModelError(
        `${provider}: cannot reach ${err.host ?? 'the server'}${err.code ? ` (${err.code})` : ''}`,
        provider,
        undefined,
        true,
      );
    return new ModelError(`${provider}: ${err.message}`, provider, undefined, err.kind === 'dns');
  }
  if (RetryError.isInstance(err)) return toModelError(provider, err.lastError);
  if (APICallError.isInstance(err)) {
    // A 2xx that failed is a body the client library could not read.
    if (err.statusCode !== undefined && err.statusCode >= 200 && err.statusCode < 300) {
      return new ModelError(`${provider}: malformed response from the server`, provider, undefined, false);
    }
    if (err.statusCode !== undefined)
      return httpError(provider, err.statusCode, err.responseBody, err.responseHeaders);
    const code = causeCode(err);
    if (code)
      return new ModelError(
        `${provider}: cannot reach ${safeHost(err.url)} (${code})`,
        provider,
        undefined,
        true,
      );
    return new ModelError(`${provider}: ${err.message}`, provider, undefined, err.isRetryable);
  }
  const code = causeCode(err);
  if (code)
    return new ModelError(`${provider}: cannot reach the server (${code})`, provider, undefined, true);
  const name = err instanceof Error ? err.name : '';
  const message = err instanceof Error ? err.message : String(err);
  if (
    /JSONParseError|TypeValidationError|InvalidResponseDataError|SyntaxError/.test(name) ||
    /JSON|Type validation/i.test(message)
  ) {
    return new ModelError(`${provider}: malformed response from the server`, provider, undefined, false);
  }
  if (name === 'NoOutputGeneratedError' || name === 'EmptyResponseBodyError') {
    return new ModelError(`${provider}: the server sent an empty answer`, provider, undefined, false);
  }
  return new ModelError(
    `${provider}: ${message.split('\n')[0].slice(0, MAX_DETAIL)}`,
    provider,
    undefined,
    false,
  );
}

function safeHost(url: string | undefined): string {
  if (!url) return 'the server';
  try {
    return new URL(url).host;
  } catch {
    return 'the server';
  }
}
