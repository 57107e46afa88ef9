/**
 * Fetch-shaped faces of `outboundRequest`: `safeFetch` (a standard Response, streaming), `fetchBytes`
 * (the whole body as a Buffer) and `guardedFetch` (a drop-in `fetch` for clients that accept one,
 * like the AI SDK providers).
 */
import { Readable } from 'node:stream';
import { outboundRequest, type OutboundRequestInit, type OutboundResponse } from './request.js';
import type { OutboundPolicy } from './policy.js';

export type SafeFetchInit = Omit<RequestInit, 'body' | 'redirect'> &
  Pick<OutboundRequestInit, 'maxBytes' | 'maxRedirects' | 'timeoutMs' | 'redirect'> & {
    body?: RequestInit['body'];
  };

/** Request bodies of every fetch kind (string, bytes, FormData, Blob, URLSearchParams…) as bytes plus
 *  the content type fetch would have sent with them. */
async function bodyBytes(
  input: string | URL | Request,
  init: SafeFetchInit,
): Promise<{ url: string; method: string; headers: Headers; body: Uint8Array | undefined }> {
  const method = (init.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
  const hasBody = init.body !== undefined && init.body !== null;
  const request = new Request(String(input instanceof Request ? input.url : input), {
    method: hasBody && (method === 'GET' || method === 'HEAD') ? 'POST' : method,
    headers: init.headers ?? (input instanceof Request ? input.headers : undefined),
    body: hasBody ? init.body : input instanceof Request ? input.body : undefined,
    ...(hasBody || input instanceof Request ? { duplex: 'half' } : {}),
  } as RequestInit);
  const body = request.body ? new Uint8Array(await request.arrayBuffer()) : undefined;
  return { url: request.url, method, headers: request.headers, body };
}

function toResponse(res: OutboundResponse): Response {
  const body = res.body ? (Readable.toWeb(res.body) as ReadableStream<Uint8Array>) : null;
  const response = new Response(res.status >= 200 && res.status <= 599 ? body : null, {
    status: res.status >= 200 && res.status <= 599 ? res.status : 502,
    statusText: res.statusText,
    headers: res.headers,
  });
  // A constructed Response has no url; callers that log or resolve relative links read it.
  Object.defineProperty(response, 'url', { value: res.url });
  Object.defineProperty(response, 'redirected', { value: res.redirected });
  return response;
}

/** fetch() through the guard. Refusals and failures reject with OutboundError (or the caller's abort reason). */
export async function safeFetch(
  policy: OutboundPolicy,
  input: string | URL | Request,
  init: SafeFetchInit = {},
): Promise<Response> {
  const { url, method, headers, body } = await bodyBytes(input, init);
  const res = await outboundRequest(policy, url, {
    method,
    headers,
    body,
    signal: init.signal ?? undefined,
    maxBytes: init.maxBytes,
    maxRedirects: init.maxRedirects,
    timeoutMs: init.timeoutMs,
    redirect: init.redirect,
  });
  return toResponse(res);
}

export interface FetchedBytes {
  status: number;
  headers: Headers;
  body: Buffer;
  /** The URL of the last hop. */
  url: string;
}

/** The whole answer in memory (capped by `maxBytes`). */
export async function fetchBytes(
  policy: OutboundPolicy,
  url: string | URL,
  init: OutboundRequestInit = {},
): Promise<FetchedBytes> {
  const res = await outboundRequest(policy, url, init);
  const chunks: Buffer[] = [];
  if (res.body) for await (const c of res.body) chunks.push(c as Buffer);
  return { status: res.status, headers: res.headers, body: Buffer.concat(chunks), url: res.url };
}

/** A `fetch` with the guard and fixed caps, for libraries that take a custom fetch. */
export function guardedFetch(
  policy: OutboundPolicy,
  caps: Pick<OutboundRequestInit, 'maxBytes' | 'maxRedirects' | 'timeoutMs'> = {},
): typeof fetch {
  return ((input: string | URL | Request, init: RequestInit = {}) =>
    safeFetch(policy, input, {
      ...(init as SafeFetchInit),
      redirect: init.redirect === 'manual' ? 'manual' : init.redirect === 'error' ? 'error' : 'follow',
      ...caps,
    })) as typeof fetch;
}
