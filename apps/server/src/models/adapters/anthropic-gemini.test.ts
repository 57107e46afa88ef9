import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startAnthropicStandin,
  startGeminiStandin,
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

describe('Anthropic adapter (@ai-sdk/anthropic) against the Messages API stand-in', () => {
  let s: Standin;
  beforeAll(async () => {
    s = await startAnthropicStandin({ apiKey: 'sk-ant-good' });
  });
  afterAll(async () => s.close());
  const model = (key = 'sk-ant-good', name = 'claude-3-5-haiku-latest') =>
    new AiSdkChatModel(specOf('Anthropic', name, 'chat', { apiKey: key, baseUrl: s.url }), fastPolicy);

  it('streams text_delta events, with thinking_delta as reasoning, and usage from message_start/message_delta', async () => {
    const ds = await collect(
      model('sk-ant-good', 'claude-reasoning-test').stream([
        { role: 'system', content: 'Be kind.' },
        { role: 'user', content: 'tell me a fact' },
      ]),
    );
    expect(textOf(ds, 'text')).toBe('You said: tell me a fact');
    expect(textOf(ds, 'reasoning')).toBe('Thinking about "tell me a fact".');
    const done = ds.at(-1) as Extract<ChatDelta, { type: 'done' }>;
    expect(done.usage).toEqual({ promptTokens: 6, completionTokens: 12, totalTokens: 18 });
    const req = s.modelCalls().at(-1);
    expect(req?.headers['x-api-key']).toBe('sk-ant-good');
    expect((req?.body as { system: unknown }).system).toEqual([{ type: 'text', text: 'Be kind.' }]);
  });

  it('stops at a stop sequence (stop_reason stop_sequence)', async () => {
    const r = await model().complete([{ role: 'user', content: 'one two END three' }], { stop: ['END'] });
    expect(r.text).toBe('You said: one two ');
    expect((s.modelCalls().at(-1)?.body as { stop_sequences: string[] }).stop_sequences).toEqual(['END']);
  });

  it('turns error events into readable messages and retries 429', async () => {
    await expect(model('bad').complete([{ role: 'user', content: 'hi' }])).rejects.toThrow(
      'Anthropic: 401 Unauthorized — invalid x-api-key',
    );
    s.fail('429', 1);
    expect((await model().complete([{ role: 'user', content: 'again' }])).text).toBe('You said: again');
    s.fail('500', 3);
    await expect(collect(model().stream([{ role: 'user', content: 'x' }]))).rejects.toThrow(
      /^Anthropic: 500 Internal Server Error — Internal server error/,
    );
    s.fail('malformed', 1);
    await expect(collect(model().stream([{ role: 'user', content: 'x' }]))).rejects.toThrow(
      /^Anthropic: malformed response/,
    );
    s.fail('hang', 1);
    await expect(
      new AiSdkChatModel(
        specOf('Anthropic', 'claude-3-5-haiku-latest', 'chat', { apiKey: 'sk-ant-good', baseUrl: s.url }),
        { ...fastPolicy, timeoutMs: 250 },
      ).complete([{ role: 'user', content: 'x' }]),
    ).rejects.toThrow('Anthropic: no answer within 250 ms (time limit)');
  });
});

