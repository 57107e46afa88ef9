/**
 * The Agent's tool loop (§6.2, issue 15 item 7) through the model's native function calling: each
 * round the model may call functions; all calls of one answer run concurrently (they are
 * independent by construction), a failing tool's error is given back to the model as its result,
 * and every call is recorded in the trace with its arguments, result and time. After `max_rounds`
 * rounds with calls the model is asked for its final answer without tools.
 */
import { callModel } from '../model/call.js';
import type { AgentChatModel, ChatMessage, ChatRequest, ToolCall } from '../ports.js';
import type { StreamItem } from '../runtime/text-stream.js';
import { CancelledError, errorMessage } from '../util/errors.js';
import { observationText, type AgentTool } from './agent-tools.js';
import type { ComponentContext } from './types.js';

export interface ToolUse {
  name: string;
  arguments: Record<string, unknown>;
  results: string;
}

export interface LoopResult {
  content: string;
  useTools: ToolUse[];
}

export const FINAL_ANSWER_NOTE =
  'You have used all the tool rounds available. Do not call tools any more: give your best final answer now from what you have gathered.';

function parseArguments(
  call: ToolCall,
): { ok: true; args: Record<string, unknown> } | { ok: false; error: string } {
  if (typeof call.arguments !== 'string') return { ok: true, args: call.arguments ?? {} };
  if (!call.arguments.trim()) return { ok: true, args: {} };
  try {
    const v: unknown = JSON.parse(call.arguments);
    if (v && typeof v === 'object' && !Array.isArray(v))
      return { ok: true, args: v as Record<string, unknown> };
    return { ok: false, error: 'the arguments must be a JSON object' };
  } catch (e) {
    return { ok: false, error: `the arguments are not valid JSON (${errorMessage(e)})` };
  }
}

async function execute(
  ctx: ComponentContext,
  tools: Map<string, AgentTool>,
  call: ToolCall,
): Promise<ToolUse> {
  const started = ctx.ports.clock.monotonic();
  const parsed = parseArguments(call);
  const args = parsed.ok ? parsed.args : {};
  let results: string;
  const tool = tools.get(call.name);
  if (!parsed.ok) results = `Error: ${parsed.error}`;
  else if (!tool) results = `Error: there is no tool named "${call.name}"`;
  else {
    try {
      results = await observationText(await tool.call(args));
    } catch (e) {
      if (e instanceof CancelledError || ctx.signal.aborted) throw new CancelledError();
      results = `Error: ${errorMessage(e)}`;
    }
  }
  ctx.recordTrace({
    path: `${ctx.id}-->${call.name}`,
    tool_name: call.name,
    arguments: args,
    result: results,
    elapsed_time: (ctx.ports.clock.monotonic() - started) / 1000,
  });
  return { name: call.name, arguments: args, results };
}

export async function runToolLoop(
  ctx: ComponentContext,
  model: AgentChatModel,
  base: ChatRequest,
  tools: Map<string, AgentTool>,
  maxRounds: number,
  onItem?: (item: StreamItem) => void,
): Promise<LoopResult> {
  const messages: ChatMessage[] = [...base.messages];
  const fns = [...tools.values()].map((t) => t.fn);
  const useTools: ToolUse[] = [];
  for (let round = 0; ; round++) {
    await ctx.checkCancelled();
    const last = round >= maxRounds || fns.length === 0;
    if (last && round > 0) messages.push({ role: 'user', content: FINAL_ANSWER_NOTE });
    const answer = await callModel(
      ctx,
      model,
      { ...base, messages, tools: last ? undefined : fns },
      { onItem, holdTextUntilDone: !last },
    );
    if (last || answer.toolCalls.length === 0) return { content: answer.text, useTools };
    messages.push({ role: 'assistant', content: answer.text, toolCalls: answer.toolCalls });
    const uses = await Promise.all(answer.toolCalls.map((c) => execute(ctx, tools, c)));
    answer.toolCalls.forEach((c, i) => {
      messages.push({ role: 'tool', toolCallId: c.id, name: c.name, content: uses[i].results });
      useTools.push(uses[i]);
    });
  }
}
