/**
 * MCP client sessions kept open instead of one per tool call (an SDK connect costs 90–190 ms: the
 * `initialize` handshake and, over SSE, the event stream).
 *
 * - `McpConnectionPool` (one per server process): idle sessions keyed by server id + a hash of what
 *   the session was opened with (URL, transport, the headers sent), each closed after `idleMs`
 *   unused. A changed server record hashes differently, so it never gets a session opened for the
 *   old settings.
 * - `McpRunConnections` (one per agent run): the first call to a server opens (or takes from the
 *   pool) one session, and every later call of the run — parallel calls included, which share the
 *   one being opened — goes over it. `release()` at the end of the run (finished, failed or
 *   cancelled) hands the sessions back to the pool. A call that fails because the session dropped
 *   (server restarted, session unknown, stream closed) opens a new session and is sent again, once.
 */
import crypto from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { OutboundPolicy } from '../../net/index.js';
import { callMcpTool, connectMcpClient, headersOf, type McpServerConfig } from './client.js';

/** An open client session and whether it is still usable. */
export interface McpConnection {
  key: string;
  client: Client;
  /** set when the transport closed or a request showed the session is gone */
  dropped: boolean;
}

export interface PoolOptions {
  /** how long an unused session stays open (default 60 s) */
  idleMs?: number;
  /** idle sessions kept per key (default 2); more are closed when handed back */
  maxIdlePerKey?: number;
}

/** The key of a session: the server id and a hash of the settings it was opened with. */
export function connectionKey(
  mcpId: string,
  config: McpServerConfig,
  extraHeaders: Record<string, unknown>,
): string {
  const opened = { url: config.url, type: config.serverType, headers: headersOf(config, extraHeaders) };
  const hash = crypto.createHash('sha256').update(JSON.stringify(opened)).digest('hex').slice(0, 32);
  return `${mcpId}:${hash}`;
}

function closeQuietly(conn: McpConnection): void {
  conn.dropped = true;
  void conn.client.close().catch(() => undefined);
}

export class McpConnectionPool {
  private readonly idle = new Map<string, Array<{ conn: McpConnection; timer: NodeJS.Timeout }>>();
  private readonly idleMs: number;
  private readonly maxIdlePerKey: number;
  private closed = false;
  /** sessions opened through this pool so far (figures and tests) */
  opened = 0;

  constructor(
    private readonly policy: OutboundPolicy,
    options: PoolOptions = {},
  ) {
    this.idleMs = options.idleMs ?? 60_000;
    this.maxIdlePerKey = options.maxIdlePerKey ?? 2;
  }

  /** An idle session for `key`, or a new one. */
  async acquire(
    key: string,
    config: McpServerConfig,
    options: { timeoutMs: number; signal?: AbortSignal; headers: Record<string, unknown> },
  ): Promise<McpConnection> {
    const waiting = this.idle.get(key);
    while (waiting?.length) {
      const { conn, timer } = waiting.pop()!;
      clearTimeout(timer);
      if (!conn.dropped) return conn;
    }
    const client = await connectMcpClient(config, this.policy, options);
    this.opened += 1;
    const conn: McpConnection = { key, client, dropped: false };
    client.onclose = () => {
      conn.dropped = true;
    };
    if (this.closed) setImmediate(() => closeQuietly(conn));
    return conn;
  }

  /** Hands a session back: kept for `idleMs` unless it dropped, the key has enough, or the pool closed. */
  release(conn: McpConnection): void {
    const list = this.idle.get(conn.key) ?? [];
    if (list.some((e) => e.conn === conn)) return;
    if (conn.dropped || this.closed || list.length >= this.maxIdlePerKey) {
      closeQuietly(conn);
      return;
    }
    const timer = setTimeout(() => {
      const now = this.idle.get(conn.key) ?? [];
      const rest = now.filter((e) => e.conn !== conn);
      if (rest.length) this.idle.set(conn.key, rest);
      else this.idle.delete(conn.key);
      closeQuietly(conn);
    }, this.idleMs);
    timer.unref();
    list.push({ conn, timer });
    this.idle.set(conn.key, list);
  }

