/**
 * Loaders of MCP servers (API.md §16): a server belongs to its tenant alone. Unknown and foreign ids
 * get the same answer, 102 "Cannot find MCP server <id> for user <uid>".
 */
import type { Kysely } from 'kysely';
import type { McpServerRow } from '../db/tables/mcp.js';
import type { Database } from '../db/types.js';
import { errors } from '../errors.js';
import { authorize, resource, type Action } from './rules.js';
import type { AccessScope } from './scope.js';

export const mcpNotFound = (id: string, userId: string) =>
  errors.data(`Cannot find MCP server ${id} for user ${userId}`);

/** The servers `ids` (in that order, each once), every one the caller's to `action`. */
export async function loadMcpServers(
  db: Kysely<Database>,
  scope: AccessScope,
  ids: readonly string[],
  action: Action,
): Promise<McpServerRow[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  const rows = await db.selectFrom('mcp_server').selectAll().where('id', 'in', unique).execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return unique.map((id) => {
    const row = byId.get(id);
    if (!row) throw mcpNotFound(id, scope.userId);
    authorize(scope, action, resource.mcp(row), () => mcpNotFound(id, scope.userId));
    return row;
  });
}

export async function loadMcpServer(
  db: Kysely<Database>,
  scope: AccessScope,
  id: string,
  action: Action,
): Promise<McpServerRow> {
  const [row] = await loadMcpServers(db, scope, [id], action);
  return row as McpServerRow;
}
