/**
 * The machinery shared by the tools that call one outside service (search engines, data APIs,
 * translators): the main argument rendered (inline references), an empty one answered with an empty
 * output (AGENTS.md §10.1), `max_retries + 1` attempts `delay_after_error` seconds apart, failures
 * reported as `"<Tool> error: <reason>"`, web hits published as citations and prompt text.
 */
import type { LoggerPort, ToolComponent, ToolMeta } from '@lectern/agent-core';
import type { ToolDeps } from '../context.js';
import { timeLimitMs } from '../context.js';
import { chunksToPrompt, hitsToChunks, type WebHit } from './chunks.js';
import { errorText, int, text } from './values.js';

export interface ServiceCall {
  deps: ToolDeps;
  params: Record<string, unknown>;
  /** call arguments merged over the params (the model's, or the node's) */
  args: Record<string, unknown>;
  /** the main argument, references rendered, trimmed */
  query: string;
  signal: AbortSignal;
  timeoutMs: number;
  logger: LoggerPort;
}

/** Web hits become citations + `formalized_content` (+ `json`); other tools set outputs directly. */
export type ServiceResult =
  { hits: WebHit[]; json?: unknown } | { outputs: Record<string, unknown>; result: unknown };

export interface ServiceToolSpec {
  componentName: string;
  /** "ArXiv" → "ArXiv error: …" */
  label: string;
  meta: ToolMeta;
  /** the argument that carries the request (query, q, stock_code…); empty → empty output */
  primary: string;
  /** the output set to "" for an empty request */
  emptyOutput?: string;
  /** the tool's own time limit per attempt, seconds */
  timeoutSeconds: number;
  check?(params: Record<string, unknown>): string[];
  run(call: ServiceCall): Promise<ServiceResult>;
}

export function serviceTool(spec: ServiceToolSpec, deps: ToolDeps): ToolComponent {
  return {
    componentName: spec.componentName,
    meta: () => spec.meta,
    check: spec.check,
    async invoke(call) {
      const args: Record<string, unknown> = { ...call.args };
      for (const [k, m] of Object.entries(spec.meta.parameters))
        if (args[k] === undefined || args[k] === null) args[k] = call.params[k] ?? m.default;
      const main = args[spec.primary];
      // A list argument (TavilyExtract `urls`) is empty when it has no items.
      const query = Array.isArray(main)
        ? main.map(text).filter(Boolean).join(',')
        : (await call.render(text(main))).trim();
      if (!query) {
        call.setOutput(spec.emptyOutput ?? 'formalized_content', '');
        return '';
      }
      const attempts = Math.max(0, int(call.params.max_retries, 0)) + 1;
      const delayMs = Math.max(0, Number(call.params.delay_after_error ?? 2) || 0) * 1000;
      let lastError: unknown;
      for (let attempt = 0; attempt < attempts; attempt++) {
        try {
          const result = await spec.run({
            deps,
            params: call.params,
            args,
            query,
            signal: call.signal,
            timeoutMs: timeLimitMs(deps, spec.timeoutSeconds),
            logger: call.logger,
          });
          return await publish(call, result);
        } catch (err) {
          if (call.signal.aborted) throw err;
          lastError = err;
          call.logger.warn(`${spec.label} attempt ${attempt + 1} failed`, { error: errorText(err) });
          if (attempt + 1 < attempts) await call.sleep(delayMs);
        }
      }
      throw new Error(`${spec.label} error: ${errorText(lastError)}`);
    },
  };
}

async function publish(
  call: Parameters<ToolComponent['invoke']>[0],
  result: ServiceResult,
): Promise<unknown> {
  if ('outputs' in result) {
    for (const [k, v] of Object.entries(result.outputs)) call.setOutput(k, v);
    return result.result;
  }
  const { chunks, docAggs } = hitsToChunks(result.hits);
  if (chunks.length) await call.addReferences(chunks, docAggs);
  const prompt = chunksToPrompt(chunks);
  call.setOutput('formalized_content', prompt);
  if (result.json !== undefined) call.setOutput('json', result.json);
  return prompt;
}

/** The usual one-argument search meta. */
export function queryMeta(name: string, description: string, queryDescription: string): ToolMeta {
  return {
    name,
    description,
    parameters: {
      query: { type: 'string', description: queryDescription, default: '{sys.query}', required: true },
    },
  };
}
