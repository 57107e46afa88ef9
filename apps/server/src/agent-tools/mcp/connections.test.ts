/**
 * MCP sessions per run and across runs, against the SDK-built stand-in (its `connections()` counts
 * the client handshakes it completed): many calls of one run — parallel ones too — share one
 * session; the next run takes it from the pool; a changed server record gets a new one; a server
 * restarted mid-run is reconnected once, transparently; idle sessions are closed after the timeout.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startMcpStandin, type McpStandin } from '../../../test/standins/index.js';
import { createPolicy } from '../../net/index.js';
import type { McpServerConfig } from './client.js';
import { McpConnectionPool } from './connections.js';
import { mcpPortOf } from './port.js';

let mcp: McpStandin;
const policy = createPolicy({ ssrfAllow: '127.0.0.1' });
const pools: McpConnectionPool[] = [];
const opts = () => ({ signal: new AbortController().signal, timeoutMs: 5000 });

beforeAll(async () => {
  mcp = await startMcpStandin();
});
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});
afterAll(() => mcp?.close());

function newPool(idleMs = 60_000) {
  const pool = new McpConnectionPool(policy, { idleMs });
  pools.push(pool);
  return pool;
}

function configOf(url: string, serverType: McpServerConfig['serverType'], token = 't1'): McpServerConfig {
  return { url, serverType, headers: { Authorization: 'Bearer ${token}' }, variables: { token } };
}

const lookup = (servers: Record<string, McpServerConfig>) => async (id: string) => servers[id];
const add = (a: number, b: number) => ({ mcpId: 's1', name: 'add', arguments: { a, b }, headers: {} });

describe.each([
  ['streamable HTTP with sessions', 'sessionUrl', 'streamable-http'],
  ['streamable HTTP, stateless', 'streamableUrl', 'streamable-http'],
  ['SSE', 'sseUrl', 'sse'],
] as const)('MCP sessions over %s', (_label, urlKey, serverType) => {
  it('N calls of one run, sequential and parallel, open one session; the next run reuses it', async () => {
    const pool = newPool();
    const servers = { s1: configOf(mcp[urlKey], serverType) };
    const before = mcp.connections();
    const run1 = mcpPortOf(pool, lookup(servers));
    expect(await run1.callTool(add(1, 2), opts())).toBe('3');
    expect(await run1.callTool(add(2, 2), opts())).toBe('4');
    const parallel = await Promise.all([5, 6, 7, 8].map((n) => run1.callTool(add(n, 1), opts())));
    expect(parallel).toEqual(['6', '7', '8', '9']);
    expect(mcp.connections() - before).toBe(1);
    run1.release();
    expect(pool.idleCount()).toBe(1);

    const run2 = mcpPortOf(pool, lookup(servers));
    expect(await run2.callTool(add(10, 1), opts())).toBe('11');
    run2.release();
    expect(mcp.connections() - before).toBe(1);
    expect(pool.opened).toBe(1);
  });

  it('parallel first calls of a run share the one session being opened', async () => {
    const pool = newPool();
    const before = mcp.connections();
    const run = mcpPortOf(pool, lookup({ s1: configOf(mcp[urlKey], serverType) }));
    const out = await Promise.all([1, 2, 3].map((n) => run.callTool(add(n, n), opts())));
    expect(out).toEqual(['2', '4', '6']);
    expect(mcp.connections() - before).toBe(1);
    run.release();
  });
});

describe('MCP session keys and lifetimes', () => {
  it('a changed server record (new header value) opens a new session; the old one is not reused for it', async () => {
    const pool = newPool();
    const servers = { s1: configOf(mcp.sessionUrl, 'streamable-http', 'old') };
    const before = mcp.connections();
    const run = mcpPortOf(pool, lookup(servers));
    expect(await run.callTool(add(1, 1), opts())).toBe('2');
    servers.s1 = configOf(mcp.sessionUrl, 'streamable-http', 'new');
    expect(await run.callTool(add(1, 2), opts())).toBe('3');
    expect(mcp.connections() - before).toBe(2);
    const auth = mcp.requests.filter((r) => r.path === '/mcp-session').map((r) => r.headers.authorization);
    expect(auth.at(-1)).toBe('Bearer new');
    run.release();
    // Both sessions are pooled under their own keys; a run with the new record takes the new one.
    expect(pool.idleCount()).toBe(2);
    const next = mcpPortOf(pool, lookup(servers));
    expect(await next.callTool(add(2, 2), opts())).toBe('4');
    expect(mcp.connections() - before).toBe(2);
    expect(mcp.requests.at(-1)?.headers.authorization).toBe('Bearer new');
    next.release();
  });

  it('a server restarted mid-run is reconnected once, transparently', async () => {
    const pool = newPool();
    const run = mcpPortOf(pool, lookup({ s1: configOf(mcp.sessionUrl, 'streamable-http') }));
    expect(await run.callTool(add(1, 1), opts())).toBe('2');
    const before = mcp.connections();
    await mcp.restart();
    expect(await run.callTool(add(3, 4), opts())).toBe('7');
    expect(await run.callTool(add(4, 4), opts())).toBe('8');
    expect(mcp.connections() - before).toBe(1);
    run.release();
  });

  it('an SSE server restarted mid-run is reconnected too', async () => {
    const pool = newPool();
    const run = mcpPortOf(pool, lookup({ s1: configOf(mcp.sseUrl, 'sse') }));
    expect(await run.callTool(add(1, 1), opts())).toBe('2');
    const before = mcp.connections();
    await mcp.restart();
    expect(await run.callTool(add(5, 5), opts())).toBe('10');
    expect(mcp.connections() - before).toBe(1);
    run.release();
  });

  it('a server that stays down fails the call with the connection error (one retry, no hang)', async () => {
    const pool = newPool();
    const down = await startMcpStandin();
    const run = mcpPortOf(pool, lookup({ s1: configOf(down.sessionUrl, 'streamable-http') }));
    expect(await run.callTool(add(1, 1), opts())).toBe('2');
    await down.close();
    const started = Date.now();
    await expect(run.callTool(add(1, 2), opts())).rejects.toThrow(/^Connection failed/);
    expect(Date.now() - started).toBeLessThan(5000);
    run.release();
    expect(pool.idleCount()).toBe(0);
  });

  it('a tool error does not drop the session; a closed pool closes what is handed back', async () => {
    const pool = newPool();
    const before = mcp.connections();
    const run = mcpPortOf(pool, lookup({ s1: configOf(mcp.sessionUrl, 'streamable-http') }));
    await expect(
      run.callTool({ mcpId: 's1', name: 'broken', arguments: {}, headers: {} }, opts()),
    ).rejects.toThrow(/^MCP server error/);
    expect(await run.callTool(add(2, 3), opts())).toBe('5');
    expect(mcp.connections() - before).toBe(1);
    await pool.close();
    run.release();
    expect(pool.idleCount()).toBe(0);
    await expect(run.callTool(add(1, 1), opts())).rejects.toThrow(/run has ended/);
  });

  it('a run cancelled during a call hands its session back; the next run reuses it', async () => {
    const pool = newPool();
    const servers = { s1: configOf(mcp.sessionUrl, 'streamable-http') };
    const run = mcpPortOf(pool, lookup(servers));
    expect(await run.callTool(add(1, 1), opts())).toBe('2');
    const before = mcp.connections();
    const cancel = new AbortController();
    const pending = run.callTool(add(2, 2), { signal: cancel.signal, timeoutMs: 5000 });
    cancel.abort(new Error('cancelled by the user'));
    await expect(pending).rejects.toThrow(/cancelled by the user/);
    run.release();
    expect(pool.idleCount()).toBe(1);
    const next = mcpPortOf(pool, lookup(servers));
    expect(await next.callTool(add(3, 3), opts())).toBe('6');
    expect(mcp.connections() - before).toBe(0);
    next.release();
  });

  it('an idle session is closed after the idle timeout; the next run opens a new one', async () => {
    const pool = newPool(150);
    const servers = { s1: configOf(mcp.sessionUrl, 'streamable-http') };
    const before = mcp.connections();
    const run1 = mcpPortOf(pool, lookup(servers));
    expect(await run1.callTool(add(1, 1), opts())).toBe('2');
    run1.release();
    expect(pool.idleCount()).toBe(1);
    await new Promise((r) => setTimeout(r, 400));
    expect(pool.idleCount()).toBe(0);
    const run2 = mcpPortOf(pool, lookup(servers));
    expect(await run2.callTool(add(1, 1), opts())).toBe('2');
    expect(mcp.connections() - before).toBe(2);
    run2.release();
  });
});
