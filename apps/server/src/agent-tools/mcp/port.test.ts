import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createPolicy } from '../../net/index.js';
import { headersOf } from './client.js';
import { McpConnectionPool } from './connections.js';
import { mcpPortOf } from './port.js';

/** The McpPort against a local MCP server built with the same SDK (streamable HTTP, stateless). */
describe('McpPort over streamable HTTP', () => {
  let server: http.Server;
  let url = '';
  const seenAuth: Array<string | undefined> = [];
  beforeAll(async () => {
    server = http.createServer(async (req, res) => {
      seenAuth.push(req.headers.authorization);
      const mcp = new McpServer({ name: 'weather', version: '1.0.0' });
      mcp.registerTool(
        'get_weather',
        { description: 'Weather of a city', inputSchema: { city: z.string() } },
        async ({ city }) => ({
          content: [{ type: 'text', text: `sunny in ${city}` }],
        }),
      );
      mcp.registerTool('broken', { description: 'fails', inputSchema: {} }, async () => ({
        content: [{ type: 'text', text: 'no data' }],
        isError: true,
      }));
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      res.on('close', () => void transport.close());
      await mcp.connect(transport);
      await transport.handleRequest(req, res);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  });
  const pools: McpConnectionPool[] = [];
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.close()));
    await new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  });
  const newPool = (allow: string) => {
    const pool = new McpConnectionPool(createPolicy(allow ? { ssrfAllow: allow } : {}));
    pools.push(pool);
    return pool;
  };

  const config = () => ({
    url,
    serverType: 'streamable-http' as const,
    headers: { Authorization: 'Bearer ${token}', 'X-Empty': 'Bearer ' },
    variables: { token: 'secret-1' },
  });
  const port = () => mcpPortOf(newPool('127.0.0.1'), async (id) => (id === 'srv1' ? config() : undefined));
  const opts = { signal: new AbortController().signal, timeoutMs: 5000 };

  it('calls a tool with the substituted headers and returns its text', async () => {
    const text = await port().callTool(
      { mcpId: 'srv1', name: 'get_weather', arguments: { city: 'Oslo' }, headers: {} },
      opts,
    );
    expect(text).toBe('sunny in Oslo');
    expect(seenAuth.at(-1)).toBe('Bearer secret-1');
    expect(headersOf(config())).toEqual({ Authorization: 'Bearer secret-1' });
  });

  it('reports a tool error, an unknown server, and refuses a loopback server without the allow list', async () => {
    await expect(
      port().callTool({ mcpId: 'srv1', name: 'broken', arguments: {}, headers: {} }, opts),
    ).rejects.toThrow(/^MCP server error: .*no data/);
    await expect(
      port().callTool({ mcpId: 'nope', name: 'x', arguments: {}, headers: {} }, opts),
    ).rejects.toThrow('Cannot find MCP server nope');
    const strict = mcpPortOf(newPool(''), async () => config());
    await expect(
      strict.callTool({ mcpId: 'srv1', name: 'get_weather', arguments: { city: 'x' }, headers: {} }, opts),
    ).rejects.toThrow(/^Connection failed/);
  });
});
