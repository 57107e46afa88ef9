/**
 * The rules of ./rules.ts as SQL, for list queries: `query.where(readableKbs(scope, { alias: 'kb' }))`
 * keeps exactly the rows `can(scope, 'read', …)` allows (live; owner tenant, or "team" rows of
 * tenants where the caller is a `normal` member), optionally narrowed to `owner_ids` (API.md §1.7).
 * Raw SQL over column references, so one helper serves every alias and both dialects.
 */
import { sql, type Expression, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { Database } from '../db/types.js';
import { listedTenantIds, type AccessScope } from './scope.js';

export interface ListFilter {
  /** The table's alias in the query (its name when not aliased). */
  alias?: string;
  /** `owner_ids` of the list request: only rows of these tenants (ignored when empty). */
  ownerIds?: readonly string[] | null;
}

const NOTHING: RawBuilder<SqlBool> = sql<SqlBool>`1 = 0`;

function column(alias: string | undefined, table: string, name: string) {
  return sql.ref(`${alias ?? table}.${name}`);
}

function anyOf(parts: Array<RawBuilder<SqlBool>>): RawBuilder<SqlBool> {
  if (parts.length === 0) return NOTHING;
  return sql<SqlBool>`(${sql.join(parts, sql` or `)})`;
}

/** Owner tenant's rows, plus "team" rows of the caller's teams (tenancy of KBs and canvases). */
function sharedOrOwned(
  scope: AccessScope,
  tenant: Expression<unknown>,
  permission: Expression<unknown>,
  ownerIds?: readonly string[] | null,
): RawBuilder<SqlBool> {
  const tenants = listedTenantIds(scope, ownerIds);
  const teams = tenants.filter((t) => t !== scope.userId);
  const parts: Array<RawBuilder<SqlBool>> = [];
  if (tenants.includes(scope.userId)) parts.push(sql<SqlBool>`${tenant} = ${scope.userId}`);
  if (teams.length > 0) {
    parts.push(sql<SqlBool>`(${tenant} in (${sql.join(teams)}) and ${permission} = ${'team'})`);
  }
  return anyOf(parts);
}

/** Where-clause of the KBs the caller may read (`kb/list`, retrieval pickers). */
export function readableKbs(scope: AccessScope, f: ListFilter = {}): RawBuilder<SqlBool> {
  const c = (name: string) => column(f.alias, 'knowledgebase', name);
  return sql<SqlBool>`(${c('status')} = ${'1'} and ${sharedOrOwned(scope, c('tenant_id'), c('permission'), f.ownerIds)})`;
}

/**
 * Where-clause of the live KBs of the caller's own tenant (operations reserved to the owner tenant,
 * e.g. the legacy API key's `DELETE /v1/api/document`, which never reaches team-shared KBs).
 */
export function ownKbs(scope: AccessScope, f: Pick<ListFilter, 'alias'> = {}): RawBuilder<SqlBool> {
  const c = (name: string) => column(f.alias, 'knowledgebase', name);
  return sql<SqlBool>`(${c('status')} = ${'1'} and ${c('tenant_id')} = ${scope.userId})`;
}

/** Ids of the KBs the caller may read (among `among` when given), in no particular order. */
export async function visibleKbIds(
  db: Kysely<Database>,
  scope: AccessScope,
  among?: readonly string[],
): Promise<string[]> {
  if (among && among.length === 0) return [];
  let q = db.selectFrom('knowledgebase').select('id').where(readableKbs(scope));
  if (among) q = q.where('id', 'in', [...among]);
  return (await q.execute()).map((r) => r.id);
}

/**
 * Where-clause of the assistants the caller may read: live dialogs of its own tenant (assistants are
 * never team-shared); with `owner_ids`, nothing unless they include the caller.
 */
export function readableDialogs(scope: AccessScope, f: ListFilter = {}): RawBuilder<SqlBool> {
  const c = (name: string) => column(f.alias, 'dialog', name);
  if (f.ownerIds && f.ownerIds.length > 0 && !f.ownerIds.includes(scope.userId)) return NOTHING;
  return sql<SqlBool>`(${c('status')} = ${'1'} and ${c('tenant_id')} = ${scope.userId})`;
}

export interface CanvasFilter extends ListFilter {
  /** `canvas/listteam`: only canvases shared by teams, none of the caller's own. */
  teamOnly?: boolean;
}

/**
 * Where-clause of the agents the caller may read (`canvas/list`, `dialog/list-public-agent`,
 * `canvas/listteam`): own canvases and "team" canvases of the caller's teams (API.md §13). The
 * `user_canvas` table has no status column, so every row counts as live.
 */
export function readableCanvases(scope: AccessScope, f: CanvasFilter = {}): RawBuilder<SqlBool> {
  const c = (name: string) => column(f.alias, 'user_canvas', name);
  if (!f.teamOnly) return sharedOrOwned(scope, c('user_id'), c('permission'), f.ownerIds);
  const teams = listedTenantIds(scope, f.ownerIds).filter((t) => t !== scope.userId);
  if (teams.length === 0) return NOTHING;
  return sql<SqlBool>`(${c('user_id')} in (${sql.join(teams)}) and ${c('permission')} = ${'team'})`;
}

/**
 * Where-clause of the search apps the caller may read: live apps of its own tenant and of the teams
 * where it is a `normal` member (search apps have no permission switch), narrowed by `owner_ids`.
 */
export function readableSearches(scope: AccessScope, f: ListFilter = {}): RawBuilder<SqlBool> {
  const c = (name: string) => column(f.alias, 'search', name);
  const tenants = listedTenantIds(scope, f.ownerIds);
  if (tenants.length === 0) return NOTHING;
  return sql<SqlBool>`(${c('status')} = ${'1'} and ${c('tenant_id')} in (${sql.join(tenants)}))`;
}
