/**
 * The agent services one server process holds (built once by the composition root): the host's
 * tool components and MCP client (extension points for the tool module), the ports a run gets, and
 * the registry of runs live in this process.
 */
import crypto from 'node:crypto';
import os from 'node:os';
import type { AgentPorts, McpPort, ToolComponent } from '@lectern/agent-core';
import type { AppContext } from '../context.js';
import type { Observation } from '../tracing/types.js';
import { agentModelPort } from './model-port.js';
import { agentRetrievalPort } from './retrieval-port.js';
import { LiveRuns } from './live-runs.js';
import { RunLogFlusher } from './run-log-flusher.js';
import { agentStoragePort } from './storage-port.js';
import { ToolRegistry } from './tool-registry.js';

export interface AgentHostOptions {
  /** Tool components (AGENTS.md §10) — canvas nodes and Agent tools. */
  tools?: readonly ToolComponent[];
  /** The MCP client for Agent MCP tools (API.md §16), one for all tenants… */
  mcp?: McpPort;
  /**
   * …or the client of one run of a tenant (its own MCP servers, sessions released when the run
   * ends); wins over `mcp`.
   */
  mcpFor?: (tenantId: string) => McpPort & { release?(): void };
}

/** The ports of one run, and what ends the run's hold on its connections. */
export interface RunPorts extends AgentPorts {
  release(): void;
}

export interface AgentServices {
  /** The lease owner of the runs this process starts (task rows). */
  owner: string;
  tools: ToolRegistry;
  mcp: McpPort | undefined;
  /** The MCP client of a tenant's runs, when the host has one per tenant. */
  mcpFor: AgentHostOptions['mcpFor'];
  /** Runs executing in this process (streams, cancel). */
  runs: LiveRuns;
  /** Writes the logs of the runs in progress, all of them in one transaction per tick. */
  logs: RunLogFlusher;
  /**
   * The ports of a run of canvas `canvasId` on behalf of tenant `tenantId` (the canvas owner). With
   * `trace`, the run's model calls and retrievals are recorded under it (API.md §14). The caller
   * calls `release()` when the run ends (finished, failed or cancelled): it hands the run's MCP
   * sessions back.
   */
  portsFor(tenantId: string, canvasId: string, trace?: Observation): RunPorts;
}

/** Without an MCP client, an Agent's MCP tool fails with a readable sentence. */
const noMcp: McpPort = {
  callTool: () => Promise.reject(new Error('MCP servers are not available on this server.')),
};

export function createAgentServices(ctx: AppContext, options: AgentHostOptions = {}): AgentServices {
  const tools = new ToolRegistry(options.tools);
  const services: AgentServices = {
    owner: `agents-${os.hostname()}-${process.pid}-${crypto.randomBytes(3).toString('hex')}`,
    tools,
    mcp: options.mcp,
    mcpFor: options.mcpFor,
    runs: new LiveRuns(),
    logs: new RunLogFlusher(() => ctx.db.kysely),
    portsFor(tenantId, canvasId, trace) {
      const runMcp = services.mcpFor?.(tenantId);
      return {
        models: agentModelPort(ctx, tenantId, trace),
        retrieval: agentRetrievalPort(ctx, tenantId, trace),
        tools,
        mcp: runMcp ?? services.mcp ?? noMcp,
        storage: agentStoragePort(ctx, tenantId, canvasId),
        release: () => runMcp?.release?.(),
      };
    },
  };
  return services;
}
