/**
 * Agent (§6.2): an LLM with tools, MCP tools and sub-agents. Without any it runs exactly as an LLM.
 * With tools it runs the tool loop; its answer streams to a downstream Message like an LLM's, and
 * `use_tools` lists every call.
 */
import { generationOptions, getModel } from '../model/call.js';
import { buildMessages, visualFiles } from '../model/messages.js';
import { callStructured, structuredInstructions, structuredSchema } from '../model/structured.js';
import type { ChatRequest } from '../ports.js';
import { TextStream, type StreamItem } from '../runtime/text-stream.js';
import { parseModelJson } from '../util/literal.js';
import { CancelledError, errorMessage } from '../util/errors.js';
import { isPlainObject } from '../util/pyjson.js';
import { runToolLoop } from './agent-loop.js';
import { buildAgentTools } from './agent-tools.js';
import { defaultValueOnError, hasChunks, llm, streamsToMessage } from './llm.js';
import { recordRefInputs } from './record-inputs.js';
import type { ComponentContext, ComponentImpl } from './types.js';

function hasTools(ctx: ComponentContext): boolean {
  const mcp = (ctx.params.mcp as { tools?: Record<string, unknown> }[]) ?? [];
  return (ctx.params.tools as unknown[]).length > 0 || mcp.some((m) => Object.keys(m.tools ?? {}).length > 0);
}

/** Run an Agent with tools; `userPrompt` set = a sub-agent call (no history, no citations, no streaming). */
async function runAgent(
  ctx: ComponentContext,
  userPrompt: string | undefined,
  onItem?: (item: StreamItem) => void,
): Promise<string> {
  const p = ctx.params as { llm_id: string; cite: boolean; max_rounds: number };
  const images = await visualFiles(ctx);
  const model = await getModel(ctx, p.llm_id, images.length > 0);
  const tools = buildAgentTools(ctx, (sub, prompt) => runAgent(sub, prompt));
  const schema = structuredSchema(ctx.params);
  const retrievalTool = (ctx.params.tools as { component_name: string }[]).some(
    (t) => t.component_name === 'Retrieval',
  );
  const topLevel = userPrompt === undefined;
  const { messages } = await buildMessages(ctx, {
    cite: topLevel && p.cite && !schema && (hasChunks(ctx) || retrievalTool),
    images,
    systemExtra: schema ? structuredInstructions(schema) : undefined,
    userPrompt,
    withHistory: topLevel,
    contextTokens: model.maxContextTokens,
  });
  const request: ChatRequest = { messages, options: generationOptions(ctx.params) };
  const result = await runToolLoop(ctx, model, request, tools, Math.max(0, p.max_rounds), onItem);
  if (result.useTools.length) ctx.setOutput('use_tools', result.useTools);
  if (schema) {
    const parsed = parseModelJson(result.content);
    const structured =
      parsed.ok && isPlainObject(parsed.value)
        ? parsed.value
        : await callStructured(ctx, model, {
            ...request,
            messages: [
              ...messages,
              { role: 'assistant', content: result.content },
              { role: 'user', content: 'Reformat your answer as the JSON object described above.' },
            ],
          });
    ctx.setOutput('structured', structured);
    return JSON.stringify(structured);
  }
  // While streaming, `content` stays the stream the Message reads; the runtime stores the text after.
  if (!onItem) ctx.setOutput('content', result.content);
  return result.content;
}

export const agent: ComponentImpl = {
  async invoke(ctx) {
    if (!hasTools(ctx)) return llm.invoke(ctx);
    const p = ctx.params as { sys_prompt: string; prompts: { content: string }[] };
    await recordRefInputs(ctx, [p.sys_prompt, ...p.prompts.map((x) => x.content)]);
    if (streamsToMessage(ctx) && !structuredSchema(ctx.params)) {
      ctx.streamOutput(
        'content',
        new TextStream(async (push) => {
          try {
            await runAgent(ctx, undefined, push);
          } catch (e) {
            const fallback = e instanceof CancelledError ? null : defaultValueOnError(ctx);
            if (fallback !== null) return push({ kind: 'text', text: fallback });
            ctx.setError(e instanceof CancelledError ? e.message : errorMessage(e));
            throw e;
          }
        }),
      );
      return;
    }
    await runAgent(ctx, undefined);
  },
};
