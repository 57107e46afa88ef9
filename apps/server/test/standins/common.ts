import http from 'node:http';
import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';

/**
 * Shared machinery of the stand-in servers: an HTTP server on 127.0.0.1 (random port), a log of the
 * requests it received, and scripted faults (401, 429 then success, 500, hang, stall mid-stream,
 * malformed body) applied to the next N model requests.
 */
export type FaultKind = '401' | '429' | '500' | 'hang' | 'stall' | 'malformed';

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: unknown;
  raw: Buffer;
}

export interface Standin {
  /** Base URL as a client would configure it (e.g. "http://127.0.0.1:PORT/v1"). */
  url: string;
  /** Origin without any path ("http://127.0.0.1:PORT"). */
  origin: string;
  port: number;
  requests: RecordedRequest[];
  /** The next `times` model requests fail this way (default 1). */
  fail(kind: FaultKind, times?: number): void;
  /** Requests that reached a model route (not /models, /api/tags, tokens). */
  modelCalls(): RecordedRequest[];
  close(): Promise<void>;
}

export interface StandinContext {
  req: http.IncomingMessage;
  res: http.ServerResponse;
  rec: RecordedRequest;
  /** The fault to apply to this request, if any (already consumed). */
  fault: FaultKind | undefined;
}

export type Route = (c: StandinContext) => Promise<boolean> | boolean;

export function sendJson(
  res: http.ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

export function startSse(res: http.ServerResponse): void {
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
}

export function sseData(res: http.ServerResponse, data: unknown, event?: string): void {
  res.write(
    `${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`,
  );
}

export function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

export function countTokens(text: string): number {
  return Math.max(1, words(text).length);
}

/** Pieces a reply streams in: one word (with its trailing space) per chunk. */
export function pieces(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * Deterministic embedding of a text: hashed bag of words (texts sharing words are close) plus a small
 * component from a hash of the whole text, L2-normalised. Same text → same vector, every time.
 */
export function standinEmbedding(text: string, dim: number): number[] {
  const v = new Array<number>(dim).fill(0);
  for (const w of words(text)) {
    const h = fnv1a(w);
    v[h % dim] += (h & 0x80000000) !== 0 ? -1 : 1;
  }
  const digest = crypto.createHash('sha256').update(text).digest();
  for (let i = 0; i < dim; i++) v[i] += (digest[i % digest.length] / 255 - 0.5) * 0.05;
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0)) || 1;
  return v.map((x) => x / norm);
}

/** Relevance of a document to a query: share of the query's words found in the document (0..1). */
export function lexicalScore(query: string, doc: string): number {
  const q = new Set(words(query));
  if (q.size === 0) return 0;
  const d = new Set(words(doc));
  let hit = 0;
  for (const w of q) if (d.has(w)) hit++;
  return hit / q.size;
}

async function readBody(req: http.IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

export interface StartOptions {
  /** Path prefix of the base URL handed to clients (e.g. "/v1"). */
  basePath?: string;
  /** Which requests count as model calls (faults apply only to those). */
  isModelCall?: (rec: RecordedRequest) => boolean;
}

export async function startStandin(routes: Route[], opts: StartOptions = {}): Promise<Standin> {
  const requests: RecordedRequest[] = [];
  const faults: FaultKind[] = [];
  const isModelCall = opts.isModelCall ?? (() => true);
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const raw = await readBody(req);
    let body: unknown = undefined;
    if ((req.headers['content-type'] ?? '').includes('json') && raw.length > 0) {
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        body = undefined;
      }
    }
    const rec: RecordedRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      body,
      raw,
    };
    requests.push(rec);
    const fault = isModelCall(rec) ? faults.shift() : undefined;
    if (fault === 'hang') return; // never answer; the socket is destroyed at close()
    try {
      for (const route of routes) {
        if (await route({ req, res, rec, fault })) return;
      }
      sendJson(res, 404, {
        error: { message: `Not found: ${req.method} ${url.pathname}`, type: 'not_found' },
      });
    } catch (err) {
      if (!res.headersSent) sendJson(res, 500, { error: { message: String(err), type: 'standin_error' } });
      else res.destroy();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}${opts.basePath ?? ''}`,
    origin,
    port,
    requests,
    fail(kind, times = 1) {
      for (let i = 0; i < times; i++) faults.push(kind);
    },
    modelCalls: () => requests.filter(isModelCall),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Writes stream pieces, then (for 'stall') stops writing without ending the response. */
export async function streamPieces(
  res: http.ServerResponse,
  parts: Array<() => void>,
  fault: FaultKind | undefined,
  delayMs = 0,
): Promise<void> {
  for (let i = 0; i < parts.length; i++) {
    if (fault === 'stall' && i === 2) return; // the client got headers and a first chunk, then silence
    parts[i]();
    if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
  }
  res.end();
}

export function bearer(req: http.IncomingMessage): string {
  const h = req.headers.authorization ?? '';
  return h.startsWith('Bearer ') ? h.slice(7) : h;
}
