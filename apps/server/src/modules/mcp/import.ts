/**
 * `mcp_server/import` (API.md §16, AGENTS.md §11.1): servers in the `mcpServers` JSON format, each
 * created under its name (`<name>_0`, `<name>_1`, … when taken), its tools listed and cached. A bad
 * entry fails alone, with its reason in its result. An `authorization_token` is kept in the
 * server's variables and, when the entry brings no headers, sent as `Authorization: Bearer …`.
 */
import type { McpServersEntry } from '@lectern/shared';
import { mcpConfigOf } from '../../agent-tools/index.js';
import { toJson } from '../../db/json.js';
import type { ApiError } from '../../http/envelope.js';
import {
  discoverTools,
  insertServer,
  serverNameOf,
  serverTypeOf,
  serverUrlOf,
  type McpCtx,
} from './service.js';

type Json = Record<string, unknown>;
export interface ImportResult {
  server: string;
  success: boolean;
  action?: 'created';
  id?: string;
  new_name?: string;
  message?: string;
}

const isObject = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

async function importOne(
  ctx: McpCtx,
  tenantId: string,
  taken: Set<string>,
  name: string,
  raw: unknown,
  seconds: number | undefined,
): Promise<ImportResult> {
  try {
    const entry: McpServersEntry = isObject(raw) ? raw : {};
    const server_type = serverTypeOf(entry.type ?? (entry as Json).server_type);
    const url = serverUrlOf(entry.url);
    let unique = serverNameOf(name);
    for (let i = 0; taken.has(unique); i++) unique = serverNameOf(`${name}_${i}`);
    taken.add(unique);
    const token = typeof entry.authorization_token === 'string' ? entry.authorization_token : '';
    const headers: Json = isObject(entry.headers)
      ? entry.headers
      : token
        ? { Authorization: 'Bearer ${authorization_token}' }
        : {};
    const variables: Json = token ? { authorization_token: token } : {};
    const tools = await discoverTools(
      ctx,
      mcpConfigOf({ url, server_type, headers: toJson(headers), variables: toJson(variables) }),
      seconds,
      isObject(entry.tools) ? (entry.tools as Record<string, Json>) : {},
    );
    const row = await insertServer(ctx, tenantId, {
      name: unique,
      url,
      server_type,
      description:
        typeof (entry as Json).description === 'string' ? String((entry as Json).description) : null,
      headers,
      variables: { ...variables, tools },
    });
    return { server: name, success: true, action: 'created', id: row.id, new_name: unique };
  } catch (err) {
    return { server: name, success: false, message: (err as ApiError).message };
  }
}

export async function importServers(
  ctx: McpCtx,
  tenantId: string,
  servers: Record<string, unknown>,
  seconds: number | undefined,
): Promise<ImportResult[]> {
  const existing = await ctx.db.kysely
    .selectFrom('mcp_server')
    .select('name')
    .where('tenant_id', '=', tenantId)
    .execute();
  const taken = new Set(existing.map((r) => r.name));
  const results: ImportResult[] = [];
  // One at a time: each new name must see the names taken before it.
  for (const [name, raw] of Object.entries(servers))
    results.push(await importOne(ctx, tenantId, taken, name, raw, seconds));
  return results;
}
