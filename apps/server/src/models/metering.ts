import type {
  AnyModel,
  ChatDelta,
  ChatMessage,
  ChatModel,
  ChatOptions,
  EmbeddingModel,
  Image2TextModel,
  RerankModel,
  Speech2TextModel,
  TtsModel,
} from './ports.js';

/**
 * Wraps a port so that the tokens of every successful call are recorded (tenant_llm.used_tokens).
 * A failed usage write never fails the call itself.
 */
type Record = (tokens: number) => Promise<void>;

function safe(record: Record, tokens: number): Promise<void> {
  return record(tokens).catch(() => {
    // Accounting is best effort: the answer already reached the caller.
  });
}

function meteredChat(inner: ChatModel, record: Record): ChatModel {
  return {
    kind: 'chat',
    id: inner.id,
    async *stream(messages: ChatMessage[], options?: ChatOptions): AsyncIterable<ChatDelta> {
      for await (const delta of inner.stream(messages, options)) {
        if (delta.type === 'done') await safe(record, delta.usage.totalTokens);
        yield delta;
      }
    },
    async complete(messages, options) {
      const r = await inner.complete(messages, options);
      await safe(record, r.usage.totalTokens);
      return r;
    },
  };
}

export function metered(model: AnyModel, record: Record): AnyModel {
  switch (model.kind) {
    case 'chat':
      return meteredChat(model, record);
    case 'image2text': {
      const chat = meteredChat(model.chat(), record);
      const m: Image2TextModel = {
        kind: 'image2text',
        id: model.id,
        async describe(image, prompt, options) {
          const r = await model.describe(image, prompt, options);
          await safe(record, r.usage.totalTokens);
          return r;
        },
        chat: () => chat,
      };
      return m;
    }
    case 'embedding': {
      const m: EmbeddingModel = {
        kind: 'embedding',
        id: model.id,
        batchSize: model.batchSize,
        async embed(texts, options) {
          const r = await model.embed(texts, options);
          await safe(record, r.usage.tokens);
          return r;
        },
      };
      return m;
    }
    case 'rerank': {
      const m: RerankModel = {
        kind: 'rerank',
        id: model.id,
        async rerank(query, documents, options) {
          const r = await model.rerank(query, documents, options);
          await safe(record, r.usage.tokens);
          return r;
        },
      };
      return m;
    }
    case 'speech2text': {
      const m: Speech2TextModel = {
        kind: 'speech2text',
        id: model.id,
        async transcribe(audio, options) {
          const r = await model.transcribe(audio, options);
          await safe(record, r.usage.tokens);
          return r;
        },
      };
      return m;
    }
    case 'tts': {
      const m: TtsModel = {
        kind: 'tts',
        id: model.id,
        async speak(text, options) {
          const r = await model.speak(text, options);
          await safe(record, r.usage.tokens);
          return r;
        },
      };
      return m;
    }
  }
}
