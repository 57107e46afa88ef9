/**
 * agent-core's `ChatModelPort` on the server's model registry: a component's `llm_id` is resolved in
 * the running tenant's configured models (metered into `tenant_llm.used_tokens`); an id the tenant
 * has not configured falls back to its default chat model, with a note on the node (API.md §13.2).
 * Function calling (the Agent component's tools) goes through the adapters' native tool support.
 */
import type {
  AgentChatModel,
  ChatChunk,
  ChatMessage as AgentMessage,
  ChatModelPort,
  ChatRequest,
} from '@lectern/agent-core';
import type { AppContext } from '../context.js';
import { ApiError } from '../errors.js';
import { defaultModelId, modelFor } from '../models/index.js';
import type { ChatMessage, ChatModel, ChatOptions } from '../models/index.js';
import { tracedChatModel } from '../tracing/models.js';
import type { Observation } from '../tracing/types.js';

function toServerMessage(m: AgentMessage): ChatMessage {
  switch (m.role) {
    case 'system':
      return { role: 'system', content: m.content };
    case 'user':
      return { role: 'user', content: m.content, images: m.images?.map((data) => ({ data })) };
    case 'assistant':
      return { role: 'assistant', content: m.content, toolCalls: m.toolCalls };
    case 'tool':
      return { role: 'tool', content: m.content, toolCallId: m.toolCallId, toolName: m.name };
  }
}

function optionsOf(req: ChatRequest, signal: AbortSignal): ChatOptions {
  const o = req.options;
  return {
    signal,
    temperature: o.temperature,
    topP: o.topP,
    maxTokens: o.maxTokens,
    presencePenalty: o.presencePenalty,
    frequencyPenalty: o.frequencyPenalty,
    tools: req.tools,
  };
}

/** A server chat port seen through agent-core's model interface. */
export function agentChatModel(model: ChatModel, maxContextTokens?: number): AgentChatModel {
  return {
    id: model.id,
    maxContextTokens,
    async *stream(req, { signal }): AsyncIterable<ChatChunk> {
      const messages = req.messages.map(toServerMessage);
      if (req.json && messages[0]?.role === 'system') {
        // No provider-neutral JSON mode in the adapters: the instruction is part of the prompt.
        messages[0] = { ...messages[0], content: `${messages[0].content}\n\nAnswer with JSON only.` };
      }
      try {
        for await (const d of model.stream(messages, optionsOf(req, signal))) {
          if (d.type === 'done') yield { type: 'usage', usage: d.usage };
          else if (d.type === 'tool_call') yield { type: 'tool_call', call: d.call };
          else yield d;
        }
      } catch (err) {
        // The adapters report a cancelled call as a ModelError; the runtime knows a cancel by AbortError.
        if (signal.aborted) throw new DOMException('The run was cancelled.', 'AbortError');
        throw err;
      }
    },
  };
}

/** Whether resolving the model failed because the tenant has not configured it (→ fall back). */
function notConfigured(err: unknown): boolean {
  return err instanceof ApiError && /not authorized|not found|No chat model is set/.test(err.message);
}

/** With `trace`, every call of the models it hands out is a generation of that trace (API.md §14). */
export function agentModelPort(ctx: AppContext, tenantId: string, trace?: Observation): ChatModelPort {
  const open = async (llmId: string, role: 'chat' | 'image2text'): Promise<ChatModel> => {
    const model =
      role === 'image2text'
        ? (await modelFor(ctx, tenantId, llmId, 'image2text')).chat()
        : await modelFor(ctx, tenantId, llmId, 'chat');
    return trace ? tracedChatModel(model, trace) : model;
  };
  return {
    async get(llmId, role) {
      try {
        return { model: agentChatModel(await open(llmId, role)) };
      } catch (err) {
        if (!notConfigured(err)) throw err instanceof Error ? new Error(err.message) : err;
        const fallback = await defaultModelId(ctx, tenantId, role === 'image2text' ? 'image2text' : 'chat');
        if (!fallback || fallback === llmId) throw new Error((err as Error).message);
        const model = agentChatModel(await open(fallback, role));
        const note = `Model ${llmId || '(none)'} is not configured; the default model ${fallback} answered.`;
        return { model, note };
      }
    },
  };
}
