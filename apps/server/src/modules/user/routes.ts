import type { FastifyInstance, FastifyRequest } from 'fastify';
import { contract } from '@lectern/shared';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { authOf } from '../../http/auth.js';
import { errors, ok } from '../../http/envelope.js';
import { validate } from '../../http/validate.js';
import { presentTenantInfo, presentUser } from './presenter.js';
import * as users from './service.js';

const c = contract.user;

export async function userRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.post('/v1/user/register', { config: { public: true } }, async (req, reply) => {
    if (!ctx.config.registerEnabled)
      return users.registerUser(ctx, { nickname: '', email: '', password: '' });
    const body = validate(c.register.body, req.body);
    const session = await users.registerUser(ctx, body);
    reply.header('Authorization', session.headerToken);
    return ok(presentUser(session.user, session.accessToken), `${session.user.nickname}, welcome aboard!`);
  });

  app.post(
    '/v1/user/login',
    {
      config: {
        public: true,
        rateLimit: {
          max: ctx.config.loginRateLimit,
          timeWindow: 60_000,
          hook: 'preHandler',
          // Keyed on the normalized e-mail: "A@x.org " and "a@x.org" are one account, one budget.
          keyGenerator: (req) =>
            `${req.ip}:${users.normalizeEmail((req.body as { email?: unknown } | undefined)?.email)}`,
        },
      },
    },
    async (req, reply) => {
      const session = await users.loginUser(ctx, validate(c.login.body, req.body));
      reply.header('Authorization', session.headerToken);
      return ok(presentUser(session.user, session.accessToken), 'Welcome back!');
    },
  );

  const logout = async (req: FastifyRequest) => {
    await users.logoutUser(ctx, authOf(req).user.id);
    return ok(true);
  };
  app.get('/v1/user/logout', logout);
  app.post('/v1/user/logout', logout);

  const info = async (req: FastifyRequest) => ok(presentUser(authOf(req).user));
  app.get('/v1/user/info', info);
  app.get('/v1/account/user/info', info);

  app.post('/v1/user/setting', async (req) => {
    const body = validate(c.setting.body, req.body);
    await users.updateSetting(ctx, authOf(req).user, body);
    return ok(true);
  });

  app.get('/v1/user/tenant_info', async (req) => {
    const tenant = await users.ownedTenant(ctx, authOf(req).user.id);
    return ok(presentTenantInfo(tenant, tenant.role));
  });

  app.post('/v1/user/set_tenant_info', async (req) => {
    const body = validate(c.setTenantInfo.body, req.body);
    await users.setTenantInfo(ctx, authOf(req).user.id, body);
    return ok(true);
  });

  app.get('/v1/user/login/channels', { config: { public: true } }, async () =>
    ok(loginChannels(ctx.config.loginChannels)),
  );
}

const channelSchema = z.array(
  z.object({ channel: z.string().min(1), display_name: z.string(), icon: z.string().default('') }),
);

/** The configured SSO channels (`LOGIN_CHANNELS`); a malformed value answers 100 with the reason. */
function loginChannels(raw: string) {
  if (raw.trim() === '') return [];
  try {
    return channelSchema
      .parse(JSON.parse(raw))
      .map((c) => ({ channel: c.channel, display_name: c.display_name, icon: c.icon }));
  } catch (err) {
    const reason = err instanceof z.ZodError ? (err.issues[0]?.message ?? 'invalid') : (err as Error).message;
    throw errors.exception(`Load channels failure, error: ${reason}`);
  }
}
