/**
 * Who is asking (API.md §1.4, §1.6). A tenant is a team whose id is its owner's user id, so a caller
 * is the owner of exactly one tenant — its own — and may be a `normal` member of others. Pending
 * invitees (`invite`), `admin` rows and disabled memberships give nothing.
 *
 * An API key acts as the owner user of the key's tenant (user id = tenant id): its scope is that
 * user's scope, built the same way (`accessScopeOf(db, key.tenant_id)`).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/types.js';

export interface AccessScope {
  /** The caller's user id, which is also the id of the tenant it owns. */
  userId: string;
  /** Tenants whose team-shared rows this caller may use (membership role `normal`, status "1"). */
  teamTenantIds: readonly string[];
}

export async function accessScopeOf(db: Kysely<Database>, userId: string): Promise<AccessScope> {
  const rows = await db
    .selectFrom('user_tenant')
    .select('tenant_id')
    .where('user_id', '=', userId)
    .where('role', '=', 'normal')
    .where('status', '=', '1')
    .execute();
  return { userId, teamTenantIds: rows.map((r) => r.tenant_id).filter((t) => t !== userId) };
}

/** Tenants whose rows the caller may list: its own, plus teams it is a normal member of. */
export function visibleTenantIds(scope: AccessScope): string[] {
  return [scope.userId, ...scope.teamTenantIds];
}

/** `visibleTenantIds`, narrowed to `ownerIds` when that list is non-empty (the lists' `owner_ids`). */
export function listedTenantIds(scope: AccessScope, ownerIds?: readonly string[] | null): string[] {
  const all = visibleTenantIds(scope);
  return ownerIds && ownerIds.length > 0 ? all.filter((t) => ownerIds.includes(t)) : all;
}
