import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAIStandin, standinEmbedding, type Standin } from '../../../test/standins/index.js';
import { collect, fastPolicy, specOf } from '../../../test/standins/spec-helpers.js';
import { AiSdkChatModel, AiSdkImage2TextModel } from './chat.js';
import { AiSdkEmbeddingModel } from './embedding.js';
import { AiSdkSpeech2TextModel, AiSdkTtsModel } from './audio.js';
import type { ChatDelta } from '../ports.js';

const KEY = 'sk-test-123456';

describe('OpenAI adapter (@ai-sdk/openai) against the OpenAI stand-in', () => {
  let s: Standin;
  beforeAll(async () => {
    s = await startOpenAIStandin({ apiKey: KEY, embeddingDim: 64 });
  });
  afterAll(async () => s.close());

  const chat = (o: { key?: string; policy?: typeof fastPolicy } = {}) =>
    new AiSdkChatModel(
      specOf('OpenAI', 'gpt-4o-mini', 'chat', { apiKey: o.key ?? KEY, baseUrl: s.url }),
      o.policy ?? fastPolicy,
    );

  it('streams text deltas and reports usage from the last chunk', async () => {
    const deltas = await collect(
      chat().stream([
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'hello there friend' },
      ]),
    );
    const text = deltas.filter((d) => d.type === 'text').map((d) => (d as { text: string }).text);
    expect(text.length).toBeGreaterThan(2); // really streamed, piece by piece
    expect(text.join('')).toBe('You said: hello there friend');
    const done = deltas.at(-1) as Extract<ChatDelta, { type: 'done' }>;
    expect(done.type).toBe('done');
    expect(done.finishReason).toBe('stop');
    expect(done.usage).toEqual({ promptTokens: 5, completionTokens: 5, totalTokens: 10 });
    const req = s.modelCalls().at(-1)?.body as Record<string, unknown>;
    expect(req.stream).toBe(true);
    expect(req.stream_options).toEqual({ include_usage: true });
    expect(s.modelCalls().at(-1)?.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('completes without streaming, honouring stop sequences and max tokens', async () => {
    const r = await chat().complete([{ role: 'user', content: 'alpha beta STOP gamma' }], { stop: ['STOP'] });
    expect(r.text).toBe('You said: alpha beta ');
    expect(r.usage.totalTokens).toBeGreaterThan(0);
    const cut = await chat().complete([{ role: 'user', content: 'one two three four five' }], {
      maxTokens: 3,
    });
    expect(cut.text).toBe('You said: one ');
    expect(cut.finishReason).toBe('length');
    const body = s.modelCalls().at(-1)?.body as Record<string, unknown>;
    expect(body.max_tokens).toBe(3);
  });

  it('reports a bad key as a readable 401', async () => {
    await expect(chat({ key: 'sk-bad' }).complete([{ role: 'user', content: 'hi' }])).rejects.toThrow(
      /^OpenAI: 401 Unauthorized — Incorrect API key provided/,
    );
    await expect(collect(chat({ key: 'sk-bad' }).stream([{ role: 'user', content: 'hi' }]))).rejects.toThrow(
      /OpenAI: 401 Unauthorized/,
    );
  });

  it('retries 429 with backoff and then succeeds; gives up after the retry budget', async () => {
    const before = s.modelCalls().length;
    s.fail('429', 2);
    const r = await chat().complete([{ role: 'user', content: 'retry me' }]);
    expect(r.text).toBe('You said: retry me');
    expect(s.modelCalls().length - before).toBe(3);

    s.fail('429', 2);
    const deltas = await collect(chat().stream([{ role: 'user', content: 'stream retry' }]));
    expect(deltas.filter((d) => d.type === 'text').length).toBeGreaterThan(0);

    s.fail('429', 3);
    await expect(chat().complete([{ role: 'user', content: 'x' }])).rejects.toThrow(
      /^OpenAI: 429 Too Many Requests — Rate limit reached for requests \(gave up after 2 retries\)$/,
    );
  });

  it('retries a 500 and reports it when it persists', async () => {
    s.fail('500', 1);
    expect((await chat().complete([{ role: 'user', content: 'after 500' }])).text).toBe(
      'You said: after 500',
    );
    s.fail('500', 3);
    await expect(chat().complete([{ role: 'user', content: 'x' }])).rejects.toThrow(
      /^OpenAI: 500 Internal Server Error — The server had an error/,
    );
  });

  it('gives up on a server that never answers, within the time limit', async () => {
    s.fail('hang', 1);
    const t0 = Date.now();
    await expect(
      chat({ policy: { ...fastPolicy, timeoutMs: 300 } }).complete([{ role: 'user', content: 'x' }]),
    ).rejects.toThrow('OpenAI: no answer within 300 ms (time limit)');
    expect(Date.now() - t0).toBeLessThan(2000);
  });

  it('gives up on a stream that stalls after its first chunk', async () => {
    s.fail('stall', 1);
    const got: ChatDelta[] = [];
    const run = async () => {
      for await (const d of chat({ policy: { ...fastPolicy, timeoutMs: 300 } }).stream([
        { role: 'user', content: 'stall please' },
      ]))
        got.push(d);
    };
    await expect(run()).rejects.toThrow('OpenAI: no answer within 300 ms (time limit)');
  });

  it('reports a malformed body, streamed or not', async () => {
    s.fail('malformed', 1);
    await expect(chat().complete([{ role: 'user', content: 'x' }])).rejects.toThrow(
      /^OpenAI: malformed response/,
    );
    s.fail('malformed', 1);
    await expect(collect(chat().stream([{ role: 'user', content: 'x' }]))).rejects.toThrow(
      /^OpenAI: malformed response/,
    );
  });

  it('sends images to a vision model', async () => {
    const vision = new AiSdkImage2TextModel(
      specOf('OpenAI', 'gpt-4o', 'image2text', { apiKey: KEY, baseUrl: s.url }),
      fastPolicy,
    );
    const png =
      'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
    const r = await vision.describe({ data: png }, 'What is this?');
    expect(r.text).toBe('I see 1 image(s). You said: What is this?');
    const msg = (
      s.modelCalls().at(-1)?.body as {
        messages: Array<{ content: Array<{ type: string; image_url?: { url: string } }> }>;
      }
    ).messages[0];
    expect(msg.content[1].type).toBe('image_url');
    expect(msg.content[1].image_url?.url).toMatch(/^data:image\/png;base64,iVBOR/);
  });

  it('embeds in batches with the model dimension and usage', async () => {
    const model = new AiSdkEmbeddingModel(
      specOf('OpenAI', 'text-embedding-3-small', 'embedding', { apiKey: KEY, baseUrl: s.url }),
      fastPolicy,
    );
    const before = s.modelCalls().length;
    const texts = Array.from({ length: 300 }, (_, i) => `text number ${i}`);
    const r = await model.embed(texts);
    expect(r.vectors).toHaveLength(300);
    expect(r.dimension).toBe(64);
    expect(r.vectors[7]).toEqual(standinEmbedding('text number 7', 64));
    expect(s.modelCalls().length - before).toBe(2); // 256 + 44
    expect(r.usage.tokens).toBe(900);
  });

  it('retries embedding 429s and reports a malformed embedding answer', async () => {
    const model = new AiSdkEmbeddingModel(
      specOf('OpenAI', 'text-embedding-3-small', 'embedding', { apiKey: KEY, baseUrl: s.url }),
      fastPolicy,
    );
    s.fail('429', 1);
    expect((await model.embed(['a'])).vectors).toHaveLength(1);
    s.fail('malformed', 1);
    await expect(model.embed(['a'])).rejects.toThrow(/^OpenAI: malformed response/);
  });

  it('transcribes audio and speaks text over /audio', async () => {
    const stt = new AiSdkSpeech2TextModel(
      specOf('OpenAI', 'whisper-1', 'speech2text', { apiKey: KEY, baseUrl: s.url }),
      fastPolicy,
    );
    const r = await stt.transcribe(new Uint8Array(1000), { mimeType: 'audio/wav' });
    expect(r.text).toBe('Transcribed 1000 bytes with whisper-1.');
    const tts = new AiSdkTtsModel(
      specOf('OpenAI', 'tts-1', 'tts', { apiKey: KEY, baseUrl: s.url }),
      fastPolicy,
    );
    const a = await tts.speak('Hello there', { voice: 'nova' });
    expect(Buffer.from(a.audio).toString()).toBe('ID3nova:Hello there');
    expect(a.usage.tokens).toBeGreaterThan(0);
  });
});

describe('Azure-OpenAI adapter (@ai-sdk/azure): deployment URLs and the api-key header', () => {
  it('calls /openai/deployments/<name>/chat/completions?api-version=…', async () => {
    const s = await startOpenAIStandin({ apiKey: 'azure-key' });
    try {
      const spec = specOf('Azure-OpenAI', 'my-gpt4o', 'chat', {
        apiKey: 'azure-key',
        baseUrl: s.origin,
        credentials: { api_version: '2024-10-21' },
      });
      const deltas = await collect(
        new AiSdkChatModel(spec, fastPolicy).stream([{ role: 'user', content: 'hi azure' }]),
      );
      expect(
        deltas
          .filter((d) => d.type === 'text')
          .map((d) => (d as { text: string }).text)
          .join(''),
      ).toBe('You said: hi azure');
      const req = s.modelCalls().at(-1);
      expect(req?.path).toBe('/openai/deployments/my-gpt4o/chat/completions');
      expect(req?.query.get('api-version')).toBe('2024-10-21');
      expect(req?.headers['api-key']).toBe('azure-key');
    } finally {
      await s.close();
    }
  });
});

describe('cancelling a streamed call', () => {
  it('stops the stream when the caller aborts, and frees the request when the consumer stops reading', async () => {
    const s = await startOpenAIStandin({
      chunkDelayMs: 30,
      reply: () => 'one two three four five six seven eight nine ten',
    });
    try {
      const model = new AiSdkChatModel(
        specOf('OpenAI', 'gpt-4o-mini', 'chat', { apiKey: 'k', baseUrl: s.url }),
        fastPolicy,
      );
      const ac = new AbortController();
      const got: string[] = [];
      const run = async () => {
        for await (const d of model.stream([{ role: 'user', content: 'count' }], { signal: ac.signal })) {
          if (d.type === 'text') {
            got.push(d.text);
            ac.abort();
          }
        }
      };
      await expect(run()).rejects.toThrow('OpenAI: call cancelled');
      expect(got).toHaveLength(1);

      // Breaking out of the loop ends the generator cleanly (no throw, no dangling timer).
      const first: ChatDelta[] = [];
      for await (const d of model.stream([{ role: 'user', content: 'count' }])) {
        first.push(d);
        if (d.type === 'text') break;
      }
      expect(first.filter((d) => d.type === 'text')).toHaveLength(1);
    } finally {
      await s.close();
    }
  });
});
