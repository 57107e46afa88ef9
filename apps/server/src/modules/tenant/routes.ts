/** Team routes (API.md §3): validate → service (which asks the policy module) → presenter. */
import type { FastifyInstance } from 'fastify';
import { contract } from '@lectern/shared';
import type { AppContext } from '../../context.js';
import { authOf } from '../../http/auth.js';
import { ok } from '../../http/envelope.js';
import { validate } from '../../http/validate.js';
import { presentMember, presentTeam } from './presenter.js';
import * as teams from './service.js';

const c = contract.tenant;

export async function tenantRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get<{ Params: { tenant_id: string } }>('/v1/tenant/:tenant_id/user/list', async (req) => {
    const rows = await teams.listMembers(ctx, authOf(req).user, req.params.tenant_id);
    return ok(rows.map(presentMember));
  });

  app.post<{ Params: { tenant_id: string } }>('/v1/tenant/:tenant_id/user', async (req) => {
    const { email } = validate(c.invite.body, req.body);
    return ok(await teams.invite(ctx, authOf(req).user, req.params.tenant_id, email));
  });

  app.delete<{ Params: { tenant_id: string; user_id: string } }>(
    '/v1/tenant/:tenant_id/user/:user_id',
    async (req) => {
      await teams.removeMember(ctx, authOf(req).user, req.params.tenant_id, req.params.user_id);
      return ok(true);
    },
  );

  app.get('/v1/tenant/list', async (req) => {
    return ok((await teams.joinedTeams(ctx, authOf(req).user)).map(presentTeam));
  });

  app.put<{ Params: { tenant_id: string } }>('/v1/tenant/agree/:tenant_id', async (req) => {
    await teams.agree(ctx, authOf(req).user, req.params.tenant_id);
    return ok(true);
  });
}
