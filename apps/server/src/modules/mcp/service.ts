/**
 * MCP servers (API.md §16, AGENTS.md §11): the tenant's records (names unique per tenant, tools
 * cached in `variables.tools`) and the live calls to a server — list its tools, call one — over SSE
 * or streamable HTTP with the official SDK client, every request through the outbound guard.
 */
import { sql } from 'kysely';
import { MCP_SERVER_TYPES, RetCode, type McpServerType, type QueryOf, type contract } from '@lectern/shared';
import {
  listMcpTools,
  mcpConfigOf,
  type ListedMcpTool,
  type McpServerConfig,
} from '../../agent-tools/index.js';
import type { AppContext } from '../../context.js';
import { parseJson, toJson } from '../../db/json.js';
import { isUniqueViolation } from '../../db/locks.js';
import type { McpServerRow } from '../../db/tables/mcp.js';
import { ApiError, errors } from '../../http/envelope.js';
import { outboundPolicyOf } from '../../net/index.js';
import { newId } from '../../util/ids.js';
import { creationStamps, updateStamps } from '../../util/time.js';
import { utf8Bytes } from '../kb/naming.js';
import { cachedTools, variablesOf } from './presenter.js';

export type McpCtx = Pick<AppContext, 'db' | 'config'>;
type Json = Record<string, unknown>;

/** Seconds a server gets to answer when the request names no `timeout` (AGENTS.md §11.1). */
export const DEFAULT_TIMEOUT_S = 10;
const NAME_LIMIT_BYTES = 255;
const URL_LIMIT = 2048;
const ORDERABLE = new Set(['create_time', 'update_time', 'name']);

export const timeoutMs = (seconds: number | undefined) => (seconds ?? DEFAULT_TIMEOUT_S) * 1000;

export function serverTypeOf(value: unknown): McpServerType {
  if (!MCP_SERVER_TYPES.includes(value as McpServerType)) throw errors.data('Unsupported MCP server type.');
  return value as McpServerType;
}

export function serverNameOf(value: unknown): string {
  const name = typeof value === 'string' ? value.trim() : '';
  const n = typeof value === 'string' ? utf8Bytes(value) : 0;
  if (!name || n > NAME_LIMIT_BYTES)
    throw errors.data(`Invalid MCP name or length is ${n} which is large than ${NAME_LIMIT_BYTES}.`);
  return name;
}

/** An http(s) URL of at most 2048 characters, else 102 `message`. */
export function serverUrlOf(value: unknown, message = 'Invalid url.'): string {
  const url = typeof value === 'string' ? value.trim() : '';
  let ok = false;
  try {
    ok = url.length <= URL_LIMIT && ['http:', 'https:'].includes(new URL(url).protocol);
  } catch {
    ok = false;
  }
  if (!ok) throw errors.data(message);
  return url;
}

const objectOr = (v: unknown, fallback: Json): Json =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : fallback;

/** The tools of a server, or the reason it could not be reached (`…error: <reason>`). */
export async function fetchTools(
  ctx: McpCtx,
  config: McpServerConfig,
  seconds: number | undefined,
): Promise<ListedMcpTool[]> {
  return listMcpTools(config, outboundPolicyOf(ctx.config), { timeoutMs: timeoutMs(seconds) });
}

export const reason = (err: unknown) => (err instanceof Error && err.message ? err.message : String(err));
export const connectionError = (prefix: string, err: unknown) =>
  new ApiError(RetCode.CONNECTION_ERROR, `${prefix}: ${reason(err)}`, false);

/**
 * The tool cache of a server being saved: what the server lists now, keeping the `enabled` switch
 * of tools already cached. An unreachable server leaves the old cache (none for a new server), as
 * AGENTS.md §11.1 has create succeed while the server is down.
 */
export async function discoverTools(
  ctx: McpCtx,
  config: McpServerConfig,
  seconds: number | undefined,
  previous: Record<string, Json> = {},
): Promise<Record<string, Json>> {
  let listed: ListedMcpTool[];
  try {
    listed = await fetchTools(ctx, config, seconds);
  } catch {
    return previous;
  }
  const out: Record<string, Json> = {};
  for (const t of listed) {
    const enabled = previous[t.name]?.enabled;
    out[t.name] = { ...t, enabled: typeof enabled === 'boolean' ? enabled : true };
  }
  return out;
}

async function nameTaken(ctx: McpCtx, tenantId: string, name: string, exceptId?: string) {
  let q = ctx.db.kysely
    .selectFrom('mcp_server')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('name', '=', name);
  if (exceptId) q = q.where('id', '<>', exceptId);
  return !!(await q.executeTakeFirst());
}

export interface ServerInput {
  name: string;
  url: string;
  server_type: McpServerType;
  description: string | null;
  headers: Json;
  variables: Json;
}

