/**
 * The contract held against the running server (enabled by `LECTERN_CONTRACT_CHECK=1`, which the test
 * harness sets): every route the app registers is recorded, for the route-contract test, and every
 * JSON answer with code 0 is parsed with its route's `data` schema (packages/shared/src/contract).
 * A mismatch never changes the answer; it is recorded as a violation naming the route, the path of
 * the bad field and its value, and the test that caused it fails (apps/server/test/contract-setup.ts).
 */
import type { FastifyInstance } from 'fastify';
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
  let subject = body;
  let prefix: PropertyKey[] = [];
  if (expected.enveloped) {
    if (body === null || typeof body !== 'object' || (body as { code?: unknown }).code !== 0) return [];
    subject = (body as { data?: unknown }).data;
    prefix = ['data'];
  }
  const result = expected.schema.safeParse(subject);
  if (result.success) return [];
  return result.error.issues.map((issue) => {
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

/** Records the routes registered after this call and checks every JSON answer against the contract. */
export function installContractCheck(app: FastifyInstance): ContractCheck {
  const check: ContractCheck = { routes: [], violations: [] };
  app.decorate('contractCheck', check);

  app.addHook('onRoute', (options) => {
    const methods = Array.isArray(options.method) ? options.method : [options.method];
    for (const method of methods) {
      // Fastify adds a HEAD route beside every GET; the contract names the GET.
      if (method === 'HEAD') continue;
      check.routes.push({ method, path: options.url, public: options.config?.public === true });
    }
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const url = request.routeOptions.url;
    const entry = url ? routesByKey.get(routeKey(request.method, url)) : undefined;
    const type = String(reply.getHeader('content-type') ?? '');
    if (!entry || typeof payload !== 'string' || !type.includes('json')) return payload;
    let body: unknown;
    try {
      body = JSON.parse(payload);
    } catch {
      check.violations.push({
        route: routeKey(entry.method, entry.path),
        url: request.url,
        path: '(body)',
        message: 'not JSON',
        value: payload.slice(0, 200),
      });
      return payload;
    }
    check.violations.push(...checkAnswer(entry, body, request.url));
    return payload;
  });

  return check;
}
