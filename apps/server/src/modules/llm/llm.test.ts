import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LlmListItem, MyLlms } from '@lectern/shared';
import { call, newUser, startTestServer, type TestServer, type TestUser } from '../../../test/harness.js';
import { openCredentials } from '../../models/credentials.js';

/**
 * /v1/llm's tenant models with MODEL_VERIFY=0 (the harness default): validation, storage, tenancy.
 * The catalogue side (factories, seeding, login) is in llm-catalogue.test.ts.
 */
describe('/v1/llm endpoints', () => {
  let server: TestServer;
  let a: TestUser;
  let b: TestUser;
  beforeAll(async () => {
    server = await startTestServer();
    a = await newUser(server, 'llma');
    b = await newUser(server, 'llmb');
  });
  afterAll(async () => server.close());

  const post = (u: TestUser, route: string, body: unknown) =>
    call(server, `/v1/llm/${route}`, { token: u.token, body });
  const get = <T>(u: TestUser, route: string) => call<T>(server, `/v1/llm/${route}`, { token: u.token });
  const rowsOf = (tenantId: string) =>
    server.ctx.db.kysely.selectFrom('tenant_llm').selectAll().where('tenant_id', '=', tenantId).execute();

  it('set_api_key stores every catalogue model of the factory with the key encrypted', async () => {
    const res = await post(a, 'set_api_key', {
      llm_factory: 'Mistral',
      api_key: 'mistral-secret-key-9876',
      base_url: 'https://api.mistral.example/v1',
    });
    expect(res.body).toEqual({ code: 0, message: 'success', data: true });
    const rows = await rowsOf(a.id);
    expect(rows.map((r) => r.llm_name).sort()).toEqual([
      'codestral-latest',
      'mistral-embed',
      'mistral-large-latest',
      'mistral-small-latest',
      'pixtral-large-latest',
    ]);
    for (const r of rows) {
      expect(r.api_key).not.toContain('mistral-secret');
      expect(openCredentials(server.ctx.secrets, r.api_key).apiKey).toBe('mistral-secret-key-9876');
      expect(r.api_base).toBe('https://api.mistral.example/v1');
    }
    expect(rows.find((r) => r.llm_name === 'mistral-embed')).toMatchObject({
      model_type: 'embedding',
      max_tokens: 8192,
      used_tokens: 0,
      status: '1',
    });
    // Setting the key again updates the rows in place.
    await post(a, 'set_api_key', { llm_factory: 'Mistral', api_key: 'mistral-other-key-1111' });
    const again = await rowsOf(a.id);
    expect(again).toHaveLength(5);
    expect(openCredentials(server.ctx.secrets, again[0].api_key).apiKey).toBe('mistral-other-key-1111');
  });

  it('my_llms groups the tenant models by factory, with details on request, never the key', async () => {
    const plain = await get<MyLlms>(a, 'my_llms');
    const mistral = (plain.body.data as MyLlms).Mistral;
    expect(mistral.tags).toBe('LLM,TEXT EMBEDDING,IMAGE2TEXT');
    expect(mistral.llm.find((m) => m.name === 'mistral-embed')).toEqual({
      type: 'embedding',
      name: 'mistral-embed',
      used_token: 0,
      status: '1',
    });
    const detailed = await get<MyLlms>(a, 'my_llms?include_details=true');
    expect((detailed.body.data as MyLlms).Mistral.llm.find((m) => m.name === 'mistral-embed')).toEqual({
      type: 'embedding',
      name: 'mistral-embed',
      used_token: 0,
      status: '1',
      api_base: '',
      max_tokens: 8192,
    });
    expect(JSON.stringify(detailed.body)).not.toContain('mistral-other-key');
  });

  it('list returns configured catalogue models, Builtin models and custom ones, filtered by type', async () => {
    const all = (await get<Record<string, LlmListItem[]>>(a, 'list')).body.data as Record<
      string,
      LlmListItem[]
    >;
    expect(Object.keys(all).sort()).toEqual(['Builtin', 'Mistral']);
    expect(all.Mistral.find((m) => m.llm_name === 'mistral-large-latest')).toEqual({
      llm_name: 'mistral-large-latest',
      model_type: 'chat',
      fid: 'Mistral',
      max_tokens: 131072,
      tags: 'LLM,CHAT,128K',
      is_tools: true,
      status: '1',
      available: true,
    });
    expect(all.Builtin.map((m) => m.llm_name)).toContain('BAAI/bge-small-en-v1.5');
    const emb = (await get<Record<string, LlmListItem[]>>(a, 'list?model_type=embed')).body.data as Record<
      string,
      LlmListItem[]
    >;
    expect(emb.Mistral.map((m) => m.llm_name)).toEqual(['mistral-embed']);
    const chat = (await get<Record<string, LlmListItem[]>>(a, 'list?model_type=chat')).body.data as Record<
      string,
      LlmListItem[]
    >;
    expect(chat.Builtin).toBeUndefined();
  });

  it('set_api_key refuses missing fields and unknown or hidden factories', async () => {
    expect((await post(a, 'set_api_key', {})).body).toEqual({
      code: 101,
      message: 'required argument are missing: llm_factory,api_key; ',
    });
    expect((await post(a, 'set_api_key', { llm_factory: 'Nope', api_key: 'k' })).body).toMatchObject({
      code: 102,
      message: 'LLM factory Nope is not allowed',
    });
    expect((await post(a, 'set_api_key', { llm_factory: 'Builtin', api_key: 'k' })).body).toMatchObject({
      code: 102,
      message: 'LLM factory Builtin is not allowed',
    });
    expect((await post(a, 'set_api_key', { llm_factory: 'OpenAI', api_key: 5 })).body).toMatchObject({
      code: 100,
      message: '`api_key` must be a string.',
    });
    expect(
      (await post(a, 'set_api_key', { llm_factory: 'OpenAI', api_key: 'k', base_url: 'not a url' })).body,
    ).toMatchObject({ code: 100, message: '`base_url` must be an http(s) URL.' });
    expect((await post(a, 'set_api_key', { llm_factory: 'Bedrock', api_key: 'k' })).body).toMatchObject({
      code: 101,
      message: 'required argument are missing: bedrock_ak,bedrock_sk,bedrock_region; ',
    });
  });

  it('add_llm adds a local model without a key, suffixing generic self-hosted names', async () => {
    const ollama = await post(a, 'add_llm', {
      llm_factory: 'Ollama',
      llm_name: 'llama3.2',
      model_type: 'chat',
      api_base: 'http://127.0.0.1:11434',
      max_tokens: 4096,
    });
    expect(ollama.body).toEqual({ code: 0, message: 'success', data: true });
    const vllm = await post(a, 'add_llm', {
      llm_factory: 'VLLM',
      llm_name: 'qwen2.5-7b',
      model_type: 'chat',
      api_base: 'http://127.0.0.1:8000/v1',
    });
    expect(vllm.body.code).toBe(0);
    const rows = await rowsOf(a.id);
    const o = rows.find((r) => r.llm_factory === 'Ollama');
    expect(o).toMatchObject({
      llm_name: 'llama3.2',
      model_type: 'chat',
      api_base: 'http://127.0.0.1:11434',
      max_tokens: 4096,
    });
    expect(openCredentials(server.ctx.secrets, o!.api_key).apiKey).toBe('x');
    expect(rows.find((r) => r.llm_factory === 'VLLM')?.llm_name).toBe('qwen2.5-7b___VLLM');
    const list = (await get<Record<string, LlmListItem[]>>(a, 'list?model_type=chat')).body.data as Record<
      string,
      LlmListItem[]
    >;
    expect(list.VLLM).toEqual([
      {
        llm_name: 'qwen2.5-7b___VLLM',
        model_type: 'chat',
        fid: 'VLLM',
        max_tokens: 8192,
        tags: '',
        is_tools: false,
        status: '1',
        available: true,
      },
    ]);
  });

  it('add_llm requires name, type, base url and the provider credentials, with clear messages', async () => {
    expect((await post(a, 'add_llm', {})).body).toEqual({
      code: 101,
      message: 'required argument are missing: llm_factory; ',
    });
    expect((await post(a, 'add_llm', { llm_factory: 'Ollama' })).body).toMatchObject({
      code: 101,
      message: 'required argument are missing: model_type,llm_name,api_base; ',
    });
    expect(
      (await post(a, 'add_llm', { llm_factory: 'Ollama', llm_name: 'm', model_type: 'chat', api_base: '' }))
        .body,
    ).toMatchObject({ code: 101, message: 'required argument are missing: api_base; ' });
    expect(
      (await post(a, 'add_llm', { llm_factory: 'OpenAI', llm_name: 'gpt-x', model_type: 'chat' })).body,
    ).toMatchObject({ code: 101, message: 'required argument are missing: api_key; ' });
    expect(
      (
        await post(a, 'add_llm', {
          llm_factory: 'Ollama',
          llm_name: 'm',
          model_type: 'banana',
          api_base: 'http://h',
        })
      ).body,
    ).toMatchObject({ code: 101, message: 'required argument values: model_type=banana' });
    expect(
      (
        await post(a, 'add_llm', {
          llm_factory: 'Anthropic',
          llm_name: 'c',
          model_type: 'embedding',
          api_key: 'k',
        })
      ).body,
    ).toMatchObject({ code: 102, message: 'LLM factory Anthropic does not support embedding models.' });
    expect(
      (
        await post(a, 'add_llm', {
          llm_factory: 'Ollama',
          llm_name: 'm',
          model_type: 'chat',
          api_base: 'ftp://h',
        })
      ).body,
    ).toMatchObject({ code: 100, message: '`api_base` must be an http(s) URL.' });
    expect(
      (
        await post(a, 'add_llm', {
          llm_factory: 'Ollama',
          llm_name: 'm',
          model_type: 'chat',
          api_base: 'http://h',
          max_tokens: -3,
        })
      ).body,
    ).toMatchObject({ code: 100, message: '`max_tokens` must be greater than 0.' });
    expect(
      (
        await post(a, 'add_llm', {
          llm_factory: 'Bedrock',
          llm_name: 'anthropic.claude-v2',
          model_type: 'chat',
          bedrock_ak: 'AK',
        })
      ).body,
    ).toMatchObject({ code: 101, message: 'required argument are missing: bedrock_sk,bedrock_region; ' });
    expect(
      (
        await post(a, 'add_llm', {
          llm_factory: 'Bedrock',
          llm_name: 'x',
          model_type: 'chat',
          bedrock_ak: 'AK',
          bedrock_sk: 'SK',
          bedrock_region: 'mars-1',
        })
      ).body,
    ).toMatchObject({ code: 101, message: 'required argument values: bedrock_region=mars-1' });
    expect(
      (
        await post(a, 'add_llm', {
          llm_factory: 'VolcEngine',
          llm_name: 'doubao',
          model_type: 'chat',
          ark_api_key: 'ark',
        })
      ).body,
    ).toMatchObject({ code: 101, message: 'required argument are missing: endpoint_id; ' });
    expect(
      (
        await post(a, 'add_llm', {
          llm_factory: 'Google Cloud',
          llm_name: 'gemini-2.5-flash',
          model_type: 'chat',
          google_project_id: 'p',
          google_region: 'us-central1',
          google_service_account_key: 'not-base64-json',
        })
      ).body,
    ).toMatchObject({
      code: 100,
      message: '`google_service_account_key` must be a base64-encoded service account JSON key.',
    });
    expect(
      (await post(a, 'add_llm', { llm_factory: 'Nope', llm_name: 'm', model_type: 'chat' })).body,
    ).toMatchObject({ code: 102, message: 'LLM factory Nope is not allowed' });
  });

  it('add_llm packs provider credentials as encrypted JSON', async () => {
    const res = await post(a, 'add_llm', {
      llm_factory: 'Bedrock',
      llm_name: 'amazon.nova-pro-v1:0',
      model_type: 'chat',
      bedrock_ak: 'AKIA123',
      bedrock_sk: 'secret/abc',
      bedrock_region: 'eu-central-1',
    });
    expect(res.body.code).toBe(0);
    const row = (await rowsOf(a.id)).find((r) => r.llm_factory === 'Bedrock')!;
    expect(row.api_key).not.toContain('AKIA123');
    expect(openCredentials(server.ctx.secrets, row.api_key).credentials).toEqual({
      bedrock_ak: 'AKIA123',
      bedrock_sk: 'secret/abc',
      bedrock_region: 'eu-central-1',
    });
    expect(row.max_tokens).toBe(300000); // the catalogue's
  });

  it("keeps tenants apart: B neither sees nor deletes A's models", async () => {
    expect((await get<MyLlms>(b, 'my_llms')).body.data).toEqual({});
    const listB = (await get<Record<string, LlmListItem[]>>(b, 'list')).body.data as Record<
      string,
      LlmListItem[]
    >;
    expect(Object.keys(listB)).toEqual(['Builtin']);
    expect((await post(b, 'delete_llm', { llm_factory: 'Ollama', llm_name: 'llama3.2' })).body.data).toBe(
      true,
    );
    expect((await post(b, 'delete_factory', { llm_factory: 'Mistral' })).body.data).toBe(true);
    expect(
      (await post(b, 'enable_llm', { llm_factory: 'Ollama', llm_name: 'llama3.2', status: '0' })).body.data,
    ).toBe(true);
    const rowsA = await rowsOf(a.id);
    expect(rowsA.find((r) => r.llm_name === 'llama3.2')?.status).toBe('1');
    expect(rowsA.filter((r) => r.llm_factory === 'Mistral')).toHaveLength(5);
  });

  it('enable_llm switches a model off and on; delete_llm and delete_factory remove rows', async () => {
    expect(
      (await post(a, 'enable_llm', { llm_factory: 'Ollama', llm_name: 'llama3.2', status: '0' })).body.data,
    ).toBe(true);
    const list = (await get<Record<string, LlmListItem[]>>(a, 'list?model_type=chat')).body.data as Record<
      string,
      LlmListItem[]
    >;
    expect(list.Ollama[0]).toMatchObject({ status: '0', available: false });
    expect(
      (await post(a, 'enable_llm', { llm_factory: 'Ollama', llm_name: 'llama3.2', status: '2' })).body,
    ).toMatchObject({ code: 101, message: 'required argument values: status=2' });
    expect((await post(a, 'enable_llm', { llm_factory: 'Ollama', llm_name: 'llama3.2' })).body.data).toBe(
      true,
    );
    expect((await rowsOf(a.id)).find((r) => r.llm_name === 'llama3.2')?.status).toBe('1');

    expect((await post(a, 'delete_llm', { llm_factory: 'Ollama' })).body).toEqual({
      code: 101,
      message: 'required argument are missing: llm_name; ',
    });
    expect((await post(a, 'delete_llm', { llm_factory: 'Ollama', llm_name: 'llama3.2' })).body).toEqual({
      code: 0,
      message: 'success',
      data: true,
    });
    expect((await rowsOf(a.id)).some((r) => r.llm_factory === 'Ollama')).toBe(false);
    expect((await post(a, 'delete_factory', {})).body).toEqual({
      code: 101,
      message: 'required argument are missing: llm_factory; ',
    });
    expect((await post(a, 'delete_factory', { llm_factory: 'Mistral' })).body.data).toBe(true);
    expect((await rowsOf(a.id)).some((r) => r.llm_factory === 'Mistral')).toBe(false);
    const my = (await get<MyLlms>(a, 'my_llms')).body.data as MyLlms;
    expect(Object.keys(my).sort()).toEqual(['Bedrock', 'VLLM']);
  });
});
