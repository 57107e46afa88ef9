/**
 * Model ports seen through a trace: every call of the wrapped port becomes one generation under
 * `parent` with the model id, its input (messages, texts, the query and documents), its output,
 * token usage and timing (first token of a stream). The calls themselves are unchanged; a traced
 * call that fails or is cancelled is recorded as such and the error goes on to the caller.
 */
import { callableModelName, splitModelId } from '@lectern/shared';
import type {
  ChatDelta,
  ChatMessage,
  ChatModel,
  ChatOptions,
  EmbeddingModel,
  RerankModel,
  TokenUsage,
} from '../models/ports.js';
import type { Generation, Observation, TraceUsage } from './types.js';

/** "<name>@<factory>" as the user chose it (the stored name without its "___<tag>" suffix). */
export function modelLabel(id: string): string {
  const { name, factory } = splitModelId(id);
  return factory ? `${callableModelName(name)}@${factory}` : callableModelName(name);
}

function messagesOf(messages: ChatMessage[]): unknown[] {
  return messages.map((m) => ({
    role: m.role,
    content: m.content,
    ...(m.images?.length ? { images: m.images.length } : {}),
    ...(m.toolCalls?.length ? { tool_calls: m.toolCalls } : {}),
    ...(m.toolCallId ? { tool_call_id: m.toolCallId } : {}),
  }));
}

function parametersOf(o: ChatOptions | undefined) {
  return {
    temperature: o?.temperature,
    top_p: o?.topP,
    max_tokens: o?.maxTokens,
    presence_penalty: o?.presencePenalty,
    frequency_penalty: o?.frequencyPenalty,
  };
}

const usageOf = (u: TokenUsage): TraceUsage => ({
  input: u.promptTokens,
  output: u.completionTokens,
  total: u.totalTokens || u.promptTokens + u.completionTokens,
});

const reason = (err: unknown) => (err instanceof Error ? err.message : String(err));

function startChat(
  parent: Observation,
  name: string,
  model: ChatModel,
  messages: ChatMessage[],
  o?: ChatOptions,
) {
  return parent.generation(name, {
    model: modelLabel(model.id),
    input: messagesOf(messages),
    modelParameters: parametersOf(o),
    metadata: o?.tools?.length ? { tools: o.tools.map((t) => t.name) } : undefined,
  });
}

export function tracedChatModel(model: ChatModel, parent: Observation, name = 'chat'): ChatModel {
  return {
    kind: 'chat',
    id: model.id,
    async *stream(messages, options): AsyncIterable<ChatDelta> {
      const gen: Generation = startChat(parent, name, model, messages, options);
      let text = '';
      let reasoning = '';
      const toolCalls: unknown[] = [];
      let usage: TraceUsage | undefined;
      let failed: string | undefined;
      let done = false;
      try {
        for await (const d of model.stream(messages, options)) {
          if (d.type === 'text' || d.type === 'reasoning') {
            gen.firstToken();
            if (d.type === 'text') text += d.text;
            else reasoning += d.text;
          } else if (d.type === 'tool_call') toolCalls.push(d.call);
          else {
            usage = usageOf(d.usage);
            done = true;
          }
          yield d;
        }
      } catch (err) {
        failed = reason(err);
        throw err;
      } finally {
        gen.end({
          output: {
            content: text,
            ...(reasoning ? { reasoning } : {}),
            ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
          },
          usage,
          error: failed ?? (done ? undefined : 'The call was stopped before it ended.'),
        });
      }
    },
    async complete(messages, options) {
      const gen = startChat(parent, name, model, messages, options);
      try {
        const r = await model.complete(messages, options);
        gen.end({
          output: { content: r.text, ...(r.reasoning ? { reasoning: r.reasoning } : {}) },
          usage: usageOf(r.usage),
        });
        return r;
      } catch (err) {
        gen.end({ error: reason(err) });
        throw err;
      }
    },
  };
}

export function tracedEmbeddingModel(
  model: EmbeddingModel,
  parent: Observation,
  name = 'embedding',
): EmbeddingModel {
  return {
    kind: 'embedding',
    id: model.id,
    batchSize: model.batchSize,
    async embed(texts, options) {
      const gen = parent.generation(name, { model: modelLabel(model.id), input: texts });
      try {
        const r = await model.embed(texts, options);
        const tokens = r.usage.tokens;
        gen.end({
          output: { vectors: r.vectors.length, dimension: r.dimension },
          usage: { input: tokens, output: 0, total: tokens },
        });
        return r;
      } catch (err) {
        gen.end({ error: reason(err) });
        throw err;
      }
    },
  };
}

export function tracedRerankModel(model: RerankModel, parent: Observation, name = 'rerank'): RerankModel {
  return {
    kind: 'rerank',
    id: model.id,
    async rerank(query, documents, options) {
      const gen = parent.generation(name, { model: modelLabel(model.id), input: { query, documents } });
      try {
        const r = await model.rerank(query, documents, options);
        const tokens = r.usage.tokens;
        gen.end({ output: { scores: r.scores }, usage: { input: tokens, output: 0, total: tokens } });
        return r;
      } catch (err) {
        gen.end({ error: reason(err) });
        throw err;
      }
    },
  };
}
