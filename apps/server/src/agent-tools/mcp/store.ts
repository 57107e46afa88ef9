/**
 * The MCP server records an Agent run may use: the servers of the run's tenant (the canvas owner),
 * read from the `mcp_server` table (API.md §16). Another tenant's id is not found.
 */
import type { Kysely } from 'kysely';
import { parseJson } from '../../db/json.js';
import type { McpServerRow } from '../../db/tables/mcp.js';
import type { Database } from '../../db/types.js';
import type { McpServerConfig } from './client.js';
import type { McpServerLookup } from './port.js';

type Json = Record<string, unknown>;

/** The connection settings of a stored server (variables without the cached tools). */
export function mcpConfigOf(row: Pick<McpServerRow, 'url' | 'server_type' | 'headers' | 'variables'>) {
  const { tools: _tools, ...variables } = parseJson<Json>(row.variables, {});
  return {
    url: row.url,
    serverType: row.server_type === 'sse' ? 'sse' : 'streamable-http',
    headers: parseJson<Json>(row.headers, {}),
    variables,
  } satisfies McpServerConfig;
}

export function tenantMcpLookup(db: Kysely<Database>, tenantId: string): McpServerLookup {
  return async (mcpId) => {
    const row = await db
      .selectFrom('mcp_server')
      .select(['url', 'server_type', 'headers', 'variables'])
      .where('id', '=', mcpId)
      .where('tenant_id', '=', tenantId)
      .executeTakeFirst();
    return row ? mcpConfigOf(row) : undefined;
  };
}
