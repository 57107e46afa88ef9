/**
 * The contract held against the running server (enabled by `LECTERN_CONTRACT_CHECK=1`, which the test
 * harness sets): every route the app registers is recorded, for the route-contract test; every
 * JSON answer with code 0 is parsed with its route's `data` schema, and every code-0 SSE event with
 * its `event` schema (packages/shared/src/contract).
 * A mismatch never changes the answer; it is recorded as a violation naming the route, the path of
 * the bad field and its value, and the test that caused it fails (apps/server/test/contract-setup.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { routeKey, routesByKey, type RouteContract } from '@lectern/shared';

export interface RegisteredRoute {
  method: string;
  /** As registered (Fastify `:param` syntax). */
  path: string;
  /** `config.public`: the auth hook lets the request through without a credential. */
  public: boolean;
}

export interface ContractViolation {
  /** `"POST /v1/kb/create"`. */
  route: string;
  /** The request's URL. */
  url: string;
  /** Where in the answer, e.g. `data.kbs.0.avatar`. */
  path: string;
  message: string;
  value: unknown;
}

export interface ContractCheck {
  routes: RegisteredRoute[];
  violations: ContractViolation[];
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Present when the contract check is enabled. */
    contractCheck?: ContractCheck;
  }
}

function valueAt(root: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let cur = root;
  for (const key of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[key];
  }
  return cur;
}

/** The schema a success answer of `entry` must match, and where it sits in the body. */
function answerSchema(entry: RouteContract): { schema: z.ZodType; enveloped: boolean } | null {
  if (entry.kind === 'json') return { schema: entry.data, enveloped: true };
  if (entry.kind === 'sse' && entry.data) return { schema: entry.data, enveloped: true };
  if (entry.kind === 'plain') return { schema: entry.data, enveloped: false };
  return null;
}

type Issue = z.core.$ZodIssue;

/**
 * A union mismatch says only "Invalid input"; report instead the issues of the branch the value came
 * closest to (fewest issues, then the deepest path), with their full paths.
 */
function closestIssues(issue: Issue): Issue[] {
  if (issue.code !== 'invalid_union' || issue.errors.length === 0) return [issue];
  const depth = (branch: Issue[]) => Math.max(...branch.map((i) => i.path.length));
  const best = [...issue.errors].sort((a, b) => a.length - b.length || depth(b) - depth(a))[0];
  return best.flatMap((i) => closestIssues({ ...i, path: [...issue.path, ...i.path] } as Issue));
}

/** The violations of `subject` against `schema`, paths prefixed with `prefix`. */
function violationsOf(
  entry: RouteContract,
  schema: z.ZodType,
  subject: unknown,
  url: string,
  prefix: PropertyKey[],
): ContractViolation[] {
  const result = schema.safeParse(subject);
  if (result.success) return [];
  return result.error.issues.flatMap(closestIssues).map((issue) => {
    const at = issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0]] : issue.path;
    return {
      route: routeKey(entry.method, entry.path),
      url,
      path: [...prefix, ...at].map(String).join('.') || '(body)',
      message: issue.message,
      value: valueAt(subject, at),
    };
  });
}

/**
 * A success: code 0 — except the public API's credential refusals, which API.md §17 spells as code 0
 * with `data: false` ("`Authorization` can't be empty"); no route's success data is a bare `false`.
 */
const isSuccess = (body: unknown): body is { data?: unknown } =>
  body !== null &&
  typeof body === 'object' &&
  (body as { code?: unknown }).code === 0 &&
  (body as { data?: unknown }).data !== false;

/**
 * The violations of one answer body of `entry` (empty when it matches, is not a success, or the
 * route answers bytes or a stream).
 */
export function checkAnswer(
  entry: RouteContract,
  body: unknown,
  url: string = entry.path,
): ContractViolation[] {
  const expected = answerSchema(entry);
  if (!expected) return [];
  if (!expected.enveloped) return violationsOf(entry, expected.schema, body, url, []);
  if (!isSuccess(body)) return [];
  return violationsOf(entry, expected.schema, body.data, url, ['data']);
}

