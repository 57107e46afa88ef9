/** MCP servers and their tools as API.md §16 shows them. */
import type { McpServer, McpServerType, McpServersEntry, McpTool } from '@lectern/shared';
import type { ListedMcpTool } from '../../agent-tools/index.js';
import { parseJson } from '../../db/json.js';
import type { McpServerRow } from '../../db/tables/mcp.js';
import { rfc1123 } from '../../util/time.js';

type Json = Record<string, never>;

export const variablesOf = (row: Pick<McpServerRow, 'variables'>) =>
  parseJson<Record<string, unknown>>(row.variables, {});

/** The cached tools of a server (`variables.tools`, name → tool). */
export function cachedTools(row: Pick<McpServerRow, 'variables'>): Record<string, Record<string, unknown>> {
  const tools = variablesOf(row).tools;
  return tools && typeof tools === 'object' && !Array.isArray(tools)
    ? (tools as Record<string, Record<string, unknown>>)
    : {};
}

export function presentMcpServer(r: McpServerRow): McpServer {
  return {
    id: r.id,
    name: r.name,
    tenant_id: r.tenant_id,
    url: r.url,
    server_type: r.server_type as McpServerType,
    description: r.description,
    variables: parseJson<Json>(r.variables, {}),
    headers: parseJson<Json>(r.headers, {}),
    create_time: r.create_time,
    create_date: rfc1123(r.create_time) as string,
    update_time: r.update_time,
    update_date: rfc1123(r.update_time) as string,
  };
}

/** A listed tool with its `enabled` switch (from the cache; a tool not cached is enabled). */
export function presentTool(
  tool: ListedMcpTool,
  cache: Record<string, Record<string, unknown>> = {},
): McpTool {
  const enabled = cache[tool.name]?.enabled;
  return { ...(tool as McpTool), enabled: typeof enabled === 'boolean' ? enabled : true };
}

/** One server in the `mcpServers` JSON format (export). */
export function presentExportEntry(r: McpServerRow): McpServersEntry {
  const token = variablesOf(r).authorization_token;
  return {
    type: r.server_type,
    url: r.url,
    name: r.name,
    authorization_token: typeof token === 'string' ? token : '',
    headers: parseJson<Json>(r.headers, {}),
    tools: cachedTools(r) as Json,
  };
}
