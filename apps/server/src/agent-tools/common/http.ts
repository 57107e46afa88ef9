/**
 * The one way a tool calls a service: through the outbound guard (net/), with the tool's time
 * limit, the caller's cancel signal and a size cap; failures become sentences a person can act on.
 */
import { fetchBytes, isOutboundError } from '../../net/index.js';
import type { ToolDeps } from '../context.js';

export interface ServiceRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  timeoutMs: number;
  signal: AbortSignal;
  /** Cap on the answer (default 5 MB). */
  maxBytes?: number;
}

export interface ServiceAnswer {
  status: number;
  headers: Headers;
  text: string;
  url: string;
}

/** Thrown for a failed call; `status` is set when the service answered with an HTTP error. */
export class ServiceError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ServiceError';
  }
}

export async function callService(deps: ToolDeps, url: string, req: ServiceRequest): Promise<ServiceAnswer> {
  try {
    const res = await fetchBytes(deps.policy, url, {
      method: req.method ?? 'GET',
      headers: req.headers,
      body: req.body,
      timeoutMs: req.timeoutMs,
      signal: req.signal,
      maxBytes: req.maxBytes ?? 5 * 1024 * 1024,
    });
    return { status: res.status, headers: res.headers, text: res.body.toString('utf8'), url: res.url };
  } catch (err) {
    if (req.signal.aborted) throw err;
    if (isOutboundError(err)) {
      if (err.kind === 'timeout')
        throw new ServiceError(`no answer from ${hostOf(url)} within ${req.timeoutMs / 1000} s`);
      throw new ServiceError(err.message);
    }
    throw new ServiceError(`could not reach ${hostOf(url)}: ${(err as Error).message}`);
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** The answer as JSON; an HTTP error or a body that is not JSON is a ServiceError. */
export function jsonOf<T = unknown>(
  answer: ServiceAnswer,
  errorOf?: (body: unknown) => string | undefined,
): T {
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    if (answer.status >= 400) throw new ServiceError(`HTTP ${answer.status}`, answer.status);
    throw new ServiceError(`the service answered with something that is not JSON (HTTP ${answer.status})`);
  }
  if (answer.status >= 400) {
    const why = errorOf?.(body);
    throw new ServiceError(`HTTP ${answer.status}${why ? `: ${why}` : ''}`, answer.status);
  }
  return body as T;
}

/** The answer's text; an HTTP error is a ServiceError. */
export function textOf(answer: ServiceAnswer): string {
  if (answer.status >= 400) throw new ServiceError(`HTTP ${answer.status}`, answer.status);
  return answer.text;
}

export function withQuery(url: string, query: Record<string, string | number | boolean | undefined>): string {
  const u = new URL(url);
  for (const [k, v] of Object.entries(query)) if (v !== undefined) u.searchParams.set(k, String(v));
  return u.toString();
}
