/**
 * Agent tool figures (issue 15 "Speed"), measured through the tool components as the runtime calls
 * them:
 *  1. CodeExec JavaScript start: a trivial `main` through the CodeExec tool (QuickJS worker up);
 *  2. CodeExec Python: the first call of a fresh sandbox (Pyodide loads in its worker), then later calls;
 *  3. tool-call overhead: TavilySearch against its local stand-in, minus the same request sent with
 *     plain node:http (the service's own time + the loopback round trip);
 *  4. MCP tool-call overhead: an Agent run's McpPort (pooled session) calling `add` on the SDK-built
 *     stand-in, minus the same call over an SDK client session held open by the bench (the tool's own
 *     time + the transport); the one-session-per-call path it replaced is printed for comparison.
 * Prints median / p95, the machine and its load average; never asserts a time.
 * Run: npm run bench -- tools [runs=200] [pythonRuns=30]
 * (BENCH_TOOLS_ONLY=codeexec|http|mcp runs one part.)
 */
import http from 'node:http';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { codeExecTool } from '../apps/server/src/agent-tools/code-exec.js';
import { tavilySearchTool } from '../apps/server/src/agent-tools/search/tavily.js';
import { runTool, testDeps } from '../apps/server/src/agent-tools/testing/invoke.js';
import { Sandbox } from '../apps/server/src/sandbox/index.js';
import { callMcpTool, connectMcpClient, withMcpClient } from '../apps/server/src/agent-tools/mcp/client.js';
import { McpConnectionPool } from '../apps/server/src/agent-tools/mcp/connections.js';
import { mcpPortOf } from '../apps/server/src/agent-tools/mcp/port.js';
import { createPolicy } from '../apps/server/src/net/index.js';
import { startMcpStandin } from '../apps/server/test/standins/mcp.js';
import { startStandin } from '../apps/server/test/standins/common.js';
import { tavilyAnswer } from '../apps/server/test/standins/tools/tavily.js';
import { machine, summarize } from './lib/stats.js';

const RUNS = Number(process.argv[2] ?? 200);
const PY_RUNS = Number(process.argv[3] ?? 30);
const ms = (x: number) => `${x.toFixed(2)} ms`;
const line = (label: string, xs: number[]) => {
  const s = summarize(xs);
  console.log(
    `${label.padEnd(44)} median ${ms(s.median).padStart(10)}  p95 ${ms(s.p95).padStart(10)}  (n=${s.n})`,
  );
};

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

async function codeExec(): Promise<void> {
  const box = new Sandbox();
  const tool = codeExecTool(testDeps({}, { runCode: (r) => box.runCode(r) }));
  const js = {
    params: {
      lang: 'javascript',
      script: 'function main(a) { return { result: a.x + 1 }; }',
      arguments: { x: 'n' },
    },
    refs: { n: 1 },
  };
  await box.warm('javascript');
  for (let i = 0; i < 20; i++) await runTool(tool, js);
  const jsTimes: number[] = [];
  for (let i = 0; i < RUNS; i++) jsTimes.push(await timed(() => runTool(tool, js)));
  line('CodeExec JavaScript (tool, warm worker)', jsTimes);
  const py = {
    params: { lang: 'python', script: 'def main(x):\n    return {"result": x + 1}\n', arguments: { x: 'n' } },
    refs: { n: 1 },
  };
  const first = await timed(() => runTool(tool, py));
  console.log(`${'CodeExec Python first call (Pyodide load)'.padEnd(44)} ${ms(first)}`);
  const pyTimes: number[] = [];
  for (let i = 0; i < PY_RUNS; i++) pyTimes.push(await timed(() => runTool(tool, py)));
  line('CodeExec Python later calls', pyTimes);
  await box.close();
}

