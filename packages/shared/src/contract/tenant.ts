/** `/v1/tenant` — teams (API.md §3). */
import { z } from 'zod';
import { done, httpDate } from './common.js';
import { route } from './route.js';
import { TENANT_ROLES } from './enums.js';

const roleSchema = z.enum(TENANT_ROLES);

/** A member of the caller's team (`user/list`; the owner is not listed). */
export const teamMemberSchema = z.strictObject({
  id: z.string(),
  user_id: z.string(),
  role: roleSchema,
  status: z.string(),
  nickname: z.string(),
  email: z.string(),
  avatar: z.string().nullable(),
  is_active: z.string(),
  is_authenticated: z.string(),
  is_anonymous: z.string(),
  is_superuser: z.boolean(),
  update_date: httpDate,
  delta_seconds: z.number(),
});
export type TeamMember = z.infer<typeof teamMemberSchema>;

/** A team the caller belongs to (`tenant/list`), with the owner's profile. */
export const joinedTeamSchema = z.strictObject({
  tenant_id: z.string(),
  role: roleSchema,
  nickname: z.string(),
  email: z.string(),
  avatar: z.string().nullable(),
  update_date: httpDate,
  delta_seconds: z.number(),
});
export type JoinedTeam = z.infer<typeof joinedTeamSchema>;

export const tenantContract = {
  members: route({
    method: 'GET',
    path: '/v1/tenant/:tenant_id/user/list',
    auth: 'login',
    data: z.array(teamMemberSchema),
  }),
  invite: route({
    method: 'POST',
    path: '/v1/tenant/:tenant_id/user',
    auth: 'login',
    body: z.object({ email: z.string() }),
    data: z.strictObject({
      id: z.string(),
      avatar: z.string().nullable(),
      email: z.string(),
      nickname: z.string(),
    }),
  }),
  remove: route({
    method: 'DELETE',
    path: '/v1/tenant/:tenant_id/user/:user_id',
    auth: 'login',
    data: done,
  }),
  list: route({ method: 'GET', path: '/v1/tenant/list', auth: 'login', data: z.array(joinedTeamSchema) }),
  agree: route({ method: 'PUT', path: '/v1/tenant/agree/:tenant_id', auth: 'login', data: done }),
};
