/**
 * A local MCP server built with the official SDK, on 127.0.0.1 and a random port, serving the same
 * tools over both transports: streamable HTTP (stateless) at `/mcp`, streamable HTTP with sessions
 * at `/mcp-session` and SSE at `/sse` (messages POSTed to `/messages?sessionId=…`). `connections`
 * counts the client sessions opened (each SDK `connect` ends its handshake with `initialized`);
 * `restart()` stops the server, forgetting every session, and starts it again on the same port. Tools: `lookup` ({query} → "MCP says: <query>"), `add`
 * ({a, b} → the sum), `broken` (answers with isError). The headers of every request are recorded.
 *
 *   const mcp = await startMcpStandin();
 *   // register mcp.streamableUrl (type "streamable-http") or mcp.sseUrl (type "sse")
 *   await mcp.close();
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

export interface McpStandin {
  streamableUrl: string;
  sseUrl: string;
  /** streamable HTTP with server-side sessions (a restart makes old session ids unknown) */
  sessionUrl: string;
  /** client sessions opened so far (handshakes completed) */
  connections(): number;
  /** Drops every connection and session, and listens again on the same port. */
  restart(): Promise<void>;
  /** method, path and headers of every request, in order */
  requests: Array<{ method: string; path: string; headers: http.IncomingHttpHeaders }>;
  /** Tool calls served: name and arguments. */
  calls: Array<{ name: string; args: Record<string, unknown> }>;
  close(): Promise<void>;
}

export async function startMcpStandin(): Promise<McpStandin> {
  const requests: McpStandin['requests'] = [];
  const calls: McpStandin['calls'] = [];
  let connections = 0;
  const newServer = () => {
    const mcp = new McpServer({ name: 'standin', version: '1.0.0' });
    mcp.server.oninitialized = () => {
      connections += 1;
    };
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
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const handler: http.RequestListener = (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    requests.push({ method: req.method ?? '', path: url.pathname, headers: req.headers });
    void (async () => {
      if (url.pathname === '/mcp') {
        const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
        res.on('close', () => void transport.close());
        await newServer().connect(transport);
        await transport.handleRequest(req, res);
      } else if (url.pathname === '/mcp-session') {
        const id = req.headers['mcp-session-id'];
        let transport = typeof id === 'string' ? sessions.get(id) : undefined;
        if (!transport && id === undefined && req.method === 'POST') {
          const created = new StreamableHTTPServerTransport({
            sessionIdGenerator: () => randomUUID(),
            onsessioninitialized: (sid) => void sessions.set(sid, created),
          });
          created.onclose = () => void (created.sessionId && sessions.delete(created.sessionId));
          await newServer().connect(created);
          transport = created;
        }
        if (!transport) {
          res.writeHead(404).end(
            JSON.stringify({
              jsonrpc: '2.0',
              error: { code: -32001, message: 'Session not found' },
              id: null,
            }),
          );
          return;
        }
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
  };
  let server = http.createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  const stop = () =>
    new Promise<void>((r) => {
      for (const t of sse.values()) void t.close();
      for (const t of sessions.values()) void t.close();
      sse.clear();
      sessions.clear();
      server.closeAllConnections();
      server.close(() => r());
    });
  return {
    streamableUrl: `${origin}/mcp`,
    sseUrl: `${origin}/sse`,
    sessionUrl: `${origin}/mcp-session`,
    connections: () => connections,
    async restart() {
      await stop();
      server = http.createServer(handler);
      await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
    },
    requests,
    calls,
    close: stop,
  };
}