async function overhead(): Promise<void> {
  const standin = await startStandin([(c) => tavilyAnswer(c, 'result')]);
  const tool = tavilySearchTool(testDeps({ LECTERN_TAVILY_BASE_URL: standin.origin }));
  const body = JSON.stringify({ query: 'lighthouses', max_results: 5 });
  const agent = new http.Agent({ keepAlive: true });
  const raw = () =>
    new Promise<void>((resolve, reject) => {
      const req = http.request(`${standin.origin}/search`, {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', authorization: 'Bearer tvly-test' },
      });
      req.on('response', (res) => res.resume().on('end', resolve));
      req.on('error', reject);
      req.end(body);
    });
  const call = () =>
    runTool(tool, { params: { api_key: 'tvly-test', max_results: 5 }, args: { query: 'lighthouses' } });
  for (let i = 0; i < 30; i++) await Promise.all([raw(), call()]);
  const rawTimes: number[] = [];
  const toolTimes: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    rawTimes.push(await timed(raw));
    toolTimes.push(await timed(call));
  }
  line('stand-in alone (plain HTTP round trip)', rawTimes);
  line('TavilySearch tool call', toolTimes);
  const r = summarize(rawTimes);
  const t = summarize(toolTimes);
  console.log(
    `${'tool overhead beyond the service'.padEnd(44)} median ${ms(t.median - r.median).padStart(10)}  p95 ${ms(t.p95 - r.p95).padStart(10)}`,
  );
  agent.destroy();
  await standin.close();
}

async function mcpOverhead(): Promise<void> {
  const standin = await startMcpStandin();
  const policy = createPolicy({ ssrfAllow: '127.0.0.1' });
  const opts = { signal: new AbortController().signal, timeoutMs: 10_000 };
  const config = {
    url: standin.sessionUrl,
    serverType: 'streamable-http' as const,
    headers: { Authorization: 'Bearer ${token}' },
    variables: { token: 'bench' },
  };
  // The SDK leaves a listener on the signal of each handshake: one signal per opened session.
  const fresh = () => ({ ...opts, signal: new AbortController().signal });
  const held = await connectMcpClient(config, policy, fresh());
  const direct = () => callMcpTool(held, 'add', { a: 1, b: 2 }, opts);
  const pool = new McpConnectionPool(policy);
  const port = mcpPortOf(pool, async () => config);
  const viaPort = () =>
    port.callTool({ mcpId: 'bench', name: 'add', arguments: { a: 1, b: 2 }, headers: {} }, opts);
  for (let i = 0; i < 30; i++) await Promise.all([direct(), viaPort()]);
  const directTimes: number[] = [];
  const portTimes: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    directTimes.push(await timed(direct));
    portTimes.push(await timed(viaPort));
  }
  const perCall: number[] = [];
  for (let i = 0; i < Math.min(RUNS, 40); i++)
    perCall.push(
      await timed(() =>
        withMcpClient(config, policy, fresh(), (c) => callMcpTool(c, 'add', { a: 1, b: 2 }, opts)),
      ),
    );
  line('MCP call over a held SDK session (tool+wire)', directTimes);
  line('MCP tool call through the run port (pooled)', portTimes);
  line('MCP call opening a session per call (before)', perCall);
  const d = summarize(directTimes);
  const p = summarize(portTimes);
  console.log(
    `${'MCP per-call overhead beyond the tool'.padEnd(44)} median ${ms(p.median - d.median).padStart(10)}  p95 ${ms(p.p95 - d.p95).padStart(10)}`,
  );
  console.log(`${'MCP sessions opened by the stand-in'.padEnd(44)} ${standin.connections()}`);
  port.release();
  await pool.close();
  await held.close();
  await standin.close();
}

const only = process.env.BENCH_TOOLS_ONLY;
console.log(
  `machine: ${machine()}; load average ${os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
if (!only || only === 'codeexec') await codeExec();
if (!only || only === 'http') await overhead();
if (!only || only === 'mcp') await mcpOverhead();
console.log(
  `load average after: ${os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