/** Inserts a server; a name another request took meanwhile → 102 "Duplicated MCP server name.". */
export async function insertServer(ctx: McpCtx, tenantId: string, input: ServerInput): Promise<McpServerRow> {
  const row = {
    id: newId(),
    tenant_id: tenantId,
    name: input.name,
    url: input.url,
    server_type: input.server_type,
    description: input.description,
    headers: toJson(input.headers),
    variables: toJson(input.variables),
    ...creationStamps(),
  };
  try {
    await ctx.db.kysely.insertInto('mcp_server').values(row).execute();
  } catch (err) {
    if (isUniqueViolation(err)) throw errors.data('Duplicated MCP server name.');
    throw err;
  }
  return row satisfies McpServerRow;
}

type CreateBody = {
  name: unknown;
  url: unknown;
  server_type: unknown;
  description?: string | null;
  headers?: Json | null;
  variables?: Json | null;
  timeout?: number;
};

export async function createServer(ctx: McpCtx, tenantId: string, body: CreateBody): Promise<McpServerRow> {
  const server_type = serverTypeOf(body.server_type);
  const name = serverNameOf(body.name);
  if (await nameTaken(ctx, tenantId, name)) throw errors.data('Duplicated MCP server name.');
  const url = serverUrlOf(body.url);
  const headers = objectOr(body.headers, {});
  const { tools: _ignored, ...variables } = objectOr(body.variables, {});
  const tools = await discoverTools(
    ctx,
    mcpConfigOf({ url, server_type, headers: toJson(headers), variables: toJson(variables) }),
    body.timeout,
  );
  return insertServer(ctx, tenantId, {
    name,
    url,
    server_type,
    description: body.description ?? null,
    headers,
    variables: { ...variables, tools },
  });
}

type UpdateBody = Partial<CreateBody>;

/** Changes the fields given; the tool cache is refreshed from the server (enabled switches kept). */
export async function updateServer(ctx: McpCtx, row: McpServerRow, body: UpdateBody): Promise<McpServerRow> {
  const server_type = body.server_type === undefined ? row.server_type : serverTypeOf(body.server_type);
  const name = body.name === undefined ? row.name : serverNameOf(body.name);
  if (name !== row.name && (await nameTaken(ctx, row.tenant_id, name, row.id)))
    throw errors.data('Duplicated MCP server name.');
  const url = body.url === undefined ? row.url : serverUrlOf(body.url);
  const old = variablesOf(row);
  const headers = body.headers == null ? parseJson<Json>(row.headers, {}) : body.headers;
  const { tools: _ignored, ...variables } = body.variables == null ? old : body.variables;
  const tools = await discoverTools(
    ctx,
    mcpConfigOf({ url, server_type, headers: toJson(headers), variables: toJson(variables) }),
    body.timeout,
    cachedTools(row),
  );
  const changes = {
    name,
    url,
    server_type,
    description: body.description === undefined ? row.description : body.description,
    headers: toJson(headers),
    variables: toJson({ ...variables, tools }),
    ...updateStamps(),
  };
  try {
    await ctx.db.kysely.updateTable('mcp_server').set(changes).where('id', '=', row.id).execute();
  } catch (err) {
    if (isUniqueViolation(err)) throw errors.data('Duplicated MCP server name.');
    throw err;
  }
  return { ...row, ...changes };
}

export async function listServers(
  ctx: McpCtx,
  tenantId: string,
  q: QueryOf<typeof contract.mcp.list>,
  mcpIds: readonly string[] | null | undefined,
) {
  let query = ctx.db.kysely.selectFrom('mcp_server').where('tenant_id', '=', tenantId);
  if (mcpIds && mcpIds.length > 0) query = query.where('id', 'in', [...mcpIds]);
  if (q.keywords) query = query.where(sql<boolean>`lower(name) like ${`%${q.keywords.toLowerCase()}%`}`);
  const total = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  const orderby = q.orderby && ORDERABLE.has(q.orderby) ? q.orderby : 'create_time';
  const desc = (q.desc ?? 'true').toLowerCase() !== 'false';
  let rows = query
    .selectAll()
    .orderBy(sql.ref(orderby), desc ? 'desc' : 'asc')
    .orderBy('id');
  if (q.page && q.page_size) rows = rows.limit(q.page_size).offset((q.page - 1) * q.page_size);
  return { rows: await rows.execute(), total: Number(total?.n ?? 0) };
}

export async function removeServers(ctx: McpCtx, rows: readonly McpServerRow[]): Promise<void> {
  if (rows.length === 0) return;
  await ctx.db.kysely
    .deleteFrom('mcp_server')
    .where(
      'id',
      'in',
      rows.map((r) => r.id),
    )
    .execute();
}

/** `cache_tools`: the tool list the user reviewed (with its enabled switches) becomes the cache. */
export async function cacheTools(ctx: McpCtx, row: McpServerRow, tools: unknown): Promise<void> {
  if (
    !Array.isArray(tools) ||
    !tools.every((t) => t && typeof t === 'object' && typeof (t as Json).name === 'string')
  )
    throw errors.exception('`tools` must be a list of tools, each with a `name`.');
  const map: Record<string, Json> = {};
  for (const t of tools as Json[]) map[t.name as string] = t;
  await ctx.db.kysely
    .updateTable('mcp_server')
    .set({ variables: toJson({ ...variablesOf(row), tools: map }), ...updateStamps() })
    .where('id', '=', row.id)
    .execute();
}
