/**
 * The functions an Agent offers its model (§6.2, §10.1, §11.3): Retrieval and host tool components
 * as `<name>_<index>`, sub-agents as `<display name>_<index>` taking `user_prompt`, `reasoning` and
 * `context`, MCP tools under their own names. Each has a `call` the tool loop runs.
 */
import { RETRIEVAL_DESCRIPTION } from '../catalogue/core-model.js';
import { parseComponentParams } from '../dsl/validate.js';
import type { FunctionTool, ToolMeta } from '../ports.js';
import { isPlainObject } from '../util/pyjson.js';
import { valueToText } from '../variables/render.js';
import { NestedContext } from './nested-context.js';
import { search } from './retrieval.js';
import type { ComponentContext } from './types.js';

export interface AgentTool {
  fn: FunctionTool;
  call(args: Record<string, unknown>): Promise<unknown>;
}

/** Runs a sub-agent; supplied by agent.ts to avoid a module cycle. */
export type SubAgentRunner = (ctx: NestedContext, userPrompt: string) => Promise<string>;

interface ToolEntry {
  component_name: string;
  name?: string;
  id?: string;
  params: Record<string, unknown>;
}

function metaToSchema(meta: ToolMeta): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const [k, m] of Object.entries(meta.parameters)) {
    properties[k] = { type: m.type, description: m.description, ...(m.enum ? { enum: m.enum } : {}) };
    if (m.required) required.push(k);
  }
  return { type: 'object', properties, required };
}

const SUB_AGENT_SCHEMA = {
  type: 'object',
  properties: {
    user_prompt: { type: 'string', description: 'The task for this agent, written as a clear request.' },
    reasoning: { type: 'string', description: 'Why this agent is being asked and what is expected back.' },
    context: { type: 'string', description: 'Facts gathered so far that the agent needs.' },
  },
  required: ['user_prompt', 'reasoning', 'context'],
};

/** Build the tool set; a misconfigured tool throws `<component_name> configuration error: …`. */
export function buildAgentTools(ctx: ComponentContext, runSubAgent: SubAgentRunner): Map<string, AgentTool> {
  const tools = new Map<string, AgentTool>();
  const entries = (ctx.params.tools as ToolEntry[]) ?? [];
  entries.forEach((t, i) => {
    const parsed = parseComponentParams(t.component_name, t.params ?? {});
    if (!parsed.ok) throw new Error(`${t.component_name} configuration error: ${parsed.messages.join('; ')}`);
    const params = parsed.params;
    const nestedId = `${ctx.id}-->${(t.name ?? t.component_name).replace(/ /g, '_')}`;
    const nested = () =>
      new NestedContext(ctx, nestedId, t.component_name, params, t.name ?? t.component_name);
    if (t.component_name === 'Retrieval') {
      const name = `${String(params.function_name || 'search_my_dateset')}_${i}`;
      tools.set(name, {
        fn: {
          name,
          description: String(params.description || RETRIEVAL_DESCRIPTION),
          parameters: {
            type: 'object',
            properties: {
              query: {
                type: 'string',
                description:
                  'The keywords to search the dataset. The keywords should be the most important words/terms (includes synonyms) from the original request.',
              },
            },
            required: ['query'],
          },
        },
        call: async (args) => search(nested(), String(args.query ?? '')),
      });
      return;
    }
    if (t.component_name === 'Agent') {
      const name = `${nestedId.split('-->').pop()}_${i}`;
      tools.set(name, {
        fn: { name, description: String(params.description ?? ''), parameters: SUB_AGENT_SCHEMA },
        call: async (args) => {
          const [q, r, c] = [args.user_prompt, args.reasoning, args.context].map((v) =>
            typeof v === 'string' ? v : v ? JSON.stringify(v) : '',
          );
          const prompt =
            !r && !c
              ? q
              : [r && `### REASONING\n${r}`, c && `### CONTEXT\n${c}`, `### QUERY\n${q}`]
                  .filter(Boolean)
                  .join('\n\n');
          return runSubAgent(nested(), prompt);
        },
      });
      return;
    }
    const impl = ctx.ports.tools?.get(t.component_name);
    if (!impl)
      throw new Error(
        `${t.component_name} configuration error: no implementation is registered for this tool`,
      );
    const reasons = impl.check?.(params) ?? [];
    if (reasons.length) throw new Error(`${t.component_name} configuration error: ${reasons.join('; ')}`);
    const meta = impl.meta(params);
    const name = `${meta.name}_${i}`;
    tools.set(name, {
      fn: {
        name,
        description: String(params.description || meta.description || ''),
        parameters: metaToSchema(meta),
      },
      call: async (args) => {
        const full: Record<string, unknown> = { ...args };
        // Arguments the model left out are taken from the params, then the meta default (§10.8).
        for (const [k, m] of Object.entries(meta.parameters))
          if (full[k] === undefined) full[k] = params[k] ?? m.default;
        const n = nested();
        return impl.invoke({
          params,
          args: full,
          signal: n.signal,
          render: (text) => n.render(text),
          resolve: (ref) => n.resolve(ref),
          setOutput: (k, v) => n.setOutput(k, v),
          addReferences: (c, d) => n.addReferences(c, d),
          sleep: (ms) => n.sleep(ms),
          logger: n.ports.logger,
        });
      },
    });
  });
  for (const server of (ctx.params.mcp as { mcp_id: string; tools: Record<string, unknown> }[]) ?? []) {
    for (const [name, raw] of Object.entries(server.tools ?? {})) {
      const tool = isPlainObject(raw) ? raw : {};
      // MCP tool names are used as they are: the last server exposing a name wins (§11.3).
      tools.set(name, {
        fn: {
          name,
          description: String(tool.description ?? ''),
          parameters: isPlainObject(tool.inputSchema) ? tool.inputSchema : { type: 'object', properties: {} },
        },
        call: async (args) => {
          if (!ctx.ports.mcp) throw new Error('MCP tools are not available here (no MCP port)');
          return ctx.ports.mcp.callTool(
            {
              mcpId: server.mcp_id,
              name,
              arguments: args,
              headers: (ctx.params.custom_header as Record<string, unknown>) ?? {},
            },
            { signal: ctx.signal, timeoutMs: 60_000 },
          );
        },
      });
    }
  }
  return tools;
}

/** A tool result as the observation text given back to the model. */
export async function observationText(result: unknown): Promise<string> {
  return valueToText(result);
}
