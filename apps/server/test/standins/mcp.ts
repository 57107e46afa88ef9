/**
 * A local MCP server built with the official SDK, on 127.0.0.1 and a random port, serving the same
 * tools over both transports: streamable HTTP (stateless) at `/mcp` and SSE at `/sse` (messages
 * POSTed to `/messages?sessionId=…`). Tools: `lookup` ({query} → "MCP says: <query>"), `add`
 * ({a, b} → the sum), `broken` (answers with isError). The headers of every request are recorded.
 *
 *   const mcp = await startMcpStandin();
 *   // register mcp.streamableUrl (type "streamable-http") or mcp.sseUrl (type "sse")
 *   await mcp.close();
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

export interface McpStandin {
  streamableUrl: string;
  sseUrl: string;
  /** method, path and headers of every request, in order */
  requests: Array<{ method: string; path: string; headers: http.IncomingHttpHeaders }>;
  /** Tool calls served: name and arguments. */
  calls: Array<{ name: string; args: Record<string, unknown> }>;
  close(): Promise<void>;
}

export async function startMcpStandin(): Promise<McpStandin> {
  const requests: McpStandin['requests'] = [];
  const calls: McpStandin['calls'] = [];
  const newServer = () => {
    const mcp = new McpServer({ name: 'standin', version: '1.0.0' });
    mcp.registerTool(
      'lookup',
      { title: 'Look up', description: 'Looks a query up', inputSchema: { query: z.string() } },
      async ({ query }) => {
        calls.push({ name: 'lookup', args: { query } });
        return { content: [{ type: 'text', text: `MCP says: ${query}` }] };
      },
    );
    mcp.registerTool(
      'add',
      { description: 'Adds two numbers', inputSchema: { a: z.number(), b: z.number() } },
      async ({ a, b }) => {
        calls.push({ name: 'add', args: { a, b } });
        return { content: [{ type: 'text', text: String(a + b) }] };
      },
    );
    mcp.registerTool('broken', { description: 'Always fails', inputSchema: {} }, async () => {
      calls.push({ name: 'broken', args: {} });
      return { content: [{ type: 'text', text: 'no data today' }], isError: true };
    });
    return mcp;
  };
  const sse = new Map<string, SSEServerTransport>();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    requests.push({ method: req.method ?? '', path: url.pathname, headers: req.headers });
    void (async () => {
      if (url.pathname === '/mcp') {
        const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
        res.on('close', () => void transport.close());
        await newServer().connect(transport);
        await transport.handleRequest(req, res);
      } else if (url.pathname === '/sse' && req.method === 'GET') {
        const transport = new SSEServerTransport('/messages', res);
        sse.set(transport.sessionId, transport);
        res.on('close', () => sse.delete(transport.sessionId));
        await newServer().connect(transport);
      } else if (url.pathname === '/messages' && req.method === 'POST') {
        const transport = sse.get(url.searchParams.get('sessionId') ?? '');
        if (!transport) {
          res.writeHead(404).end('unknown session');
          return;
        }
        await transport.handlePostMessage(req, res);
      } else {
        res.writeHead(404).end('not found');
      }
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500).end('stand-in error');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    streamableUrl: `${origin}/mcp`,
    sseUrl: `${origin}/sse`,
    requests,
    calls,
    close: () =>
      new Promise<void>((r) => {
        for (const t of sse.values()) void t.close();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
