import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { authOf } from '../../http/auth.js';
import { ok } from '../../http/envelope.js';
import { productVersion } from '../../version.js';
import { ownedTenant } from '../user/service.js';
import { presentApiToken } from './presenter.js';
import * as system from './service.js';

export async function systemRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const version = productVersion();

  app.get('/v1/system/version', async () => ok(version));

  app.get('/v1/system/config', { config: { public: true } }, async () =>
    ok({ registerEnabled: ctx.config.registerEnabled ? 1 : 0 }),
  );

  app.get('/v1/system/ping', { config: { public: true } }, async () => ok('pong'));

  app.get('/v1/system/status', async () => ok(await system.systemStatus(ctx)));

  // Plain health map for load balancers and orchestrators (not enveloped).
  app.get('/v1/system/healthz', { config: { public: true } }, async (_req, reply) => {
    const names = ['database', 'storage', 'doc_engine', 'queue'];
    const results = await Promise.all(names.map((n) => ctx.health.run(n)));
    const body: Record<string, string> = {};
    names.forEach((n, i) => (body[n] = results[i].status === 'green' ? 'ok' : 'nok'));
    const healthy = results.every((r) => r.status === 'green');
    body.status = healthy ? 'ok' : 'nok';
    return reply.status(healthy ? 200 : 500).send(body);
  });

  app.post('/v1/system/new_token', async (req) => {
    const tenant = await ownedTenant(ctx, authOf(req).user.id);
    const row = await system.createApiToken(ctx, tenant.id);
    return ok(presentApiToken(row, true));
  });

  app.get('/v1/system/token_list', async (req) => {
    const tenant = await ownedTenant(ctx, authOf(req).user.id);
    const rows = await system.listApiTokens(ctx, tenant.id);
    return ok(rows.map((r) => presentApiToken(r)));
  });

  app.delete<{ Params: { token: string } }>('/v1/system/token/:token', async (req) => {
    const tenant = await ownedTenant(ctx, authOf(req).user.id);
    await system.deleteApiToken(ctx, tenant.id, req.params.token);
    return ok(true);
  });
}