/** The violations of one SSE event envelope of `entry` (error events, code ≠ 0, are not checked). */
export function checkEvent(
  entry: RouteContract,
  envelope: unknown,
  url: string = entry.path,
): ContractViolation[] {
  if (entry.kind === 'sse' && entry.framing === 'bare') {
    // Bare events (agent runs): the object is the event; an error `{code, message, data: false}` is not checked.
    const isEvent = envelope !== null && typeof envelope === 'object' && 'event' in envelope;
    return isEvent ? violationsOf(entry, entry.event, envelope, url, ['event']) : [];
  }
  if (entry.kind !== 'sse' || !isSuccess(envelope)) return [];
  return violationsOf(entry, entry.event, envelope.data, url, ['event', 'data']);
}

function entryOf(request: FastifyRequest): RouteContract | undefined {
  const url = request.routeOptions.url;
  return url ? routesByKey.get(routeKey(request.method, url)) : undefined;
}

/**
 * SSE routes write their frames to the raw socket (the reply is hijacked), past Fastify's hooks:
 * the frames are read as they are written and each `data:` event is checked.
 */
function watchEvents(
  entry: RouteContract,
  request: FastifyRequest,
  reply: FastifyReply,
  record: (v: ContractViolation[]) => void,
): void {
  const raw = reply.raw;
  let buffer = '';
  const read = (chunk: unknown) => {
    if (typeof chunk !== 'string' && !(chunk instanceof Uint8Array)) return;
    buffer += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      if (!frame.startsWith('data:')) continue;
      if (frame.slice(5).trim() === '[DONE]') continue; // the OpenAI-style end of some streams
      try {
        record(checkEvent(entry, JSON.parse(frame.slice(5)), request.url));
      } catch {
        record([
          {
            route: routeKey(entry.method, entry.path),
            url: request.url,
            path: '(event)',
            message: 'not JSON',
            value: frame.slice(0, 200),
          },
        ]);
      }
    }
  };
  const write = raw.write.bind(raw);
  const end = raw.end.bind(raw);
  raw.write = ((chunk: unknown, ...rest: unknown[]) => {
    read(chunk);
    return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof raw.write;
  raw.end = ((chunk?: unknown, ...rest: unknown[]) => {
    if (typeof chunk !== 'function') read(chunk);
    return (end as (...args: unknown[]) => typeof raw)(chunk, ...rest);
  }) as typeof raw.end;
}

/**
 * Records the routes registered after this call and checks every JSON answer and SSE event against
 * the contract.
 */
export function installContractCheck(app: FastifyInstance): ContractCheck {
  const check: ContractCheck = { routes: [], violations: [] };
  const record = (v: ContractViolation[]) => check.violations.push(...v);
  app.decorate('contractCheck', check);

  app.addHook('onRoute', (options) => {
    const methods = Array.isArray(options.method) ? options.method : [options.method];
    for (const method of methods) {
      // Fastify adds a HEAD route beside every GET; the contract names the GET.
      if (method === 'HEAD') continue;
      check.routes.push({ method, path: options.url, public: options.config?.public === true });
    }
  });

  app.addHook('onRequest', async (request, reply) => {
    const entry = entryOf(request);
    if (entry?.kind === 'sse') watchEvents(entry, request, reply, record);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const entry = entryOf(request);
    const type = String(reply.getHeader('content-type') ?? '');
    if (!entry || typeof payload !== 'string' || !type.includes('json')) return payload;
    let body: unknown;
    try {
      body = JSON.parse(payload);
    } catch {
      record([
        {
          route: routeKey(entry.method, entry.path),
          url: request.url,
          path: '(body)',
          message: 'not JSON',
          value: payload.slice(0, 200),
        },
      ]);
      return payload;
    }
    record(checkAnswer(entry, body, request.url));
    return payload;
  });

  return check;
}
