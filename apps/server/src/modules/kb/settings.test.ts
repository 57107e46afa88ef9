import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type TestServer, type TestUser } from '../../../test/harness.js';
import { startOpenAIStandin, type Standin } from '../../../test/standins/index.js';
import { startTaskWorkers } from '../../root.js';
import type { WorkerHost } from '../../queue/worker-host.js';
import { newId } from '../../util/ids.js';
import { creationStamps } from '../../util/time.js';
import { addChunk, addModel, emptyDoc, startChunkFixture, type ChunkFixture } from '../chunk/test-support.js';
import { createKb, runDocs, uploadDocs, waitSettled } from './test-support.js';

type Kb = Record<string, unknown>;

/** kb/update as given, kb/rm of unknown ids, and the KB settings routes (API.md §5). */
describe('KB contract fidelity and settings routes', () => {
  let fixture: ChunkFixture;
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let other: Standin;
  let host: WorkerHost;
  beforeAll(async () => {
    fixture = await startChunkFixture();
    ({ server, alice, bob } = fixture);
    host = await startTaskWorkers(server.ctx, { pollMs: 100, tickMs: 200 });
    other = await startOpenAIStandin({ embeddingDim: 8 });
  });
  afterAll(async () => {
    await host.stop();
    await other.close();
    await fixture.close();
  });

  const update = (token: string, body: Record<string, unknown>) =>
    call<Kb>(server, '/v1/kb/update', { token, body });

  it('stores a partial parser_config as given and still parses with the method defaults', async () => {
    const kbId = await createKb(server, alice.token, { name: 'Partial' });
    const partial = { auto_keywords: 0, delimiter: '\n' };
    const res = await update(alice.token, {
      kb_id: kbId,
      name: 'Partial',
      description: '',
      parser_id: 'naive',
      parser_config: partial,
    });
    expect(res.body.code, res.body.message).toBe(0);
    expect(res.body.data!.parser_config).toEqual(partial);
    const detail = await call<Kb>(server, `/v1/kb/detail?kb_id=${kbId}`, { token: alice.token });
    expect(detail.body.data!.parser_config).toEqual(partial);
    // Out-of-bounds values are still refused, with the defaults around them.
    const bad = await update(alice.token, {
      kb_id: kbId,
      name: 'Partial',
      description: '',
      parser_id: 'naive',
      parser_config: { chunk_token_num: 5000 },
    });
    expect(bad.body).toMatchObject({ code: 100, message: '`chunk_token_num` must be between 1 and 2048.' });
    const [doc] = await uploadDocs(server, alice.token, kbId, [
      { name: 'a.txt', data: 'First line about solar panels.\nSecond line about wind turbines.' },
    ]);
    expect(doc.parser_config).toEqual(partial);
    expect((await runDocs(server, alice.token, [doc.id])).body.code).toBe(0);
    const settled = await waitSettled(server, alice.token, kbId);
    expect(settled.get(doc.id)).toMatchObject({ run: '3' });
    expect(settled.get(doc.id)!.chunk_num).toBeGreaterThan(0);
  });

  it('kb/rm of an unknown id answers 109 "No authorization."', async () => {
    const res = await call(server, '/v1/kb/rm', { token: alice.token, body: { kb_id: newId() } });
    expect(res.body).toMatchObject({ code: 109, message: 'No authorization.' });
  });

  it('kb/update_metadata_setting stores metadata and enable_metadata in parser_config', async () => {
    const kbId = await createKb(server, alice.token, { name: 'Meta' });
    const metadata = { type: 'object', properties: { author: { type: 'string' } } };
    const res = await call<Kb>(server, '/v1/kb/update_metadata_setting', {
      token: alice.token,
      body: { kb_id: kbId, metadata },
    });
    expect(res.body.code, res.body.message).toBe(0);
    expect(res.body.data!.parser_config).toMatchObject({
      metadata,
      enable_metadata: true,
      chunk_token_num: 512,
    });
    const off = await call<Kb>(server, '/v1/kb/update_metadata_setting', {
      token: alice.token,
      body: { kb_id: kbId, metadata: {}, enable_metadata: false },
    });
    expect(off.body.data!.parser_config).toMatchObject({ metadata: {}, enable_metadata: false });
    const missing = await call(server, '/v1/kb/update_metadata_setting', { token: alice.token, body: {} });
    expect(missing.body).toMatchObject({
      code: 101,
      message: 'required argument are missing: kb_id,metadata; ',
    });
    const foreign = await call(server, '/v1/kb/update_metadata_setting', {
      token: bob.token,
      body: { kb_id: kbId, metadata: {} },
    });
    expect(foreign.body).toMatchObject({ code: 109, message: 'No authorization.' });
  });

  it('kb/check_embedding passes for the same vector space and answers 10 for another', async () => {
    const { kbId, embdId } = fixture;
    const docId = await emptyDoc(server, alice.token, kbId, 'check.txt');
    for (const t of ['Solar panels convert light.', 'Wind turbines spin.', 'Batteries store energy.'])
      await addChunk(server, alice.token, docId, t);
    const same = await call<{ summary: Record<string, number>; results: unknown[] }>(
      server,
      '/v1/kb/check_embedding',
      { token: alice.token, body: { kb_id: kbId, embd_id: embdId, check_num: 3 } },
    );
    expect(same.body.code, JSON.stringify(same.body.data)).toBe(0);
    expect(same.body.data!.summary.sampled).toBe(3);
    expect(same.body.data!.summary.avg_cos_sim).toBeGreaterThan(0.999);
    const otherId = await addModel(server, alice, {
      llm_factory: 'OpenAI-API-Compatible',
      llm_name: 'small-embedder',
      model_type: 'embedding',
      api_base: `${other.url}/v1`,
    });
    const switched = await call<{ summary: Record<string, number> }>(server, '/v1/kb/check_embedding', {
      token: alice.token,
      body: { kb_id: kbId, embd_id: otherId, check_num: 3 },
    });
    expect(switched.body.code).toBe(10);
    expect(switched.body.message).toMatch(/^Embedding model switch failed: the average similarity/);
    expect(switched.body.data!.summary.avg_cos_sim).toBeLessThan(0.9);
  });

  it('kb/unbind_task cancels the KB job of that kind and clears its task id', async () => {
    // The rows below stand for jobs whose worker is gone (expired leases); a live worker of this
    // process would claim and run them before the route is called, so none runs from here on.
    await host.stop();
    const kbId = await createKb(server, alice.token, { name: 'Jobs' });
    const db = server.ctx.db.kysely;
    const taskRow = (kind: string) => ({
      id: newId(),
      doc_id: '',
      kb_id: kbId,
      tenant_id: alice.id,
      from_page: 0,
      to_page: 0,
      kind,
      payload: JSON.stringify({ kb_id: kbId }),
      priority: 0,
      begin_at: null,
      process_duration: 0,
      progress: 0.2,
      progress_msg: '',
      retry_count: 0,
      digest: '',
      chunk_ids: '',
      cancel: 0,
      // Held by no worker (an expired lease), so it ends at once.
      lease_owner: 'gone',
      lease_until: 1,
      token_num: 0,
      ...creationStamps(),
    });
    const graph = taskRow('graphrag');
    const raptor = taskRow('raptor');
    await db.insertInto('task').values([graph, raptor]).execute();
    await db
      .updateTable('knowledgebase')
      .set({ graphrag_task_id: graph.id })
      .where('id', '=', kbId)
      .execute();
    const del = (q: string, token = alice.token) =>
      call(server, `/v1/kb/unbind_task${q}`, { token, method: 'DELETE' });
    expect((await del('')).body).toMatchObject({ code: 102, message: 'Lack of "KB ID"' });
    expect((await del(`?kb_id=${kbId}&pipeline_task_type=other`)).body).toMatchObject({
      code: 102,
      message: 'Invalid task type',
    });
    expect((await del(`?kb_id=${kbId}&pipeline_task_type=graphrag`, bob.token)).body.code).toBe(109);
    expect((await del(`?kb_id=${kbId}&pipeline_task_type=graphrag`)).body).toEqual({
      code: 0,
      message: 'success',
      data: true,
    });
    const rows = await db.selectFrom('task').selectAll().where('kb_id', '=', kbId).execute();
    const byKind = new Map(rows.map((r) => [r.kind, r]));
    expect(byKind.get('graphrag')).toMatchObject({ cancel: 1, progress: -1 });
    expect(byKind.get('graphrag')!.progress_msg).toMatch(/\[Canceled\]$/);
    expect(byKind.get('raptor')).toMatchObject({ cancel: 0, progress: 0.2 });
    const kb = await db
      .selectFrom('knowledgebase')
      .selectAll()
      .where('id', '=', kbId)
      .executeTakeFirstOrThrow();
    expect(kb.graphrag_task_id).toBeNull();
  });
});
