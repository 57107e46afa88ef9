/**
 * Per-route request body limits (issue 11 item 4). A request whose declared length is over its
 * route's limit is answered 413 in the envelope from the onRequest hook, before a byte of the body
 * is read; a streamed (chunked) body is cut off by Fastify's parser as soon as it passes the limit.
 *
 * - JSON routes: `jsonBytes` (MAX_JSON_BYTES, 1 MiB) — login, lists, settings…
 * - JSON routes that carry images or long texts (avatars/icons as data URLs, chunk text, chat
 *   history, metadata): `largeJsonBytes` (MAX_LARGE_JSON_BYTES, 16 MiB).
 * - multipart routes (uploads): `uploadBytes` (MAX_BODY_BYTES, 1 GiB), streamed to disk.
 */
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { routesByKey, routeKey } from '@lectern/shared';
import { ApiError } from './envelope.js';

export interface BodyLimits {
  jsonBytes: number;
  largeJsonBytes: number;
  uploadBytes: number;
}

/** JSON routes whose bodies legitimately grow past the small limit. */
const LARGE_JSON_ROUTES = new Set([
  'POST /v1/user/setting',
  'POST /v1/kb/create',
  'POST /v1/kb/update',
  'POST /v1/dialog/set',
  'POST /v1/conversation/set',
  'POST /v1/conversation/completion',
  'POST /v1/conversation/chat_completion',
  'POST /v1/api/completion',
  'POST /v1/chunk/create',
  'POST /v1/chunk/set',
  'POST /v1/document/set_meta',
  'POST /v1/document/change_parser',
]);

export const TOO_LARGE_BODY = { code: 400, message: 'Request body too large', data: null } as const;

export function tooLarge(): ApiError {
  return new ApiError(TOO_LARGE_BODY.code, TOO_LARGE_BODY.message, null, 413);
}

/** The body limit of one route: multipart forms get the upload limit, big JSON the large one. */
export function bodyLimitOf(method: string, url: string, limits: BodyLimits): number {
  const key = routeKey(method, url);
  const entry = routesByKey.get(key);
  if (entry?.form) return limits.uploadBytes;
  if (LARGE_JSON_ROUTES.has(key)) return limits.largeJsonBytes;
  return limits.jsonBytes;
}

/**
 * Installs the limits: every route registered after this gets its own `bodyLimit` (unless it set
 * one), and the onRequest hook refuses an oversized Content-Length before anything buffers it.
 * Multipart parsing does not use `bodyLimit`, so the early check is what bounds an upload's total.
 */
export function installBodyLimits(app: FastifyInstance, limits: BodyLimits): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    if (route.bodyLimit !== undefined) return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    route.bodyLimit = Math.max(...methods.map((m) => bodyLimitOf(m, route.url ?? '', limits)));
  });
  app.addHook('onRequest', async (request: FastifyRequest) => {
    const declared = request.headers['content-length'];
    if (declared === undefined) return;
    const limit = request.routeOptions.bodyLimit ?? limits.jsonBytes;
    const length = Number(declared);
    if (!Number.isFinite(length) || length > limit) throw tooLarge();
  });
}
