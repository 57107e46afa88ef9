import type { FastifyRequest } from 'fastify';
import { RetCode, UNAUTHORIZED_BODY } from '@lectern/shared';
import type { AppContext } from '../context.js';
import type { UserTable } from '../db/types.js';
import { sha256 } from '../security/secrets.js';
import { ApiError } from './envelope.js';

export interface AuthState {
  user: UserTable;
  /** How the caller proved who it is. API keys act as the owner of the key's tenant. */
  via: 'session' | 'apikey';
  apiTokenTenantId?: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth?: AuthState;
  }
  interface FastifyContextConfig {
    /** Routes that need no credential (login, register, config, healthz…). */
    public?: boolean;
  }
}

/** The raw credential of the Authorization header, with or without the "Bearer " scheme. */
export function credentialOf(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const value = header.startsWith('Bearer ') ? header.slice(7).trim() : header.trim();
  return value.length > 0 ? value : null;
}

export function unauthorized(): ApiError {
  return new ApiError(UNAUTHORIZED_BODY.code, UNAUTHORIZED_BODY.message, null, 401);
}

/** Resolves a session token or API key to its user; null when neither holds. */
export async function resolveCredential(ctx: AppContext, credential: string): Promise<AuthState | null> {
  const db = ctx.db.kysely;
  if (credential.startsWith('lectern-')) {
    const row = await db
      .selectFrom('api_token')
      .select(['tenant_id'])
      .where('token_hash', '=', ctx.secrets.mac(credential))
      .executeTakeFirst();
    if (!row) return null;
    const user = await db
      .selectFrom('user')
      .selectAll()
      .where('id', '=', row.tenant_id)
      .where('status', '=', '1')
      .executeTakeFirst();
    return user ? { user, via: 'apikey', apiTokenTenantId: row.tenant_id } : null;
  }
  const accessToken = ctx.secrets.openSessionToken(credential);
  if (!accessToken) return null;
  const user = await db
    .selectFrom('user')
    .selectAll()
    .where('access_token', '=', sha256(accessToken))
    .where('status', '=', '1')
    .executeTakeFirst();
  return user ? { user, via: 'session' } : null;
}

/**
 * Account routes (API.md §1.4): an API key acts as its tenant on the data routes but may never
 * change the account or mint credentials, so these need a session token and answer a key with
 * 109 "No authorization." — password/profile, default models, API keys and beta tokens, model
 * provider keys (issue 11 item 5).
 */
export const SESSION_ONLY_ROUTES: ReadonlySet<string> = new Set([
  'POST /v1/user/setting',
  'POST /v1/user/set_tenant_info',
  'POST /v1/system/new_token',
  'DELETE /v1/system/token/:token',
  'POST /v1/api/new_token',
  'POST /v1/api/rm',
  'POST /v1/llm/set_api_key',
  'POST /v1/llm/add_llm',
]);

/** onRequest hook: every route is login-required unless its config says `public: true`. */
export function authHook(ctx: AppContext) {
  return async (request: FastifyRequest): Promise<void> => {
    if (request.routeOptions.config?.public) return;
    if (!/^\/(v1|api)\//.test(request.url)) return; // the web app's own files (index.html, assets) are public
    if (!request.routeOptions.url) return; // unknown path: the 404 handler answers
    const credential = credentialOf(request);
    if (!credential) throw unauthorized();
    const auth = await resolveCredential(ctx, credential);
    if (!auth) throw unauthorized();
    if (auth.via === 'apikey' && SESSION_ONLY_ROUTES.has(`${request.method} ${request.routeOptions.url}`))
      throw new ApiError(RetCode.AUTHENTICATION_ERROR, 'No authorization.', false);
    request.auth = auth;
  };
}

/** The authenticated state of a login-required route (set by the hook). */
export function authOf(request: FastifyRequest): AuthState {
  if (!request.auth) throw unauthorized();
  return request.auth;
}
