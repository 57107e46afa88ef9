import type { FastifyInstance, FastifyRequest } from 'fastify';
import { contract } from '@lectern/shared';
import type { AppContext } from '../../context.js';
import { authOf } from '../../http/auth.js';
import { ok } from '../../http/envelope.js';
import { validate } from '../../http/validate.js';
import { accessScopeOf, authorize, resource } from '../../policy/index.js';
import { deleteKeys, getKeys, NO_KEYS_MESSAGE, setKeys } from './service.js';

const c = contract.langfuse;

/**
 * /v1/langfuse (API.md §14): the tracing keys of the caller's own tenant (one row per tenant). An
 * API key acts as its tenant's owner, so it manages that tenant's keys too.
 */
export async function langfuseRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const tenantOf = async (req: FastifyRequest): Promise<string> => {
    const userId = authOf(req).user.id;
    authorize(await accessScopeOf(ctx.db.kysely, userId), 'manage', resource.tenant(userId));
    return userId;
  };

  const set = async (req: FastifyRequest) => {
    const body = validate(c.setApiKey.body, req.body);
    return ok(await setKeys(ctx, await tenantOf(req), body));
  };
  app.post('/v1/langfuse/api_key', set);
  app.put('/v1/langfuse/api_key', set);

  app.get('/v1/langfuse/api_key', async (req) => {
    const keys = await getKeys(ctx, await tenantOf(req));
    return keys ? ok(keys) : { code: 0, message: NO_KEYS_MESSAGE };
  });

  app.delete('/v1/langfuse/api_key', async (req) => {
    const removed = await deleteKeys(ctx, await tenantOf(req));
    return removed ? ok(true as const) : { code: 0, message: NO_KEYS_MESSAGE };
  });
}
