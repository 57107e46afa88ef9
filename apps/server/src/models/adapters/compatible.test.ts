import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startOllamaStandin,
  startOpenAIStandin,
  standinEmbedding,
  type Standin,
} from '../../../test/standins/index.js';
import { collect, fastPolicy, specOf } from '../../../test/standins/spec-helpers.js';
import { AiSdkChatModel } from './chat.js';
import { AiSdkEmbeddingModel } from './embedding.js';
import type { ChatDelta } from '../ports.js';

const textOf = (ds: ChatDelta[], type: 'text' | 'reasoning') =>
  ds
    .filter((d) => d.type === type)
    .map((d) => (d as { text: string }).text)
    .join('');

describe('OpenAI-compatible adapter (@ai-sdk/openai-compatible) for the long tail', () => {
  let s: Standin;
  beforeAll(async () => {
    s = await startOpenAIStandin({ apiKey: 'ds-key', embeddingDim: 32 });
  });
  afterAll(async () => s.close());

  it('streams reasoning deltas separately from text (reasoning_content, DeepSeek style)', async () => {
    const model = new AiSdkChatModel(
      specOf('DeepSeek', 'deepseek-reasoner', 'chat', { apiKey: 'ds-key', baseUrl: s.url }),
      fastPolicy,
    );
    const ds = await collect(model.stream([{ role: 'user', content: 'why is the sky blue' }]));
    expect(textOf(ds, 'reasoning')).toBe('Thinking about "why is the sky blue".');
    expect(textOf(ds, 'text')).toBe('You said: why is the sky blue');
    const firstText = ds.findIndex((d) => d.type === 'text');
    expect(ds.findIndex((d) => d.type === 'reasoning')).toBeLessThan(firstText);
    const done = ds.at(-1) as Extract<ChatDelta, { type: 'done' }>;
    expect(done.usage.totalTokens).toBe(done.usage.promptTokens + done.usage.completionTokens);
    expect(done.usage.completionTokens).toBe(7 + 7); // answer words + reasoning words, as the stand-in counts them

    const r = await model.complete([{ role: 'user', content: 'short' }]);
    expect(r.reasoning).toBe('Thinking about "short".');
    expect(r.text).toBe('You said: short');
  });

  it('reports the provider name in errors', async () => {
    const model = new AiSdkChatModel(
      specOf('DeepSeek', 'deepseek-chat', 'chat', { apiKey: 'nope', baseUrl: s.url }),
      fastPolicy,
    );
    await expect(model.complete([{ role: 'user', content: 'hi' }])).rejects.toThrow(
      /^DeepSeek: 401 Unauthorized — Incorrect API key/,
    );
    s.fail('malformed', 1);
    const ok = new AiSdkChatModel(
      specOf('DeepSeek', 'deepseek-chat', 'chat', { apiKey: 'ds-key', baseUrl: s.url }),
      fastPolicy,
    );
    await expect(collect(ok.stream([{ role: 'user', content: 'hi' }]))).rejects.toThrow(
      /^DeepSeek: malformed response/,
    );
  });

  it('sends the VolcEngine endpoint id as the model and the ARK key as bearer', async () => {
    const spec = specOf('VolcEngine', 'doubao-1.5-pro-32k', 'chat', {
      apiKey: 'ds-key',
      baseUrl: s.url,
      callName: 'ep-20250101-abcde',
      credentials: { ark_api_key: 'ds-key', endpoint_id: 'ep-20250101-abcde' },
    });
    await new AiSdkChatModel(spec, fastPolicy).complete([{ role: 'user', content: 'hi' }]);
    expect((s.modelCalls().at(-1)?.body as { model: string }).model).toBe('ep-20250101-abcde');
  });

  it('adds the OpenRouter provider order to the request body', async () => {
    const spec = specOf('OpenRouter', 'openai/gpt-4o-mini', 'chat', {
      apiKey: 'ds-key',
      baseUrl: s.url,
      credentials: { api_key: 'ds-key', provider_order: 'openai, azure' },
    });
    await new AiSdkChatModel(spec, fastPolicy).complete([{ role: 'user', content: 'hi' }]);
    expect((s.modelCalls().at(-1)?.body as { provider: unknown }).provider).toEqual({
      order: ['openai', 'azure'],
      allow_fallbacks: true,
    });
  });

  it('embeds through /embeddings in batches of 32', async () => {
    const model = new AiSdkEmbeddingModel(
      specOf('SILICONFLOW', 'BAAI/bge-m3', 'embedding', { apiKey: 'ds-key', baseUrl: s.url }),
      fastPolicy,
    );
    const before = s.modelCalls().length;
    const r = await model.embed(Array.from({ length: 40 }, (_, i) => `doc ${i}`));
    expect(s.modelCalls().length - before).toBe(2);
    expect(r.dimension).toBe(32);
    expect(r.vectors[39]).toEqual(standinEmbedding('doc 39', 32));
  });

  it('sends no Authorization header to a local server without a key', async () => {
    const open = await startOpenAIStandin();
    try {
      const model = new AiSdkChatModel(
        specOf('VLLM', 'qwen2.5', 'chat', { apiKey: 'x', baseUrl: open.url }),
        fastPolicy,
      );
      expect((await model.complete([{ role: 'user', content: 'local' }])).text).toBe('You said: local');
      expect(open.modelCalls().at(-1)?.headers.authorization).toBeUndefined();
    } finally {
      await open.close();
    }
  });
});

describe('Ollama adapter: its OpenAI-compatible /v1 API against the Ollama stand-in', () => {
  let o: Standin;
  beforeAll(async () => {
    o = await startOllamaStandin({ embeddingDim: 16 });
  });
  afterAll(async () => o.close());

  it('streams from http://host:11434 (adds /v1) with thinking as reasoning deltas', async () => {
    const model = new AiSdkChatModel(
      specOf('Ollama', 'qwen3-reasoning', 'chat', { apiKey: 'x', baseUrl: o.origin }),
      fastPolicy,
    );
    const ds = await collect(
      model.stream([{ role: 'user', content: 'count to three' }], { temperature: 0.2 }),
    );
    expect(textOf(ds, 'text')).toBe('You said: count to three');
    expect(textOf(ds, 'reasoning')).toBe('Thinking about "count to three".');
    expect((ds.at(-1) as Extract<ChatDelta, { type: 'done' }>).usage.promptTokens).toBe(3);
    const req = o.modelCalls().at(-1);
    expect(req?.path).toBe('/v1/chat/completions');
    expect((req?.body as { temperature: number }).temperature).toBe(0.2);
  });

  it('says which model is missing', async () => {
    const model = new AiSdkChatModel(
      specOf('Ollama', 'mistral', 'chat', { apiKey: 'x', baseUrl: o.origin }),
      fastPolicy,
    );
    await expect(model.complete([{ role: 'user', content: 'hi' }])).rejects.toThrow(
      'Ollama: 404 Not Found — model "mistral" not found, try pulling it first',
    );
  });

  it('embeds with /v1/embeddings and retries a crashed runner', async () => {
    const model = new AiSdkEmbeddingModel(
      specOf('Ollama', 'nomic-embed-text', 'embedding', { apiKey: 'x', baseUrl: `${o.origin}/` }),
      fastPolicy,
    );
    o.fail('500', 1);
    const r = await model.embed(['first', 'second']);
    expect(r.dimension).toBe(16);
    expect(r.vectors[1]).toEqual(standinEmbedding('second', 16));
    expect(o.modelCalls().at(-1)?.path).toBe('/v1/embeddings');
  });
});
