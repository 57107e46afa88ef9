/**
 * An MCP client session (AGENTS.md §11.2) with the official SDK over streamable HTTP or SSE. Header
 * values get `${var}` / `$var` from the server's variables; every request goes through the outbound
 * guard (the SDK is given the guarded fetch). Only text results are returned.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { guardedFetch, type OutboundPolicy } from '../../net/index.js';

export interface McpServerConfig {
  url: string;
  serverType: 'sse' | 'streamable-http';
  headers: Record<string, unknown>;
  variables: Record<string, unknown>;
}

/** `${name}` and `$name` replaced from `vars`; unknown names are left as they are. */
export function substitute(value: string, vars: Record<string, unknown>): string {
  return value.replace(/\$\{(\w+)\}|\$(\w+)/g, (m, a: string | undefined, b: string | undefined) => {
    const key = a ?? b ?? '';
    return Object.hasOwn(vars, key) && typeof vars[key] !== 'object' ? String(vars[key]) : m;
  });
}

/** Headers to send: placeholders filled, blank names and blank (or bare "Bearer") values dropped. */
export function headersOf(
  config: McpServerConfig,
  extra: Record<string, unknown> = {},
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, raw] of Object.entries({ ...config.headers, ...extra })) {
    const value = substitute(String(raw ?? ''), config.variables).trim();
    if (!name.trim() || !value || /^bearer$/i.test(value)) continue;
    out[name.trim()] = value;
  }
  return out;
}

export interface ConnectOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  headers?: Record<string, unknown>;
}

/** Opens an SDK client session (the `initialize` handshake) to the server; the caller closes it. */
export async function connectMcpClient(
  config: McpServerConfig,
  policy: OutboundPolicy,
  options: ConnectOptions,
): Promise<Client> {
  const url = new URL(config.url);
  const init = { headers: headersOf(config, options.headers) };
  const fetch = guardedFetch(policy, { timeoutMs: 0 });
  const transport =
    config.serverType === 'sse'
      ? new SSEClientTransport(url, { requestInit: init, eventSourceInit: { fetch }, fetch })
      : new StreamableHTTPClientTransport(url, { requestInit: init, fetch });
  const client = new Client({ name: 'lectern', version: '1.0.0' });
  // Its own signal for the handshake (see callMcpTool): a pooled session outlives the run that opened it.
  const own = new AbortController();
  const outer = options.signal;
  const forward = () => own.abort(outer?.reason);
  if (outer?.aborted) forward();
  else outer?.addEventListener('abort', forward, { once: true });
  try {
    await client.connect(transport, { timeout: Math.min(options.timeoutMs, 5000), signal: own.signal });
  } catch (err) {
    await client.close().catch(() => undefined);
    throw new Error(
      `Connection failed (possibly due to auth error). Please check authentication settings first (${(err as Error).message})`,
    );
  } finally {
    outer?.removeEventListener('abort', forward);
  }
  return client;
}

/** One client session for `use`, closed afterwards (the settings routes: list, test a tool). */
export async function withMcpClient<T>(
  config: McpServerConfig,
  policy: OutboundPolicy,
  options: ConnectOptions,
  use: (client: Client) => Promise<T>,
): Promise<T> {
  const client = await connectMcpClient(config, policy, options);
  try {
    return await use(client);
  } finally {
    await client.close().catch(() => undefined);
  }
}

/** Calls one tool; its first content item's text is the result. */
export async function callMcpTool(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  options: { timeoutMs: number; signal?: AbortSignal },
): Promise<string> {
  let result;
  // The SDK never removes the abort listener it adds to a request's signal: each call gets its own
  // signal, so the many calls of one run do not pile listeners onto the run's signal.
  const own = new AbortController();
  const outer = options.signal;
  const forward = () => own.abort(outer?.reason);
  if (outer?.aborted) forward();
  else outer?.addEventListener('abort', forward, { once: true });
  try {
    result = await client.callTool({ name, arguments: args }, undefined, {
      timeout: options.timeoutMs,
      signal: own.signal,
    });
  } catch (err) {
    if (/timed out|timeout/i.test((err as Error).message))
      throw new Error(`Timeout calling tool '${name}' (timeout=${options.timeoutMs / 1000}).`, {
        cause: err,
      });
    throw new Error(`Error calling tool '${name}': ${(err as Error).message}.`, { cause: err });
  } finally {
    outer?.removeEventListener('abort', forward);
  }
  const content = (result.content ?? []) as Array<{ type: string; text?: string }>;
  if (result.isError) throw new Error(`MCP server error: ${JSON.stringify(content)}`);
  const firstItem = content[0];
  if (!firstItem) return '';
  if (firstItem.type !== 'text') throw new Error(`Unsupported content type ${firstItem.type}`);
  return firstItem.text ?? '';
}

/** A tool as listed (the SDK's Tool, AGENTS.md §11.1 tool dict), before the `enabled` switch. */
export interface ListedMcpTool {
  name: string;
  title: string | null;
  description: string | null;
  inputSchema: Record<string, unknown>;
  outputSchema: Record<string, unknown> | null;
  annotations: Record<string, unknown> | null;
  meta: Record<string, unknown> | null;
}

/** Connects, lists the server's tools (`tools/list`, every page) and closes. */
export async function listMcpTools(
  config: McpServerConfig,
  policy: OutboundPolicy,
  options: { timeoutMs: number; signal?: AbortSignal; headers?: Record<string, unknown> },
): Promise<ListedMcpTool[]> {
  return withMcpClient(config, policy, options, async (client) => {
    const out: ListedMcpTool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : undefined, {
        timeout: options.timeoutMs,
        signal: options.signal,
      });
      for (const t of page.tools)
        out.push({
          name: t.name,
          title: t.title ?? null,
          description: t.description ?? null,
          inputSchema: t.inputSchema as Record<string, unknown>,
          outputSchema: (t.outputSchema as Record<string, unknown> | undefined) ?? null,
          annotations: (t.annotations as Record<string, unknown> | undefined) ?? null,
          meta: (t._meta as Record<string, unknown> | undefined) ?? null,
        });
      cursor = page.nextCursor;
    } while (cursor && out.length < 10_000);
    return out;
  });
}