  /** Idle sessions (figures and tests). */
  idleCount(): number {
    let n = 0;
    for (const list of this.idle.values()) n += list.length;
    return n;
  }

  /** Closes every idle session; sessions handed back later are closed at once. */
  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.idle.values()].flat();
    this.idle.clear();
    await Promise.all(
      all.map(({ conn, timer }) => {
        clearTimeout(timer);
        conn.dropped = true;
        return conn.client.close().catch(() => undefined);
      }),
    );
  }
}

/**
 * Whether a failed call means the session is gone rather than the tool or the request failing: the
 * transport closed, or the request failed with an error that is not the server's JSON-RPC answer
 * (a refused connection, an HTTP 404/400 for an unknown session, a broken stream). Tool error
 * results, time-outs and JSON-RPC errors keep the session.
 */
export function isDroppedSession(err: unknown, conn: McpConnection): boolean {
  if (conn.dropped) return true;
  // callMcpTool keeps the request's own error as `cause`; an error result of the tool has none.
  if (!(err instanceof Error) || err.cause === undefined) return false;
  const cause = err.cause;
  if (cause instanceof McpError) return cause.code === (ErrorCode.ConnectionClosed as number);
  return true;
}

export interface McpCallRequest {
  mcpId: string;
  name: string;
  arguments: Record<string, unknown>;
  headers: Record<string, unknown>;
}

/** The sessions of one agent run. */
export class McpRunConnections {
  /** per key: the session being opened or open, and the session once it is */
  private readonly live = new Map<string, { pending: Promise<McpConnection>; conn?: McpConnection }>();
  private released = false;

  constructor(private readonly pool: McpConnectionPool) {}

  /** Calls a tool over the run's session to the server, opening it on first use. */
  async call(
    config: McpServerConfig,
    request: McpCallRequest,
    options: { signal: AbortSignal; timeoutMs: number },
  ): Promise<string> {
    if (this.released) throw new Error('The run has ended; its MCP sessions are closed.');
    const key = connectionKey(request.mcpId, config, request.headers);
    const conn = await this.connection(key, config, request.headers, options);
    try {
      return await callMcpTool(conn.client, request.name, request.arguments, options);
    } catch (err) {
      if (options.signal.aborted || !isDroppedSession(err, conn)) throw err;
      this.discard(key, conn);
      const fresh = await this.connection(key, config, request.headers, options);
      return callMcpTool(fresh.client, request.name, request.arguments, options);
    }
  }

  private connection(
    key: string,
    config: McpServerConfig,
    headers: Record<string, unknown>,
    options: { signal: AbortSignal; timeoutMs: number },
  ): Promise<McpConnection> {
    const known = this.live.get(key);
    if (known) return known.pending;
    const entry: { pending: Promise<McpConnection>; conn?: McpConnection } = {
      pending: this.pool.acquire(key, config, { ...options, headers }),
    };
    this.live.set(key, entry);
    entry.pending.then(
      (conn) => {
        entry.conn = conn;
        // Opened after the run ended (a call still in flight at cancel): straight back to the pool.
        if (this.released) this.pool.release(conn);
      },
      // A failed open is not kept: the next call tries again.
      () => {
        if (this.live.get(key) === entry) this.live.delete(key);
      },
    );
    return entry.pending;
  }

  /** Forgets a dropped session; parallel calls that saw the same drop share one new session. */
  private discard(key: string, conn: McpConnection): void {
    if (conn.dropped && this.live.get(key)?.conn !== conn) return; // already discarded
    conn.dropped = true;
    if (this.live.get(key)?.conn === conn) this.live.delete(key);
    this.pool.release(conn);
  }

  /** The run ended: its sessions go back to the pool (dropped ones are closed). */
  release(): void {
    if (this.released) return;
    this.released = true;
    const entries = [...this.live.values()];
    this.live.clear();
    // Sessions still opening are handed back by their own callback (connection()) once open.
    for (const e of entries) if (e.conn) this.pool.release(e.conn);
  }
}
