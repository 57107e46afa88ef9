/**
 * Test helpers for tool components: runs one as the runtime would (params, args, references
 * rendered from a map, outputs and citations recorded), and builds ToolDeps for stand-ins on
 * 127.0.0.1.
 */
import type { DocAggregate, RetrievedChunk, ToolComponent } from '@lectern/agent-core';
import { silentLogger } from '@lectern/agent-core';
import { createPolicy } from '../../net/index.js';
import { runCode } from '../../sandbox/index.js';
import type { ToolDeps } from '../context.js';

export interface ToolRun {
  result: unknown;
  outputs: Record<string, unknown>;
  chunks: RetrievedChunk[];
  docAggs: DocAggregate[];
  /** the thrown error's message, when the tool failed */
  error?: string;
  sleeps: number[];
}

export function testDeps(env: Record<string, string> = {}, extra: Partial<ToolDeps> = {}): ToolDeps {
  return {
    policy: createPolicy({ ssrfAllow: '127.0.0.1,::1,localhost' }),
    runCode,
    env,
    ...extra,
  };
}

export async function runTool(
  tool: ToolComponent,
  opts: {
    params?: Record<string, unknown>;
    args?: Record<string, unknown>;
    /** values of references (`{sys.query}`, `Cpn:Id@out`) */
    refs?: Record<string, unknown>;
    signal?: AbortSignal;
  } = {},
): Promise<ToolRun> {
  const refs = opts.refs ?? {};
  const lookup = (ref: string) => refs[ref.trim().replace(/^\{|\}$/g, '')];
  const run: ToolRun = { result: undefined, outputs: {}, chunks: [], docAggs: [], sleeps: [] };
  try {
    run.result = await tool.invoke({
      params: opts.params ?? {},
      args: opts.args ?? {},
      signal: opts.signal ?? new AbortController().signal,
      render: async (t) => t.replace(/\{([^{}]+)\}/g, (m, r: string) => (r in refs ? String(refs[r]) : m)),
      resolve: async (r) => lookup(r),
      setOutput: (k, v) => (run.outputs[k] = v),
      addReferences: async (c, d) => {
        run.chunks.push(...c);
        run.docAggs.push(...d);
      },
      sleep: async (ms) => {
        run.sleeps.push(ms);
      },
      logger: silentLogger,
    });
  } catch (err) {
    run.error = err instanceof Error ? err.message : String(err);
  }
  return run;
}
