import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MyLlms } from '@lectern/shared';
import { call, newUser, startTestServer, type TestServer, type TestUser } from '../../test/harness.js';
import { startOpenAIStandin, startRerankStandin, type Standin } from '../../test/standins/index.js';
import { collect } from '../../test/standins/spec-helpers.js';
import { embeddingAvailable, modelFor, recordUsage, resolveModel } from './registry.js';

/** modelFor / resolveModel / usage accounting / embeddingAvailable over the real app and DB. */
describe('model registry', () => {
  let server: TestServer;
  let llm: Standin;
  let rr: Standin;
  let a: TestUser;
  let b: TestUser;

  beforeAll(async () => {
    llm = await startOpenAIStandin({ apiKey: 'sk-reg-key', embeddingDim: 16 });
    rr = await startRerankStandin({ flavor: 'jina' });
    // Builtin downloads go to a dead hub: the Builtin model is unavailable here.
    server = await startTestServer({ BUILTIN_MODEL_HUB: 'http://127.0.0.1:9/' });
    a = await newUser(server, 'rega');
    b = await newUser(server, 'regb');
    const add = (body: Record<string, unknown>) => call(server, '/v1/llm/add_llm', { token: a.token, body });
    await add({
      llm_factory: 'OpenAI-API-Compatible',
      llm_name: 'chatty',
      model_type: 'chat',
      api_base: llm.url,
      api_key: 'sk-reg-key',
    });
    await add({
      llm_factory: 'OpenAI-API-Compatible',
      llm_name: 'vecs',
      model_type: 'embedding',
      api_base: llm.url,
      api_key: 'sk-reg-key',
    });
    await add({
      llm_factory: 'OpenAI-API-Compatible',
      llm_name: 'eyes',
      model_type: 'image2text',
      api_base: llm.url,
      api_key: 'sk-reg-key',
    });
    await add({ llm_factory: 'Xinference', llm_name: 'ranker', model_type: 'rerank', api_base: rr.url });
  });
  afterAll(async () => {
    await server.close();
    await llm.close();
    await rr.close();
  });

  const usedTokens = async (name: string) => {
    const my = (await call<MyLlms>(server, '/v1/llm/my_llms', { token: a.token })).body.data as MyLlms;
    return Object.values(my)
      .flatMap((g) => g.llm)
      .find((m) => m.name === name)?.used_token;
  };

  it('streams chat through modelFor and adds the usage to used_tokens', async () => {
    const chat = await modelFor(server.ctx, a.id, 'chatty___OpenAI-API@OpenAI-API-Compatible', 'chat');
    const ds = await collect(chat.stream([{ role: 'user', content: 'count my tokens please' }]));
    const done = ds.at(-1) as { type: 'done'; usage: { totalTokens: number } };
    expect(done.usage.totalTokens).toBe(4 + 6);
    expect(await usedTokens('chatty___OpenAI-API')).toBe(10);
    const r = await chat.complete([{ role: 'user', content: 'again' }]);
    expect(await usedTokens('chatty___OpenAI-API')).toBe(10 + r.usage.totalTokens);
  });

  it('meters embeddings, rerank and vision calls too', async () => {
    const emb = await modelFor(server.ctx, a.id, 'vecs___OpenAI-API@OpenAI-API-Compatible', 'embedding');
    const r = await emb.embed(['one two', 'three']);
    expect(r.dimension).toBe(16);
    expect(await usedTokens('vecs___OpenAI-API')).toBe(3);
    const rerank = await modelFor(server.ctx, a.id, 'ranker@Xinference', 'rerank');
    const scores = await rerank.rerank('red apple', ['a red apple', 'a blue car']);
    expect(scores.scores[0]).toBeGreaterThan(scores.scores[1]);
    expect(await usedTokens('ranker')).toBeGreaterThan(0);
    const vision = await modelFor(server.ctx, a.id, 'eyes___OpenAI-API@OpenAI-API-Compatible', 'image2text');
    await vision.describe({ data: new Uint8Array([137, 80, 78, 71]), mimeType: 'image/png' });
    expect(await usedTokens('eyes___OpenAI-API')).toBeGreaterThan(0);
  });

  it('resolves bare names, names without their ___ tag, and vision models as chat', async () => {
    expect((await resolveModel(server.ctx, a.id, 'chatty___OpenAI-API', 'chat')).id).toBe(
      'chatty___OpenAI-API@OpenAI-API-Compatible',
    );
    const s = await resolveModel(server.ctx, a.id, 'chatty@OpenAI-API-Compatible', 'chat');
    expect(s.callName).toBe('chatty');
    expect(s.apiKey).toBe('sk-reg-key');
    expect(s.baseUrl).toBe(llm.url);
    expect((await resolveModel(server.ctx, a.id, 'eyes@OpenAI-API-Compatible', 'chat')).modelType).toBe(
      'chat',
    );
    expect(
      (await resolveModel(server.ctx, a.id, 'BAAI/bge-small-en-v1.5@Builtin', 'embedding')).factory.name,
    ).toBe('Builtin');
  });

  it('refuses models of other tenants, of the wrong type, disabled or unset', async () => {
    await expect(resolveModel(server.ctx, b.id, 'chatty@OpenAI-API-Compatible', 'chat')).rejects.toThrow(
      'Model(chatty@OpenAI-API-Compatible) not authorized',
    );
    await expect(modelFor(server.ctx, b.id, 'vecs@OpenAI-API-Compatible', 'embedding')).rejects.toThrow(
      /not authorized/,
    );
    await expect(resolveModel(server.ctx, a.id, 'vecs@OpenAI-API-Compatible', 'chat')).rejects.toThrow(
      'Model(vecs@OpenAI-API-Compatible) is an embedding model, not chat.',
    );
    await expect(resolveModel(server.ctx, a.id, '', 'rerank')).rejects.toThrow('No rerank model is set.');
    await call(server, '/v1/llm/enable_llm', {
      token: a.token,
      body: { llm_factory: 'Xinference', llm_name: 'ranker', status: '0' },
    });
    await expect(resolveModel(server.ctx, a.id, 'ranker@Xinference', 'rerank')).rejects.toThrow(
      /not authorized/,
    );
    await call(server, '/v1/llm/enable_llm', {
      token: a.token,
      body: { llm_factory: 'Xinference', llm_name: 'ranker', status: '1' },
    });
  });

  it('embeddingAvailable: configured models yes; unset, foreign, unknown or unreachable Builtin no', async () => {
    expect(await embeddingAvailable(server.ctx, a.id, 'vecs___OpenAI-API@OpenAI-API-Compatible')).toBe(true);
    expect(await embeddingAvailable(server.ctx, a.id, '')).toBe(false);
    expect(await embeddingAvailable(server.ctx, b.id, 'vecs___OpenAI-API@OpenAI-API-Compatible')).toBe(false);
    expect(await embeddingAvailable(server.ctx, a.id, 'nothing@OpenAI')).toBe(false);
    const builtin = 'BAAI/bge-small-en-v1.5@Builtin';
    expect(await embeddingAvailable(server.ctx, a.id, builtin)).toBe(true); // not tried yet
    const model = await modelFor(server.ctx, a.id, builtin, 'embedding');
    await expect(model.embed(['x'])).rejects.toThrow(
      /is not available: no local copy in .* and the model hub cannot be reached/,
    );
    expect(await embeddingAvailable(server.ctx, a.id, builtin)).toBe(false);
  });

  it('recordUsage adds up and ignores Builtin or bad counts', async () => {
    const before = (await usedTokens('ranker')) ?? 0;
    await recordUsage(server.ctx, a.id, 'ranker@Xinference', 5);
    await recordUsage(server.ctx, a.id, 'ranker@Xinference', Number.NaN);
    await recordUsage(server.ctx, a.id, 'BAAI/bge-small-en-v1.5@Builtin', 7);
    await recordUsage(server.ctx, b.id, 'ranker@Xinference', 100); // another tenant: not A's row
    expect(await usedTokens('ranker')).toBe(before + 5);
  });

  it('set_tenant_info keeps working with model ids of the tenant', async () => {
    const res = await call(server, '/v1/user/set_tenant_info', {
      token: a.token,
      body: {
        tenant_id: a.id,
        llm_id: 'chatty___OpenAI-API@OpenAI-API-Compatible',
        embd_id: 'vecs___OpenAI-API@OpenAI-API-Compatible',
        img2txt_id: '',
        asr_id: '',
        rerank_id: 'ranker@Xinference',
      },
    });
    expect(res.body).toEqual({ code: 0, message: 'success', data: true });
    const info = await call<Record<string, string>>(server, '/v1/user/tenant_info', { token: a.token });
    expect((info.body.data as Record<string, string>).rerank_id).toBe('ranker@Xinference');
  });
});
