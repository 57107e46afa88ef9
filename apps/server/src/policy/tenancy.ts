import type { Db } from '../db/connection.js';
import { errors } from '../errors.js';

/**
 * The one place that answers "may this user read or change this row?" (API.md §1.6):
 * the owner tenant may; members with role `normal` of the row's tenant may when the row's
 * `permission` is "team". Unknown rows and foreign rows get the same answer.
 */
export interface AccessScope {
  userId: string;
  /** Tenants whose team-shared rows this user may use (role `normal`). */
  teamTenantIds: string[];
}

export async function accessScopeOf(db: Db, userId: string): Promise<AccessScope> {
  const rows = await db.kysely
    .selectFrom('user_tenant')
    .select('tenant_id')
    .where('user_id', '=', userId)
    .where('role', '=', 'normal')
    .where('status', '=', '1')
    .execute();
  return { userId, teamTenantIds: rows.map((r) => r.tenant_id) };
}

export interface TenantOwned {
  tenant_id: string;
  permission?: string | null;
}

export function mayAccess(scope: AccessScope, row: TenantOwned | null | undefined): boolean {
  if (!row) return false;
  if (row.tenant_id === scope.userId) return true;
  return row.permission === 'team' && scope.teamTenantIds.includes(row.tenant_id);
}

/** Tenants whose rows the user may list: its own, plus teams it is a normal member of. */
export function visibleTenantIds(scope: AccessScope): string[] {
  return [scope.userId, ...scope.teamTenantIds];
}

/** Throws 109 "No authorization." unless the row exists and the user may access it. */
export function assertAccess<T extends TenantOwned>(scope: AccessScope, row: T | null | undefined): T {
  if (!row || !mayAccess(scope, row)) throw errors.noAuthorization();
  return row;
}
