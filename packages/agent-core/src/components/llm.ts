/**
 * LLM (§6.1): one model call. Its `content` streams to a downstream Message (deferred finish),
 * unless an exception goto is set or a structured-output schema is used.
 */
import { callModel, generationOptions, getModel } from '../model/call.js';
import { buildMessages, visualFiles } from '../model/messages.js';
import { callStructured, structuredInstructions, structuredSchema } from '../model/structured.js';
import type { AgentChatModel, ChatRequest } from '../ports.js';
import { TextStream } from '../runtime/text-stream.js';
import { CancelledError, errorMessage } from '../util/errors.js';
import { recordRefInputs } from './record-inputs.js';
import type { ComponentContext, ComponentImpl } from './types.js';

/** Whether `content` streams: a downstream Message and no exception goto (§6.1 "Streaming"). */
export function streamsToMessage(ctx: ComponentContext): boolean {
  const gotos = (ctx.params.exception_goto as string[]) ?? [];
  return !ctx.debug && gotos.length === 0 && ctx.downstream.some((id) => ctx.typeOf(id) === 'Message');
}

export function defaultValueOnError(ctx: ComponentContext): string | null {
  const d = ctx.params.exception_default_value;
  return ctx.params.exception_method === 'comment' && d !== null && d !== undefined && String(d) !== ''
    ? String(d)
    : null;
}

export function hasChunks(ctx: ComponentContext): boolean {
  return Object.keys(ctx.currentReference().chunks).length > 0;
}

/** Stream a call into `content`; a failure becomes the default value (comment) or the component's error. */
export function streamContent(ctx: ComponentContext, model: AgentChatModel, request: ChatRequest) {
  ctx.streamOutput(
    'content',
    new TextStream(async (push) => {
      try {
        await callModel(ctx, model, request, { onItem: push });
      } catch (e) {
        const fallback = e instanceof CancelledError ? null : defaultValueOnError(ctx);
        if (fallback !== null) return push({ kind: 'text', text: fallback });
        ctx.setError(e instanceof CancelledError ? e.message : errorMessage(e));
        throw e;
      }
    }),
  );
}

export const llm: ComponentImpl = {
  async invoke(ctx) {
    const p = ctx.params as { llm_id: string; cite: boolean };
    const images = await visualFiles(ctx);
    const model = await getModel(ctx, p.llm_id, images.length > 0);
    const schema = structuredSchema(ctx.params);
    const { messages } = await buildMessages(ctx, {
      cite: p.cite && !schema && hasChunks(ctx),
      images,
      systemExtra: schema ? structuredInstructions(schema) : undefined,
      contextTokens: model.maxContextTokens,
    });
    const request: ChatRequest = { messages, options: generationOptions(ctx.params) };
    const pp = ctx.params as { sys_prompt: string; prompts: { content: string }[] };
    await recordRefInputs(ctx, [pp.sys_prompt, ...pp.prompts.map((x) => x.content)]);
    if (schema) {
      ctx.setOutput('structured', await callStructured(ctx, model, request));
      return;
    }
    if (streamsToMessage(ctx)) return streamContent(ctx, model, request);
    const answer = await callModel(ctx, model, request);
    ctx.setOutput('content', answer.text);
  },
};
