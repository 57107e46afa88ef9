/**
 * One model call from a component: resolve the model, stream the completion (cancel checked on every
 * chunk), split reasoning from text, retry a failed call `max_retries` times with
 * `delay_after_error` seconds between tries (§3.10) — unless answer text already reached a reader.
 */
import type { ComponentContext } from '../components/types.js';
import type { AgentChatModel, ChatRequest, GenerationOptions, ToolCall, TokenUsage } from '../ports.js';
import { CancelledError, isAbortError } from '../util/errors.js';
import type { StreamItem } from '../runtime/text-stream.js';
import { ThinkSplitter } from './think.js';

export interface ModelAnswer {
  text: string;
  reasoning: string;
  toolCalls: ToolCall[];
  usage: TokenUsage | null;
}

/** Generation settings sent: each only when its value is > 0 and its `…Enabled` flag is on (§6.1). */
export function generationOptions(p: Record<string, unknown>): GenerationOptions {
  const o: GenerationOptions = {};
  const on = (flag: string, key: string) =>
    p[flag] === true && typeof p[key] === 'number' && (p[key] as number) > 0;
  if (on('temperatureEnabled', 'temperature')) o.temperature = p.temperature as number;
  if (on('topPEnabled', 'top_p')) o.topP = p.top_p as number;
  if (on('maxTokensEnabled', 'max_tokens')) o.maxTokens = p.max_tokens as number;
  if (on('presencePenaltyEnabled', 'presence_penalty')) o.presencePenalty = p.presence_penalty as number;
  if (on('frequencyPenaltyEnabled', 'frequency_penalty')) o.frequencyPenalty = p.frequency_penalty as number;
  return o;
}

export async function getModel(
  ctx: ComponentContext,
  llmId: string,
  images: boolean,
): Promise<AgentChatModel> {
  const { model, note } = await ctx.ports.models.get(llmId, images ? 'image2text' : 'chat', {
    signal: ctx.signal,
  });
  if (note) ctx.setNote(note);
  return model;
}

export interface CallOptions {
  /** receives answer/think items as they arrive (streaming to a Message) */
  onItem?: (item: StreamItem) => void;
  /** hold answer text until the call ended without tool calls (Agent rounds) */
  holdTextUntilDone?: boolean;
  /** retries after the first try (default: the component's max_retries) */
  retries?: number;
}

/** Stream one completion, with retries; throws the last error. */
export async function callModel(
  ctx: ComponentContext,
  model: AgentChatModel,
  request: ChatRequest,
  options: CallOptions = {},
): Promise<ModelAnswer> {
  const retries = options.retries ?? (Number(ctx.params.max_retries) || 0);
  const delayMs = (Number(ctx.params.delay_after_error) || 0) * 1000;
  let lastError: unknown;
  for (let attempt = 0; attempt <= retries; attempt++) {
    const emitted = { text: false };
    try {
      return await once(ctx, model, request, options, emitted);
    } catch (e) {
      if (e instanceof CancelledError || (isAbortError(e) && ctx.signal.aborted)) throw new CancelledError();
      lastError = e;
      if (emitted.text || attempt === retries) break;
      ctx.ports.logger.warn('model call failed, retrying', {
        component: ctx.id,
        attempt: attempt + 1,
        error: String(e),
      });
      if (delayMs > 0) await ctx.sleep(delayMs);
    }
  }
  throw lastError;
}

async function once(
  ctx: ComponentContext,
  model: AgentChatModel,
  request: ChatRequest,
  options: CallOptions,
  emitted: { text: boolean },
): Promise<ModelAnswer> {
  await ctx.checkCancelled();
  const split = new ThinkSplitter();
  const answer: ModelAnswer = { text: '', reasoning: '', toolCalls: [], usage: null };
  const held: StreamItem[] = [];
  const deliver = (items: StreamItem[]) => {
    for (const item of items) {
      if (item.kind === 'text') answer.text += item.text;
      if (item.kind === 'think') answer.reasoning += item.text;
      if (!options.onItem) continue;
      if (item.kind === 'text' && options.holdTextUntilDone) held.push(item);
      else {
        emitted.text = true;
        options.onItem(item);
      }
    }
  };
  for await (const chunk of model.stream(request, { signal: ctx.signal })) {
    if (ctx.signal.aborted) throw new CancelledError();
    if (chunk.type === 'text') deliver(split.text(chunk.text));
    else if (chunk.type === 'reasoning') deliver(split.reasoning(chunk.text));
    else if (chunk.type === 'tool_call') answer.toolCalls.push(chunk.call);
    else if (chunk.type === 'usage') {
      answer.usage = chunk.usage;
      ctx.addUsage(chunk.usage);
    }
  }
  deliver(split.end());
  if (options.onItem && held.length && answer.toolCalls.length === 0) {
    emitted.text = true;
    for (const item of held) options.onItem(item);
  }
  return answer;
}