describe('Gemini adapter (@ai-sdk/google) against the Gemini API stand-in', () => {
  let s: Standin;
  beforeAll(async () => {
    s = await startGeminiStandin({ apiKey: 'AIza-good', embeddingDim: 24 });
  });
  afterAll(async () => s.close());
  const chat = (key = 'AIza-good', name = 'gemini-2.0-flash') =>
    new AiSdkChatModel(specOf('Gemini', name, 'chat', { apiKey: key, baseUrl: s.url }), fastPolicy);

  it('streams streamGenerateContent?alt=sse with thought parts as reasoning and usageMetadata', async () => {
    const ds = await collect(
      chat('AIza-good', 'gemini-reasoning').stream([{ role: 'user', content: 'plan a trip' }], {
        stop: ['zzz'],
      }),
    );
    expect(textOf(ds, 'text')).toBe('You said: plan a trip');
    expect(textOf(ds, 'reasoning')).toBe('Thinking about "plan a trip".');
    const done = ds.at(-1) as Extract<ChatDelta, { type: 'done' }>;
    expect(done.usage.promptTokens).toBe(3);
    expect(done.usage.totalTokens).toBe(3 + 5 + 5);
    const req = s.modelCalls().at(-1);
    expect(req?.path).toBe('/v1beta/models/gemini-reasoning:streamGenerateContent');
    expect(req?.query.get('alt')).toBe('sse');
    expect(req?.headers['x-goog-api-key']).toBe('AIza-good');
  });

  it('generates without streaming, and reports a bad key', async () => {
    expect((await chat().complete([{ role: 'user', content: 'hello gemini' }])).text).toBe(
      'You said: hello gemini',
    );
    await expect(chat('wrong').complete([{ role: 'user', content: 'hi' }])).rejects.toThrow(
      'Gemini: 400 Bad Request — API key not valid. Please pass a valid API key.',
    );
    s.fail('429', 1);
    expect((await chat().complete([{ role: 'user', content: 'after quota' }])).text).toBe(
      'You said: after quota',
    );
    s.fail('malformed', 1);
    await expect(chat().complete([{ role: 'user', content: 'x' }])).rejects.toThrow(
      /^Gemini: malformed response/,
    );
  });

  it('embeds with embedContent (one) and batchEmbedContents (many, ≤100 per call)', async () => {
    const model = new AiSdkEmbeddingModel(
      specOf('Gemini', 'text-embedding-004', 'embedding', { apiKey: 'AIza-good', baseUrl: s.url }),
      fastPolicy,
    );
    const one = await model.embed(['single']);
    expect(one.vectors[0]).toEqual(standinEmbedding('single', 24));
    expect(s.modelCalls().at(-1)?.path).toMatch(/:embedContent$/);
    const before = s.modelCalls().length;
    const many = await model.embed(Array.from({ length: 150 }, (_, i) => `t${i}`));
    expect(many.vectors).toHaveLength(150);
    expect(s.modelCalls().length - before).toBe(2);
    expect(s.modelCalls().at(-1)?.path).toMatch(/:batchEmbedContents$/);
    expect(many.usage.tokens).toBeGreaterThan(0); // estimated: Gemini reports no embedding usage
  });
});

describe('Google Cloud adapter: Gemini on Vertex AI with a base64 service-account key', () => {
  let s: Standin;
  let saB64: string;
  beforeAll(async () => {
    const { publicKey, privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
    s = await startGeminiStandin({
      embeddingDim: 12,
      serviceAccountPublicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    });
    const sa = {
      type: 'service_account',
      client_email: 'svc@proj.iam.gserviceaccount.com',
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      token_uri: `${s.origin}/token`,
    };
    saB64 = Buffer.from(JSON.stringify(sa)).toString('base64');
  });
  afterAll(async () => s.close());
  const creds = () => ({
    google_project_id: 'proj-1',
    google_region: 'us-central1',
    google_service_account_key: saB64,
  });

  it('trades a signed JWT for a token and calls the Vertex generateContent path', async () => {
    const model = new AiSdkChatModel(
      specOf('Google Cloud', 'gemini-2.5-flash', 'chat', { baseUrl: `${s.origin}/v1`, credentials: creds() }),
      fastPolicy,
    );
    const ds = await collect(model.stream([{ role: 'user', content: 'vertex hello' }]));
    expect(textOf(ds, 'text')).toBe('You said: vertex hello');
    const req = s.modelCalls().at(-1);
    expect(req?.path).toBe(
      '/v1/projects/proj-1/locations/us-central1/publishers/google/models/gemini-2.5-flash:streamGenerateContent',
    );
    expect(req?.headers.authorization).toMatch(/^Bearer ya29\./);
    expect(req?.headers['x-goog-api-key']).toBeUndefined();
  });

  it('embeds with :predict', async () => {
    const model = new AiSdkEmbeddingModel(
      specOf('Google Cloud', 'text-embedding-005', 'embedding', {
        baseUrl: `${s.origin}/v1`,
        credentials: creds(),
      }),
      fastPolicy,
    );
    const r = await model.embed(['alpha beta', 'gamma']);
    expect(r.vectors[0]).toEqual(standinEmbedding('alpha beta', 12));
    expect(r.usage.tokens).toBe(3);
    expect(s.modelCalls().at(-1)?.path).toMatch(/models\/text-embedding-005:predict$/);
  });

  it('refuses a key signed by another account', async () => {
    const other = crypto
      .generateKeyPairSync('rsa', { modulusLength: 2048 })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
    const bad = Buffer.from(
      JSON.stringify({
        client_email: 'evil@x.iam.gserviceaccount.com',
        private_key: other,
        token_uri: `${s.origin}/token`,
      }),
    ).toString('base64');
    const model = new AiSdkChatModel(
      specOf('Google Cloud', 'gemini-2.5-flash', 'chat', {
        baseUrl: `${s.origin}/v1`,
        credentials: { ...creds(), google_service_account_key: bad },
      }),
      fastPolicy,
    );
    await expect(model.complete([{ role: 'user', content: 'x' }])).rejects.toThrow(
      'Google Cloud: token request failed: 400 Bad Request — invalid_grant: Invalid JWT Signature.',
    );
  });
});
