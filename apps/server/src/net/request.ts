/**
 * The one way the server sends an HTTP request on a user's behalf: each hop's host is checked by the
 * policy and the socket is pinned to the checked addresses (a custom `lookup` that answers from the
 * check, never from a second resolution); redirects are followed by hand and re-checked; the answer's
 * size (after decompression) and the total time are capped. TLS keeps the host name for SNI and the
 * certificate check, and the Host header stays the URL's.
 */
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { PassThrough, Transform, type Readable } from 'node:stream';
import zlib from 'node:zlib';
import { formatBytes, OutboundError } from './errors.js';
import { checkHost, type CheckedTarget, type OutboundPolicy, type ResolvedAddress } from './policy.js';

export interface OutboundRequestInit {
  method?: string;
  headers?: Record<string, string> | Headers | Array<[string, string]>;
  body?: Uint8Array | string | null;
  /** Redirects followed before giving up (default 5); `redirect: 'manual'` returns the 3xx instead. */
  maxRedirects?: number;
  redirect?: 'follow' | 'manual' | 'error';
  /** Cap on the decoded answer body (default 10 MB); beyond it the body stream fails. */
  maxBytes?: number;
  /** Total time for the answer, body included (default 30 s; 0 = only the caller's signal limits it). */
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface OutboundResponse {
  status: number;
  statusText: string;
  headers: Headers;
  /** The URL of the last hop. */
  url: string;
  redirected: boolean;
  /** Decoded and size-capped; null for answers without a body (HEAD, 204, 304). */
  body: Readable | null;
}

export const DEFAULTS = { maxRedirects: 5, maxBytes: 10 * 1024 * 1024, timeoutMs: 30_000 };

/** Keep-alive agents whose pool key includes the pinned addresses, so a pooled socket is only reused
 *  for a request that was checked against the same addresses. */
class PinnedHttpAgent extends http.Agent {
  override getName(options?: http.ClientRequestArgs & { pinKey?: string }): string {
    return `${super.getName(options)}|${options?.pinKey ?? ''}`;
  }
}
class PinnedHttpsAgent extends https.Agent {
  override getName(options?: https.RequestOptions & { pinKey?: string }): string {
    return `${super.getName(options)}|${options?.pinKey ?? ''}`;
  }
}
const agents = {
  http: new PinnedHttpAgent({ keepAlive: true, maxFreeSockets: 16 }),
  https: new PinnedHttpsAgent({ keepAlive: true, maxFreeSockets: 16 }),
};

/** A `lookup` that answers from the check: the socket can only connect to an address that passed. */
export function pinnedLookup(addresses: ResolvedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const family = typeof options === 'object' ? options.family : undefined;
    const list = addresses.filter((a) => !family || family === a.family || family === `IPv${a.family}`);
    const chosen = list.length > 0 ? list : addresses;
    if (typeof options === 'object' && options.all) {
      (callback as unknown as (e: null, a: ResolvedAddress[]) => void)(null, chosen);
    } else {
      callback(null, chosen[0].address, chosen[0].family);
    }
  };
}

function parseTarget(raw: string | URL, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(String(raw), base);
  } catch {
    throw new OutboundError('invalid_url', 'The URL is not valid.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new OutboundError(
      'unsupported_protocol',
      `Only http and https URLs can be fetched (not ${url.protocol.replace(/:$/, '')}).`,
    );
  if (url.username || url.password) url.username = url.password = '';
  return url;
}

function headerRecord(h: OutboundRequestInit['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  new Headers(h as ConstructorParameters<typeof Headers>[0]).forEach((v, k) => (out[k] = v));
  return out;
}

/** Counts decoded bytes and fails the stream beyond the cap. */
function sizeCap(maxBytes: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      seen += chunk.length;
      if (seen > maxBytes)
        return done(
          new OutboundError('too_large', `The answer is larger than the limit of ${formatBytes(maxBytes)}.`),
        );
      done(null, chunk);
    },
  });
}

function decoderFor(encoding: string | undefined): Transform | null {
  switch ((encoding ?? '').trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip();
    case 'deflate':
      return zlib.createInflate();
    case 'br':
      return zlib.createBrotliDecompress();
    default:
      return null;
  }
}

function networkError(err: unknown, host: string): OutboundError {
  if (err instanceof OutboundError) return err;
  const code = (err as { code?: string }).code;
  const why = code ? ` (${code})` : '';
  return new OutboundError('network', `Could not reach ${host}${why}.`, { cause: err, host, code });
}

interface Hop {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body: Uint8Array | undefined;
}

/** One request to a checked target; resolves with the response head, the body still streaming. */
function sendOnce(hop: Hop, target: CheckedTarget, signal: AbortSignal): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const secure = hop.url.protocol === 'https:';
    const lib = secure ? https : http;
    const options: https.RequestOptions & { pinKey: string } = {
      method: hop.method,
      headers: hop.headers,
      agent: secure ? agents.https : agents.http,
      lookup: pinnedLookup(target.addresses),
      pinKey: target.addresses.map((a) => a.address).join(','),
      signal,
    };
    const req = lib.request(hop.url, options, resolve);
    req.on('error', (err) => reject(signal.aborted ? signal.reason : networkError(err, hop.url.host)));
    req.end(hop.body);
  });
}

