/**
 * Search apps (API.md §15): create, update (search_config shallow-merged), detail, list, rm, with
 * the access policy's search rule (members read, the creator changes), and the stored config as the
 * search pipeline reads it.
 */
import { sql } from 'kysely';
import type { AppContext } from '../../context.js';
import { parseJson, toJson } from '../../db/json.js';
import { errors } from '../../http/envelope.js';
import { maskSecret } from '../../security/secrets.js';
import {
  accessScopeOf,
  loadKbs,
  loadSearch,
  readableSearches,
  type Action,
  type SearchRow,
} from '../../policy/index.js';
import { newId } from '../../util/ids.js';
import { creationStamps, updateStamps } from '../../util/time.js';
import { listQueryOf, nameContains } from '../kb/paging.js';
import { ownedTenant } from '../user/service.js';
import { DEFAULT_SEARCH_CONFIG, type SearchConfig } from '@lectern/shared';
import { checkSearchConfig } from './config.js';

export type { SearchRow };

/** The stored config with the §15 defaults under it (keys the client added are kept). */
export function searchConfigOf(row: SearchRow): SearchConfig {
  return { ...DEFAULT_SEARCH_CONFIG, ...parseJson<Partial<SearchConfig>>(row.search_config, {}) };
}

/** A live search app the caller may read (103) or manage (109). */
export async function loadSearchApp(
  ctx: AppContext,
  userId: string,
  searchId: unknown,
  action: Action,
): Promise<SearchRow> {
  const db = ctx.db.kysely;
  return loadSearch(db, await accessScopeOf(db, userId), searchId, action);
}

/** Name rules of API.md §15 with their 102 messages; returns the trimmed name. */
export function checkSearchName(name: unknown): string {
  if (typeof name !== 'string') throw errors.data('Search name must be string.');
  if (name.trim() === '') throw errors.data("Search name can't be empty.");
  const bytes = Buffer.byteLength(name, 'utf8');
  if (bytes > 255) throw errors.data(`Search name length is ${bytes} which is large than 255.`);
  return name.trim();
}

async function liveNames(ctx: AppContext, tenantId: string, exceptId = '') {
  const rows = await ctx.db.kysely
    .selectFrom('search')
    .select(['id', 'name'])
    .where('tenant_id', '=', tenantId)
    .where('status', '=', '1')
    .execute();
  return new Set(rows.filter((r) => r.id !== exceptId).map((r) => r.name.toLowerCase()));
}

/** POST /v1/search/create: a new app of the caller's tenant; a taken name gets `name(1)`, `name(2)`…. */
export async function createSearch(
  ctx: AppContext,
  userId: string,
  body: { name: unknown; description?: string | null },
): Promise<string> {
  const name = checkSearchName(body.name);
  const tenant = await ownedTenant(ctx, userId);
  const taken = await liveNames(ctx, tenant.id);
  let unique = name;
  for (let i = 1; taken.has(unique.toLowerCase()); i++) unique = `${name}(${i})`;
  const id = newId();
  await ctx.db.kysely
    .insertInto('search')
    .values({
      id,
      avatar: '',
      tenant_id: tenant.id,
      name: unique,
      description: body.description ?? '',
      created_by: userId,
      search_config: toJson({ ...DEFAULT_SEARCH_CONFIG }),
      status: '1',
      ...creationStamps(),
    })
    .execute();
  return id;
}

export interface UpdateInput {
  search_id: string;
  name: unknown;
  search_config: unknown;
  tenant_id: string;
  description?: string | null;
  avatar?: string | null;
}

/** POST /v1/search/update: checks in the order of API.md §15, then the shallow merge. */
export async function updateSearch(ctx: AppContext, userId: string, body: UpdateInput): Promise<SearchRow> {
  const name = checkSearchName(body.name);
  const db = ctx.db.kysely;
  const scope = await accessScopeOf(db, userId);
  const row = await loadSearch(db, scope, body.search_id, 'manage');
  if (row.tenant_id !== body.tenant_id) throw errors.data(`Cannot find search ${body.search_id}`);
  if ((await liveNames(ctx, row.tenant_id, row.id)).has(name.toLowerCase())) {
    throw errors.data('Duplicated search name.');
  }
  const incoming = body.search_config;
  if (incoming === null || typeof incoming !== 'object' || Array.isArray(incoming)) {
    throw errors.data('search_config must be a JSON object');
  }
  const changes = checkSearchConfig(incoming as Record<string, unknown>) as Partial<SearchConfig> & {
    tavily_api_key?: string;
  };
  // The web-search key is shown masked; sending the mask back keeps the stored key.
  const storedKey = webSearchKeyOf(searchConfigOf(row));
  if (storedKey && changes.tavily_api_key === maskSecret(storedKey)) changes.tavily_api_key = storedKey;
  if (changes.kb_ids && changes.kb_ids.length > 0) {
    // Every KB must be one the caller may use (109 otherwise).
    await loadKbs(db, scope, [...new Set(changes.kb_ids)], 'read');
  }
  const config = { ...searchConfigOf(row), ...changes };
  const stamps = updateStamps();
  const set = {
    name,
    search_config: toJson(config),
    ...(body.description !== undefined ? { description: body.description ?? '' } : {}),
    ...(body.avatar !== undefined ? { avatar: body.avatar ?? '' } : {}),
    ...stamps,
  };
  await db.updateTable('search').set(set).where('id', '=', row.id).execute();
  return { ...row, ...set, search_config: config };
}

/** The app's Tavily key (`search_config.tavily_api_key`), or '' without one. */
export function webSearchKeyOf(config: Record<string, unknown>): string {
  const key = config.tavily_api_key;
  return typeof key === 'string' ? key.trim() : '';
}

const ORDERABLE = ['create_time', 'update_time', 'name'] as const;

/** POST /v1/search/list: the apps of the caller's teams with owner nickname/avatar, filtered and paged. */
export async function listSearches(
  ctx: AppContext,
  userId: string,
  rawQuery: Record<string, unknown>,
  ownerIds: string[] | null | undefined,
) {
  const q = listQueryOf(rawQuery, ORDERABLE);
  const scope = await accessScopeOf(ctx.db.kysely, userId);
  let base = ctx.db.kysely
    .selectFrom('search')
    .innerJoin('user', 'user.id', 'search.tenant_id')
    .where(readableSearches(scope, { alias: 'search', ownerIds }));
  if (q.keywords) base = base.where(nameContains('search.name', q.keywords));
  const count = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  let rows = base
    .selectAll('search')
    .select(['user.nickname as nickname', 'user.avatar as tenant_avatar'])
    .orderBy(sql.ref(`search.${q.orderby}`), q.desc ? 'desc' : 'asc')
    .orderBy('search.id');
  if (q.page > 0 && q.pageSize > 0) rows = rows.limit(q.pageSize).offset((q.page - 1) * q.pageSize);
  return { rows: await rows.execute(), total: Number(count?.n ?? 0) };
}

/** POST /v1/search/rm: soft delete by the creator (109 otherwise). */
export async function removeSearch(ctx: AppContext, userId: string, searchId: string): Promise<void> {
  const row = await loadSearchApp(ctx, userId, searchId, 'manage');
  await ctx.db.kysely
    .updateTable('search')
    .set({ status: '0', ...updateStamps() })
    .where('id', '=', row.id)
    .execute();
}
