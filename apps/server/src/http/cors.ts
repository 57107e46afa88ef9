/**
 * CORS (issue 11 item 7). Browsers on the configured origins (`CORS_ORIGINS`) get their origin back
 * with credentials allowed. The routes made for other sites — the share/embed streams (beta
 * token), the legacy API-key chat routes and the public `/api/` — answer any origin with `*` and no
 * credentials: their callers send a key in the Authorization header, never cookies. Every other
 * cross-origin request gets no CORS headers, so a foreign page cannot read the answers. The web app
 * itself is same-origin and needs none of this.
 */
import cors, { type FastifyCorsOptions } from '@fastify/cors';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { allRoutes } from '@lectern/shared';

const EXPOSED = ['Authorization'];

/** Contract paths as patterns (`:param` = one segment), with the auth kind of the route. */
const crossSiteRoutes = allRoutes
  .filter((r) => r.auth === 'apiKey' || r.auth === 'beta')
  .map((r) => ({
    method: r.method,
    pattern: new RegExp(`^${r.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[a-z_]+/g, '[^/]+')}/?$`),
  }));

/** Routes other sites call: the public `/api/`, the API-key and beta-token routes of the contract. */
export function isCrossSiteRoute(method: string, url: string): boolean {
  const path = url.split('?')[0];
  if (path.startsWith('/api/')) return true;
  return crossSiteRoutes.some((r) => r.method === method && r.pattern.test(path));
}

/** The method of the real request (a preflight names it in a header). */
function methodOf(request: FastifyRequest): string {
  return request.method === 'OPTIONS'
    ? String(request.headers['access-control-request-method'] ?? 'GET').toUpperCase()
    : request.method;
}

export async function installCors(app: FastifyInstance, allowedOrigins: readonly string[]): Promise<void> {
  const allowed = new Set(allowedOrigins);
  await app.register(cors, {
    hideOptionsRoute: true,
    delegator: (request, callback) => {
      const origin = request.headers.origin;
      if (origin && allowed.has(origin)) {
        return callback(null, { origin, credentials: true, exposedHeaders: EXPOSED });
      }
      if (origin && isCrossSiteRoute(methodOf(request), request.url)) {
        return callback(null, { origin: '*', credentials: false, exposedHeaders: EXPOSED });
      }
      return callback(null, { origin: false } satisfies FastifyCorsOptions);
    },
  });
}
