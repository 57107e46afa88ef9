import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MyLlms, VerifyResult } from '@lectern/shared';
import { call, newUser, startTestServer, type TestServer, type TestUser } from '../../../test/harness.js';
import { startOpenAIStandin, startRerankStandin, type Standin } from '../../../test/standins/index.js';

/** Key checks of set_api_key / add_llm with MODEL_VERIFY=1: real probe calls against stand-ins. */
describe('set_api_key and add_llm probe the key with real calls', () => {
  let server: TestServer;
  let openai: Standin;
  let rerank: Standin;
  let u: TestUser;
  const BAD_KEY_LINE =
    'OpenAI: 401 Unauthorized — Incorrect API key provided: sk-bad. You can find your API key at https://platform.openai.com/account/api-keys.';

  beforeAll(async () => {
    openai = await startOpenAIStandin({ apiKey: 'sk-good-1234567', embeddingDim: 8 });
    rerank = await startRerankStandin({ flavor: 'jina' });
    server = await startTestServer({
      MODEL_VERIFY: '1',
      MODEL_VERIFY_TIMEOUT_MS: '400',
      MODEL_RETRY_BASE_MS: '10',
    });
    u = await newUser(server, 'probe');
  });
  afterAll(async () => {
    await server.close();
    await openai.close();
    await rerank.close();
  });

  const post = (route: string, body: unknown) => call(server, `/v1/llm/${route}`, { token: u.token, body });
  const count = () =>
    server.ctx.db.kysely.selectFrom('tenant_llm').selectAll().where('tenant_id', '=', u.id).execute();

  it('verify:true answers {message, success} and stores nothing', async () => {
    const good = await post('set_api_key', {
      llm_factory: 'OpenAI',
      api_key: 'sk-good-1234567',
      base_url: openai.url,
      verify: true,
    });
    expect(good.body).toEqual({ code: 0, message: 'success', data: { message: '', success: true } });
    const bad = await post('set_api_key', {
      llm_factory: 'OpenAI',
      api_key: 'sk-bad',
      base_url: openai.url,
      verify: true,
    });
    const data = bad.body.data as VerifyResult;
    expect(data.success).toBe(false);
    expect(data.message).toBe(
      `\nFail to access model(OpenAI/gpt-4.1) using this api key.${BAD_KEY_LINE}` +
        `\nFail to access embedding model(text-embedding-3-small) using this api key.${BAD_KEY_LINE}`,
    );
    expect(await count()).toHaveLength(0);
  });

  it('a failing key is refused with 102 and the accumulated probe failures', async () => {
    const bad = await post('set_api_key', { llm_factory: 'OpenAI', api_key: 'sk-bad', base_url: openai.url });
    expect(bad.body.code).toBe(102);
    expect(bad.body.message).toBe(
      `\nFail to access model(OpenAI/gpt-4.1) using this api key.${BAD_KEY_LINE}` +
        `\nFail to access embedding model(text-embedding-3-small) using this api key.${BAD_KEY_LINE}`,
    );
    expect(await count()).toHaveLength(0);
  });

  it('one passing probe is enough: chat fails (500), embedding answers, every model is stored', async () => {
    openai.fail('500', 1);
    const calls = openai.modelCalls().length;
    const res = await post('set_api_key', {
      llm_factory: 'OpenAI',
      api_key: 'sk-good-1234567',
      base_url: openai.url,
    });
    expect(res.body).toEqual({ code: 0, message: 'success', data: true });
    const probes = openai.modelCalls().slice(calls);
    expect(probes.map((r) => r.path)).toEqual(['/v1/chat/completions', '/v1/embeddings']);
    expect((probes[1].body as { input: string[] }).input).toEqual(['Test if the api key is available']);
    const rows = await count();
    expect(rows).toHaveLength(12);
    expect(rows.every((r) => r.api_base === openai.url)).toBe(true);
  });

  it('a probe that hangs fails within the verify time limit', async () => {
    openai.fail('hang', 2);
    const t0 = Date.now();
    const res = await post('set_api_key', {
      llm_factory: 'OpenAI',
      api_key: 'sk-good-1234567',
      base_url: openai.url,
      verify: true,
    });
    expect((res.body.data as VerifyResult).message).toBe(
      '\nFail to access model(OpenAI/gpt-4.1) using this api key.OpenAI: no answer within 400 ms (time limit)' +
        '\nFail to access embedding model(text-embedding-3-small) using this api key.OpenAI: no answer within 400 ms (time limit)',
    );
    expect(Date.now() - t0).toBeLessThan(3000);
  });

  it('add_llm probes the one model and reports an unreachable server', async () => {
    const ok = await post('add_llm', {
      llm_factory: 'OpenAI-API-Compatible',
      llm_name: 'my-chat',
      model_type: 'chat',
      api_base: openai.url,
      api_key: 'sk-good-1234567',
    });
    expect(ok.body).toEqual({ code: 0, message: 'success', data: true });
    expect((openai.modelCalls().at(-1)?.body as { model: string }).model).toBe('my-chat'); // the ___ suffix is not sent

    const emb = await post('add_llm', {
      llm_factory: 'OpenAI-API-Compatible',
      llm_name: 'my-emb',
      model_type: 'embedding',
      api_base: openai.url,
      api_key: 'sk-bad',
    });
    expect(emb.body).toMatchObject({
      code: 102,
      message: `\nFail to access embedding model(my-emb).OpenAI-API-Compatible: 401 Unauthorized — Incorrect API key provided: sk-bad. You can find your API key at https://platform.openai.com/account/api-keys.`,
    });

    const closed = await startOpenAIStandin();
    const deadUrl = closed.url;
    await closed.close();
    const down = await post('add_llm', {
      llm_factory: 'VLLM',
      llm_name: 'qwen',
      model_type: 'chat',
      api_base: deadUrl,
    });
    expect(down.body.code).toBe(102);
    expect(down.body.message).toBe(
      `\nFail to access model(VLLM/qwen).VLLM: cannot reach ${new URL(deadUrl).host} (ECONNREFUSED)`,
    );

    const verify = await post('add_llm', {
      llm_factory: 'Xinference',
      llm_name: 'bge-reranker',
      model_type: 'rerank',
      api_base: rerank.url,
      verify: true,
    });
    expect(verify.body.data).toEqual({ message: '', success: true });
    expect(rerank.modelCalls().at(-1)?.body).toMatchObject({
      model: 'bge-reranker',
      query: 'What is the capital of France?',
    });

    const tts = await post('add_llm', {
      llm_factory: 'OpenAI',
      llm_name: 'tts-1',
      model_type: 'tts',
      api_key: 'sk-good-1234567',
      api_base: openai.url,
    });
    expect(tts.body.code).toBe(0);
    const stt = await post('add_llm', {
      llm_factory: 'OpenAI',
      llm_name: 'whisper-1',
      model_type: 'speech2text',
      api_key: 'sk-good-1234567',
      api_base: openai.url,
    });
    expect(stt.body.code).toBe(0);
    expect(openai.modelCalls().at(-1)?.path).toBe('/v1/audio/transcriptions');

    const my = (await call<MyLlms>(server, '/v1/llm/my_llms', { token: u.token })).body.data as MyLlms;
    expect(my['OpenAI-API-Compatible'].llm.map((m) => m.name)).toEqual(['my-chat___OpenAI-API']);
  });
});
