import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLOUD_REGIONS, type FactoryInfo } from '@lectern/shared';
import { call, newUser, startTestServer, type TestServer, type TestUser } from '../../../test/harness.js';
import { seedCatalogue } from '../../models/seed.js';
import { catalogueFactories } from '../../models/catalogue.js';

/** /v1/llm's catalogue side: the factories offered with their credential forms, the seeded tables, login. */
describe('/v1/llm catalogue', () => {
  let server: TestServer;
  let a: TestUser;
  beforeAll(async () => {
    server = await startTestServer();
    a = await newUser(server, 'llmcat');
  });
  afterAll(async () => server.close());

  const get = <T>(u: TestUser, route: string) => call<T>(server, `/v1/llm/${route}`, { token: u.token });

  it('lists ≥30 factories from the catalogue with their credential forms, Builtin hidden', async () => {
    const res = await get<FactoryInfo[]>(a, 'factories');
    expect(res.body.code).toBe(0);
    const list = res.body.data as FactoryInfo[];
    expect(list.length).toBeGreaterThanOrEqual(30);
    const names = list.map((f) => f.name);
    for (const n of [
      'OpenAI',
      'Azure-OpenAI',
      'Anthropic',
      'Gemini',
      'Google Cloud',
      'Bedrock',
      'Ollama',
      'Xinference',
      'LocalAI',
      'LM-Studio',
      'VLLM',
      'OpenAI-API-Compatible',
      'HuggingFace',
      'DeepSeek',
      'Tongyi-Qianwen',
      'ZHIPU-AI',
      'Moonshot',
      'Mistral',
      'Groq',
      'OpenRouter',
      'SILICONFLOW',
      'xAI',
      'Cohere',
      'Jina',
      'Voyage AI',
      'VolcEngine',
      'Tencent Hunyuan',
      'XunFei Spark',
      'Baidu Qianfan',
      'MiniMax',
    ]) {
      expect(names).toContain(n);
    }
    expect(names).not.toContain('Builtin');
    const byName = Object.fromEntries(list.map((f) => [f.name, f]));
    expect(byName.OpenAI).toMatchObject({ logo: '', rank: 999, status: '1', local: false });
    expect(byName.OpenAI.model_types).toEqual(['chat', 'embedding', 'image2text', 'speech2text', 'tts']);
    expect(byName.Bedrock.credential_fields.find((c) => c.name === 'bedrock_region')?.options).toEqual([
      ...CLOUD_REGIONS,
    ]);
    expect(
      byName['Google Cloud'].credential_fields.find((c) => c.name === 'google_service_account_key'),
    ).toMatchObject({ encoding: 'base64', secret: true, required: true });
    expect(byName.VolcEngine.credential_fields.map((c) => c.name)).toEqual(['ark_api_key', 'endpoint_id']);
    expect(byName['XunFei Spark'].credential_fields.map((c) => c.name)).toContain('spark_app_id');
    expect(byName.Ollama).toMatchObject({ local: true, base_url_required: true });
    // Seeded tables mirror the file.
    const llmRows = await server.ctx.db.kysely
      .selectFrom('llm')
      .selectAll()
      .where('fid', '=', 'OpenAI')
      .execute();
    expect(llmRows.map((r) => r.llm_name)).toContain('text-embedding-3-small');
  });

  it('seeds the catalogue tables idempotently from the data file', async () => {
    const db = server.ctx.db.kysely;
    const expected = catalogueFactories().reduce((n, f) => n + f.llm.length, 0);
    expect((await db.selectFrom('llm').selectAll().execute()).length).toBe(expected);
    // Drift in the tables is repaired by the next seed; rows the file does not list are removed.
    await db
      .updateTable('llm')
      .set({ max_tokens: 1 })
      .where('fid', '=', 'OpenAI')
      .where('llm_name', '=', 'o3')
      .execute();
    await db
      .insertInto('llm')
      .values({
        llm_name: 'ghost',
        model_type: 'chat',
        fid: 'OpenAI',
        max_tokens: 1,
        tags: '',
        is_tools: 0,
        status: '1',
        create_time: 0,
        create_date: '',
        update_time: 0,
        update_date: '',
      })
      .execute();
    await db.deleteFrom('kv').where('key', '=', 'llm_catalogue_digest').execute();
    await seedCatalogue(server.ctx);
    await seedCatalogue(server.ctx); // unchanged file: skipped
    const rows = await db.selectFrom('llm').selectAll().execute();
    expect(rows.length).toBe(expected);
    expect(rows.find((r) => r.llm_name === 'o3')?.max_tokens).toBe(200000);
    expect((await db.selectFrom('llm_factories').selectAll().execute()).length).toBe(
      catalogueFactories().length,
    );
  });

  it('requires a login', async () => {
    for (const r of ['factories', 'list', 'my_llms'])
      expect((await call(server, `/v1/llm/${r}`)).status).toBe(401);
    expect(
      (await call(server, '/v1/llm/set_api_key', { body: { llm_factory: 'OpenAI', api_key: 'k' } })).status,
    ).toBe(401);
  });
});
