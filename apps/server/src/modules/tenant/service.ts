/**
 * Teams (API.md §3, §1.6): a tenant is its owner's team; members are `user_tenant` rows. The owner
 * invites by e-mail (role `invite`), the invitee agrees (→ `normal`) or refuses (its row goes), the
 * owner removes a member or a member quits. Access follows at once: the policy module reads the
 * memberships on every request, so a removed member's next call already sees nothing shared.
 */
import type { AppContext } from '../../context.js';
import { isUniqueViolation } from '../../db/locks.js';
import type { UserTable } from '../../db/types.js';
import { errors } from '../../http/envelope.js';
import { accessScopeOf, authorize, resource } from '../../policy/index.js';
import { newId } from '../../util/ids.js';
import { creationStamps, updateStamps } from '../../util/time.js';
import { sendInvitation } from './mail.js';

async function authorizeOwner(ctx: AppContext, user: UserTable, tenantId: string): Promise<void> {
  authorize(await accessScopeOf(ctx.db.kysely, user.id), 'manage', resource.tenant(tenantId));
}

/** Members of the caller's team except the owner, with their profiles. */
export async function listMembers(ctx: AppContext, user: UserTable, tenantId: string) {
  await authorizeOwner(ctx, user, tenantId);
  return ctx.db.kysely
    .selectFrom('user_tenant as ut')
    .innerJoin('user as u', 'u.id', 'ut.user_id')
    .select([
      'ut.id',
      'ut.user_id',
      'ut.role',
      'ut.status',
      'ut.update_time',
      'u.nickname',
      'u.email',
      'u.avatar',
      'u.is_active',
      'u.is_authenticated',
      'u.is_anonymous',
      'u.is_superuser',
    ])
    .where('ut.tenant_id', '=', tenantId)
    .where('ut.role', '!=', 'owner')
    .where('ut.status', '=', '1')
    .orderBy('ut.create_time')
    .execute();
}

/** `POST /tenant/<id>/user`: an `invite` membership, and the invitation mail (best effort). */
export async function invite(ctx: AppContext, user: UserTable, tenantId: string, rawEmail: string) {
  await authorizeOwner(ctx, user, tenantId);
  const db = ctx.db.kysely;
  const email = rawEmail.trim();
  const invitee = await db
    .selectFrom('user')
    .selectAll()
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
    .executeTakeFirst();
  if (!invitee) throw errors.data('User not found.');
  const existing = await db
    .selectFrom('user_tenant')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', invitee.id)
    .executeTakeFirst();
  if (existing || invitee.id === tenantId) {
    const role = invitee.id === tenantId ? 'owner' : existing!.role;
    if (role === 'normal' || role === 'invite') throw errors.data(`${email} is already in the team.`);
    if (role === 'owner') throw errors.data(`${email} is the owner of the team.`);
    throw errors.data(`${email} is in the team, but the role: ${role} is invalid.`);
  }
  try {
    await db
      .insertInto('user_tenant')
      .values({
        id: newId(),
        user_id: invitee.id,
        tenant_id: tenantId,
        role: 'invite',
        invited_by: user.id,
        status: '1',
        ...creationStamps(),
      })
      .execute();
  } catch (err) {
    if (isUniqueViolation(err)) throw errors.data(`${email} is already in the team.`);
    throw err;
  }
  try {
    await sendInvitation(ctx.config.smtp, {
      to: invitee.email,
      inviterName: user.nickname,
      inviterEmail: user.email,
    });
  } catch (err) {
    // Best effort (API.md §3): the invitation stands; the invitee sees it in Team settings.
    console.warn(`Invitation mail to ${invitee.email} failed: ${(err as Error).message}`);
  }
  return { id: invitee.id, avatar: invitee.avatar, email: invitee.email, nickname: invitee.nickname };
}

/** The owner removes a member, or a member (or invitee) leaves: the membership row goes. */
export async function removeMember(ctx: AppContext, user: UserTable, tenantId: string, userId: string) {
  const isOwner = user.id === tenantId;
  if (!isOwner && user.id !== userId) throw errors.noAuthorization();
  // The owner's own row is the team itself; it never goes.
  if (userId === tenantId) throw errors.noAuthorization();
  await ctx.db.kysely
    .deleteFrom('user_tenant')
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .where('role', '!=', 'owner')
    .execute();
}

/** Teams the caller belongs to (own included, pending invitations too), with the owners' profiles. */
export async function joinedTeams(ctx: AppContext, user: UserTable) {
  return ctx.db.kysely
    .selectFrom('user_tenant as ut')
    .innerJoin('user as owner', 'owner.id', 'ut.tenant_id')
    .select(['ut.tenant_id', 'ut.role', 'ut.update_time', 'owner.nickname', 'owner.email', 'owner.avatar'])
    .where('ut.user_id', '=', user.id)
    .where('ut.status', '=', '1')
    .orderBy('ut.create_time')
    .execute();
}

/** The caller's pending invitation to `tenantId` becomes a `normal` membership. */
export async function agree(ctx: AppContext, user: UserTable, tenantId: string): Promise<void> {
  const res = await ctx.db.kysely
    .updateTable('user_tenant')
    .set({ role: 'normal', ...updateStamps() })
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', user.id)
    .where('role', '=', 'invite')
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) === 0) throw errors.data('Invitation not found.');
}