function nextHop(hop: Hop, status: number, location: string): Hop {
  const url = parseTarget(location, hop.url);
  const headers = { ...hop.headers };
  if (url.origin !== hop.url.origin) {
    // Credentials were meant for the first origin only.
    for (const h of ['authorization', 'cookie', 'proxy-authorization']) delete headers[h];
  }
  const toGet = status === 303 || ((status === 301 || status === 302) && hop.method === 'POST');
  if (toGet) {
    for (const h of ['content-type', 'content-length', 'content-encoding']) delete headers[h];
    return { url, method: hop.method === 'HEAD' ? 'HEAD' : 'GET', headers, body: undefined };
  }
  return { url, method: hop.method, headers, body: hop.body };
}

function toHeaders(res: http.IncomingMessage, decoded: boolean): Headers {
  const headers = new Headers();
  const raw = res.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i].toLowerCase();
    if (decoded && (name === 'content-encoding' || name === 'content-length')) continue;
    try {
      headers.append(raw[i], raw[i + 1]);
    } catch {
      // A header value fetch's Headers refuses (bad bytes) is dropped rather than failing the call.
    }
  }
  return headers;
}

/**
 * Sends `init.method` (GET by default) to `rawUrl` under `policy`. The caller reads `body` to the end
 * (or destroys it); the time limit runs until then.
 */
export async function outboundRequest(
  policy: OutboundPolicy,
  rawUrl: string | URL,
  init: OutboundRequestInit = {},
): Promise<OutboundResponse> {
  const maxRedirects = init.maxRedirects ?? DEFAULTS.maxRedirects;
  const maxBytes = init.maxBytes ?? DEFAULTS.maxBytes;
  const timeoutMs = init.timeoutMs ?? DEFAULTS.timeoutMs;
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const onCallerAbort = () => controller.abort(init.signal?.reason);
  if (init.signal?.aborted) throw init.signal.reason;
  init.signal?.addEventListener('abort', onCallerAbort, { once: true });
  let hop: Hop = {
    url: parseTarget(rawUrl),
    method: (init.method ?? 'GET').toUpperCase(),
    headers: {
      'user-agent': 'Lectern/1.0',
      'accept-encoding': 'gzip, deflate, br',
      ...headerRecord(init.headers),
    },
    body: typeof init.body === 'string' ? Buffer.from(init.body) : (init.body ?? undefined),
  };
  if (timeoutMs > 0) {
    const host = hop.url.host;
    timer = setTimeout(
      () =>
        controller.abort(
          new OutboundError('timeout', `No complete answer from ${host} within ${timeoutMs / 1000} s.`),
        ),
      timeoutMs,
    );
    timer.unref();
  }
  const finish = () => {
    clearTimeout(timer);
    init.signal?.removeEventListener('abort', onCallerAbort);
  };
  try {
    for (let redirects = 0; ; redirects++) {
      const target = await checkHost(policy, hop.url.hostname);
      if (controller.signal.aborted) throw controller.signal.reason;
      const res = await sendOnce(hop, target, controller.signal);
      const status = res.statusCode ?? 0;
      const location = res.headers.location;
      if (status >= 300 && status < 400 && location && init.redirect !== 'manual') {
        res.resume();
        if (init.redirect === 'error')
          throw new OutboundError(
            'too_many_redirects',
            'The URL redirects, which this request does not allow.',
          );
        if (redirects >= maxRedirects)
          throw new OutboundError('too_many_redirects', `The URL redirects more than ${maxRedirects} times.`);
        hop = nextHop(hop, status, location);
        continue;
      }
      return respond(res, hop, redirects > 0, maxBytes, controller.signal, finish);
    }
  } catch (err) {
    finish();
    throw err;
  }
}

function respond(
  res: http.IncomingMessage,
  hop: Hop,
  redirected: boolean,
  maxBytes: number,
  signal: AbortSignal,
  finish: () => void,
): OutboundResponse {
  const status = res.statusCode ?? 0;
  const declared = Number(res.headers['content-length']);
  const noBody = hop.method === 'HEAD' || status === 204 || status === 304;
  const decoder = noBody ? null : decoderFor(res.headers['content-encoding']);
  const base = { status, statusText: res.statusMessage ?? '', url: hop.url.toString(), redirected };
  if (noBody) {
    res.resume();
    finish();
    return { ...base, headers: toHeaders(res, false), body: null };
  }
  if (!decoder && Number.isFinite(declared) && declared > maxBytes) {
    res.destroy();
    finish();
    throw new OutboundError('too_large', `The answer is larger than the limit of ${formatBytes(maxBytes)}.`);
  }
  const out = new PassThrough();
  const cap = sizeCap(maxBytes);
  const stages: Array<NodeJS.ReadWriteStream> = decoder ? [decoder, cap] : [cap];
  let done = false;
  const fail = (err: unknown) => {
    if (done) return;
    done = true;
    finish();
    res.destroy();
    out.destroy(err instanceof Error ? err : new Error(String(err)));
  };
  const onAbort = () => fail(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  let stream: NodeJS.ReadableStream = res;
  for (const s of stages) {
    stream.on('error', (e: unknown) => fail(e instanceof OutboundError ? e : networkError(e, hop.url.host)));
    stream = stream.pipe(s);
  }
  stream.on('error', (e: unknown) => fail(e instanceof OutboundError ? e : networkError(e, hop.url.host)));
  stream.pipe(out);
  out.on('end', () => {
    done = true;
    signal.removeEventListener('abort', onAbort);
    finish();
  });
  out.on('close', () => {
    if (!done) fail(new Error('body discarded'));
  });
  return { ...base, headers: toHeaders(res, decoder !== null), body: out };
}
