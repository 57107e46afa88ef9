import { RetCode } from '@lectern/shared';
import i18n from '../i18n';
import { feedback, navigation } from './feedback';
import { buildUrl, snakeCaseKeys, SNAKE_CASE_EXEMPT_KEYS } from './request';
import { clearSession, currentAuthorization } from './storage';

/**
 * Server-sent events over `fetch` + `ReadableStream` (API.md §1.1, §9): each event is `data:` + one
 * JSON document + a blank line. `EventSource` cannot POST a body or send the Authorization header,
 * hence this reader. The header follows the request client's rules: the address's `auth` parameter,
 * else the stored credential, unless the caller gives its own (the share page sends `Bearer <beta>`).
 */

/** One event as the server framed it: `{code, message, data}`. */
export interface SseEnvelope<T = unknown> {
  code: number;
  message: string;
  data: T;
}

/**
 * Incremental parser: feed it text as it arrives (any split, even inside a JSON document or between
 * `\r` and `\n`) and it returns the complete events so far. Lines other than `data:` (comments,
 * `event:`, `id:`) are ignored; several `data:` lines of one event are joined with a newline.
 * An event whose data is not JSON is returned as `{raw}` so the caller can report it.
 */
export function createSseParser() {
  let buffer = '';
  const parseBlock = (block: string): SseEnvelope | { raw: string } | null => {
    const data = block
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).replace(/^ /, ''));
    if (data.length === 0) return null;
    const text = data.join('\n');
    if (text.trim() === '[DONE]') return null;
    try {
      return JSON.parse(text) as SseEnvelope;
    } catch {
      return { raw: text };
    }
  };
  const drain = (final: boolean) => {
    const out: Array<SseEnvelope | { raw: string }> = [];
    buffer = buffer.replace(/\r\n?/g, '\n');
    // A lone trailing `\r` may be the first half of `\r\n`: keep it until the next piece arrives.
    let end = buffer.indexOf('\n\n');
    while (end >= 0) {
      const event = parseBlock(buffer.slice(0, end));
      if (event) out.push(event);
      buffer = buffer.slice(end + 2);
      end = buffer.indexOf('\n\n');
    }
    if (final && buffer.trim() !== '') {
      const event = parseBlock(buffer);
      if (event) out.push(event);
      buffer = '';
    }
    return out;
  };
  return {
    push(text: string) {
      buffer += text;
      if (buffer.endsWith('\r')) {
        buffer = buffer.slice(0, -1);
        const out = drain(false);
        buffer += '\r';
        return out;
      }
      return drain(false);
    },
    /** The stream ended: an unterminated last event still counts. */
    flush() {
      return drain(true);
    },
  };
}

/** The terminator `data:{"code":0,"message":"","data":true}`. */
export function isTerminator(event: SseEnvelope): boolean {
  return event.code === RetCode.SUCCESS && event.data === true;
}

export interface StreamOptions {
  /** Body keys copied verbatim (custom prompt variables, say). */
  keepKeys?: readonly string[];
  signal?: AbortSignal;
  /** Overrides the Authorization header (e.g. `Bearer <beta>`). */
  authorization?: string;
  onEvent: (event: SseEnvelope) => void;
}

/**
 * How a stream ended. `aborted` when the caller stopped it; `code`/`message` of a refusal, `shown`
 * when the refusal was already shown to the person (code 100, 401, no response).
 */
export interface StreamOutcome {
  ok: boolean;
  aborted: boolean;
  code: number;
  message: string;
  shown: boolean;
}

function refusal(code: number, message: string, shown = false): StreamOutcome {
  return { ok: false, aborted: false, code, message, shown };
}

const ABORTED: StreamOutcome = { ok: false, aborted: true, code: 0, message: '', shown: false };

/** SPEC §7 handling for an envelope that came instead of a stream. Returns whether it was shown. */
function handleRefusal(code: number, message: string): boolean {
  if (code === RetCode.UNAUTHORIZED) {
    feedback.notifyError({ message, description: message, duration: 3 });
    clearSession();
    navigation.toLogin();
    return true;
  }
  if (code === RetCode.EXCEPTION_ERROR) {
    feedback.error(message);
    return true;
  }
  return false;
}

/**
 * POSTs `body` and calls `onEvent` for each event until the terminator or the end of the body. A route
 * that refuses before streaming answers with a JSON envelope: that is returned as the outcome (code
 * 100/401 are shown as the request client shows them; others are for the caller to show).
 */
export async function postSse(
  url: string,
  body: Record<string, unknown>,
  options: StreamOptions,
): Promise<StreamOutcome> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'text/event-stream' };
  const auth = options.authorization ?? currentAuthorization();
  if (auth) headers.Authorization = auth;
  const payload = snakeCaseKeys(body, [...SNAKE_CASE_EXEMPT_KEYS, ...(options.keepKeys ?? [])]);
  let response: Response;
  try {
    response = await fetch(buildUrl(url), {
      method: 'POST',
      headers,
      body: JSON.stringify(payload),
      signal: options.signal,
    });
  } catch (err) {
    if (options.signal?.aborted) return ABORTED;
    console.warn(`[sse] POST ${url} got no response: ${String(err)}`);
    feedback.notifyError({
      message: i18n.t('message.networkAnomaly'),
      description: i18n.t('message.networkAnomalyDescription'),
    });
    return refusal(RetCode.NETWORK_FAILURE, i18n.t('message.networkAnomalyDescription'), true);
  }

  const type = response.headers.get('content-type') ?? '';
  if (!type.includes('text/event-stream') || !response.body) {
    const text = await response.text().catch(() => '');
    let envelope: { code?: unknown; message?: unknown } | null = null;
    try {
      envelope = JSON.parse(text) as { code?: unknown; message?: unknown };
    } catch {
      envelope = null;
    }
    const code =
      typeof envelope?.code === 'number' ? envelope.code : response.status || RetCode.EXCEPTION_ERROR;
    const message =
      typeof envelope?.message === 'string'
        ? envelope.message
        : `${i18n.t('message.requestError')} ${response.status}: ${url}`;
    return refusal(code, message, handleRefusal(code, message));
  }

  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  const parser = createSseParser();
  let ended = false;
  const deliver = (events: ReturnType<typeof parser.push>) => {
    for (const event of events) {
      if ('raw' in event) {
        options.onEvent({ code: RetCode.SERVER_ERROR, message: i18n.t('chat.badStream'), data: null });
        continue;
      }
      if (isTerminator(event)) ended = true;
      else options.onEvent(event);
    }
  };
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      deliver(parser.push(value));
      if (ended) break;
    }
    deliver(parser.flush());
  } catch (err) {
    if (options.signal?.aborted) return ABORTED;
    console.warn(`[sse] POST ${url} stream broke: ${String(err)}`);
    return refusal(RetCode.NETWORK_FAILURE, i18n.t('message.networkAnomalyDescription'));
  } finally {
    if (ended) void reader.cancel().catch(() => undefined);
  }
  if (options.signal?.aborted) return ABORTED;
  return { ok: true, aborted: false, code: 0, message: '', shown: false };
}
