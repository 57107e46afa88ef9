/**
 * The runtime's McpPort: calls a tool of one of the tenant's MCP servers. The server record comes
 * from `lookup` (the mcp_server table once its routes land; see the report of issue 15), which must
 * only return servers the run's tenant may use.
 */
import type { McpPort } from '@lectern/agent-core';
import type { OutboundPolicy } from '../../net/index.js';
import { callMcpTool, withMcpClient, type McpServerConfig } from './client.js';

export type McpServerLookup = (mcpId: string) => Promise<McpServerConfig | undefined>;

export function mcpPortOf(policy: OutboundPolicy, lookup: McpServerLookup): McpPort {
  return {
    async callTool(request, options) {
      const server = await lookup(request.mcpId);
      if (!server) throw new Error(`Cannot find MCP server ${request.mcpId}`);
      return withMcpClient(server, policy, { ...options, headers: request.headers }, (client) =>
        callMcpTool(client, request.name, request.arguments, options),
      );
    },
  };
}
