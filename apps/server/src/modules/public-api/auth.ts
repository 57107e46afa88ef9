/**
 * The public API's credential (API.md §17): `Authorization: Bearer <api key>` only. A missing header
 * answers `{code:0, data:false, message:"`Authorization` can't be empty"}`, a one-part header
 * "Please check your authorization format." (also code 0, data false), an unknown key 109. The key
 * acts as the owner of its tenant, so every service below sees that user and the access policy
 * keeps the key inside its tenant's (and that owner's teams') data.
 */
import type { FastifyRequest } from 'fastify';
import { RetCode } from '@lectern/shared';
import type { AppContext } from '../../context.js';
import type { UserTable } from '../../db/types.js';
import { credentialOf } from '../../http/auth.js';
import { ApiError, errors } from '../../http/envelope.js';

export const INVALID_KEY = 'Authentication error: API key is invalid!';

export function publicApiAuth(ctx: AppContext) {
  return async (req: FastifyRequest): Promise<void> => {
    const header = req.headers.authorization?.trim() ?? '';
    if (header === '') throw new ApiError(RetCode.SUCCESS, "`Authorization` can't be empty", false);
    const parts = header.split(/\s+/);
    if (parts.length < 2)
      throw new ApiError(RetCode.SUCCESS, 'Please check your authorization format.', false);
    const db = ctx.db.kysely;
    const row = await db
      .selectFrom('api_token')
      .select(['tenant_id'])
      .where('token_hash', '=', ctx.secrets.mac(parts[1]))
      .executeTakeFirst();
    if (!row) throw errors.auth(INVALID_KEY, false);
    const user = await db
      .selectFrom('user')
      .selectAll()
      .where('id', '=', row.tenant_id)
      .where('status', '=', '1')
      .executeTakeFirst();
    if (!user) throw errors.auth(INVALID_KEY, false);
    req.auth = { user, via: 'apikey', apiTokenTenantId: row.tenant_id };
  };
}

/** The public API's success shape: `{code: 0, data}` (no message). */
export function done<T>(data: T): { code: 0; data: T } {
  return { code: 0, data };
}

/** Routes of the public API are registered `public` for the web auth hook; `publicApiAuth` guards them. */
export const PUBLIC = { config: { public: true } } as const;

/** An integer paging value from the query string (absent → fallback; not a positive integer → 100). */
export function pageParam(name: string, value: unknown, fallback: number): number {
  if (value === undefined || value === null || value === '') return fallback;
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isInteger(n) || n < 1) throw errors.exception(`\`${name}\` must be a positive integer.`);
  return n;
}

/**
 * The embed pages' credential (`/api/v1/*bots/*`, API.md §1.4): the beta token of an API key, acting
 * as the owner of the key's tenant; the same refusals as `conversation/getsse` (102).
 */
export async function betaOwner(ctx: AppContext, req: FastifyRequest): Promise<UserTable> {
  const header = req.headers.authorization ?? '';
  if (header.trim().split(/\s+/).length !== 2) throw errors.data('Authorization is not valid!');
  const beta = credentialOf(req) ?? '';
  const db = ctx.db.kysely;
  const token = await db
    .selectFrom('api_token')
    .select(['tenant_id'])
    .where('beta_hash', '=', ctx.secrets.mac(beta))
    .executeTakeFirst();
  const user = token
    ? await db
        .selectFrom('user')
        .selectAll()
        .where('id', '=', token.tenant_id)
        .where('status', '=', '1')
        .executeTakeFirst()
    : undefined;
  if (!user) throw errors.data('Authentication error: API key is invalid!');
  return user;
}
