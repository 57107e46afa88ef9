/**
 * The runtime's McpPort for one agent run: calls a tool of one of the tenant's MCP servers over the
 * run's session to it (connections.ts). The server record comes from `lookup`, which must only
 * return servers the run's tenant may use; it is read on every call, so an edited server is reached
 * with its new settings (a new session) from the next call on.
 */
import type { McpPort } from '@lectern/agent-core';
import type { McpServerConfig } from './client.js';
import { McpRunConnections, type McpConnectionPool } from './connections.js';

export type McpServerLookup = (mcpId: string) => Promise<McpServerConfig | undefined>;

/** An McpPort whose sessions end with the run: `release()` hands them back to the pool. */
export interface McpRunPort extends McpPort {
  release(): void;
}

export function mcpPortOf(pool: McpConnectionPool, lookup: McpServerLookup): McpRunPort {
  const connections = new McpRunConnections(pool);
  return {
    async callTool(request, options) {
      const server = await lookup(request.mcpId);
      if (!server) throw new Error(`Cannot find MCP server ${request.mcpId}`);
      return connections.call(server, request, options);
    },
    release: () => connections.release(),
  };
}
