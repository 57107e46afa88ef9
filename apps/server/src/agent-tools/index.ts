/**
 * The tool components of AGENTS.md §10 (issue 15), implemented on the server and handed to the agent
 * runtime as its ToolPort: each works as a canvas node and as an Agent tool. `createMcpPort` gives
 * the runtime the tools of the tenant's MCP servers.
 */
import type { ToolComponent, ToolPort } from '@lectern/agent-core';
import { outboundPolicyOf, type OutboundSettings } from '../net/index.js';
import { runCode as sharedRunCode, type Sandbox } from '../sandbox/index.js';
import { codeExecTool } from './code-exec.js';
import { crawlerTool } from './crawler.js';
import { emailTool } from './email.js';
import { deeplTool, tushareTool } from './search/data.js';
import { arxivTool, duckDuckGoTool, pubmedTool, wikipediaTool } from './search/knowledge.js';
import { tavilyExtractTool, tavilySearchTool } from './search/tavily.js';
import { bingTool, githubTool, googleTool, searxngTool } from './search/web-search.js';
import { invokeTool } from './invoke.js';
import { McpConnectionPool, type PoolOptions } from './mcp/connections.js';
import { mcpPortOf, type McpRunPort, type McpServerLookup } from './mcp/port.js';
import { tenantMcpLookup } from './mcp/store.js';
import type { AppContext } from '../context.js';
import type { ToolDeps } from './context.js';
import { isDbType, testConnection } from './exesql/drivers.js';
import { exeSqlTool } from './exesql/tool.js';

export type { ToolDeps } from './context.js';
export type { McpServerConfig } from './mcp/client.js';
export type { McpRunPort, McpServerLookup } from './mcp/port.js';
export { McpConnectionPool, type PoolOptions } from './mcp/connections.js';
export { callMcpTool, listMcpTools, withMcpClient, type ListedMcpTool } from './mcp/client.js';
export { mcpConfigOf } from './mcp/store.js';

export interface ToolPortContext {
  config: OutboundSettings;
  /** default: the process-wide sandbox */
  sandbox?: Pick<Sandbox, 'runCode'>;
  /** where `LECTERN_<TOOL>_BASE_URL` overrides are read; default process.env */
  env?: Readonly<Record<string, string | undefined>>;
}

type ToolFactory = (deps: ToolDeps) => ToolComponent;

const FACTORIES: ToolFactory[] = [
  codeExecTool,
  invokeTool,
  crawlerTool,
  exeSqlTool,
  emailTool,
  tavilySearchTool,
  tavilyExtractTool,
  googleTool,
  githubTool,
  searxngTool,
  bingTool,
  wikipediaTool,
  arxivTool,
  pubmedTool,
  duckDuckGoTool,
  deeplTool,
  tushareTool,
];

export function toolsOf(deps: ToolDeps): Map<string, ToolComponent> {
  return new Map(FACTORIES.map((f) => f(deps)).map((t) => [t.componentName, t]));
}

/** Every tool component, for the agent services' registry (root.ts). */
export function createToolComponents(ctx: ToolPortContext): ToolComponent[] {
  const box = ctx.sandbox;
  return [
    ...toolsOf({
      policy: outboundPolicyOf(ctx.config),
      runCode: box ? (req) => box.runCode(req) : sharedRunCode,
      env: ctx.env ?? process.env,
    }).values(),
  ];
}

export function createToolPort(ctx: ToolPortContext): ToolPort {
  const box = ctx.sandbox;
  const tools = toolsOf({
    policy: outboundPolicyOf(ctx.config),
    runCode: box ? (req) => box.runCode(req) : sharedRunCode,
    env: ctx.env ?? process.env,
  });
  return { get: (name) => tools.get(name) };
}

/**
 * Opens and closes a connection to a database ExeSQL would query (`POST /v1/canvas/test_db_connect`):
 * `ok`, `unsupported` for an unknown kind, or the driver's reason.
 */
export async function testDbConnection(
  config: OutboundSettings,
  target: {
    dbType: string;
    host: string;
    port: number;
    database: string;
    username: string;
    password: string;
  },
): Promise<'ok' | 'unsupported' | string> {
  const { dbType, ...rest } = target;
  if (!isDbType(dbType)) return 'unsupported';
  try {
    await testConnection(
      { dbType, ...rest },
      { policy: outboundPolicyOf(config), statementTimeoutMs: 10_000, connectTimeoutMs: 10_000 },
    );
    return 'ok';
  } catch (err) {
    return err instanceof Error && err.message ? err.message : String(err);
  }
}

/**
 * The MCP client of one run: `lookup` gives the MCP server record for an id, limited to what the
 * run's tenant may use; sessions come from (and go back to) `pool`.
 */
export function createMcpPort(pool: McpConnectionPool, lookup: McpServerLookup): McpRunPort {
  return mcpPortOf(pool, lookup);
}

export interface TenantMcpPorts {
  /** the MCP client of one run of a tenant (its sessions are released when the run ends) */
  forRun(tenantId: string): McpRunPort;
  /** the process's session pool */
  pool: McpConnectionPool;
  close(): Promise<void>;
}

/**
 * The MCP client of each tenant's runs (root.ts): an Agent reaches the servers its canvas owner
 * registered (`mcp_server` rows, API.md §16), through the outbound guard, over sessions pooled for
 * the process (`close()` at shutdown).
 */
export function createTenantMcpPorts(
  ctx: Pick<AppContext, 'config' | 'db'>,
  options: PoolOptions = {},
): TenantMcpPorts {
  const pool = new McpConnectionPool(outboundPolicyOf(ctx.config), options);
  return {
    pool,
    forRun: (tenantId) => mcpPortOf(pool, tenantMcpLookup(ctx.db.kysely, tenantId)),
    close: () => pool.close(),
  };
}
