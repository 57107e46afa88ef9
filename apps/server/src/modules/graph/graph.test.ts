/**
 * The knowledge jobs through their routes (API.md §5, §7, §19.10–§19.11) with a deterministic stand-in
 * chat model that answers GraphRAG's record format (test/standins/graphrag.ts) and stand-in embeddings.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTaskWorkers } from '../../root.js';
import type { WorkerHost } from '../../queue/worker-host.js';
import { call, newUser, startTestServer, type TestServer, type TestUser } from '../../../test/harness.js';
import { graphRagReply, startOpenAIStandin, type Standin } from '../../../test/standins/index.js';
import { createKb } from '../kb/test-support.js';
import { addChunk, addModel, emptyDoc, get, post } from '../chunk/test-support.js';

interface Trace {
  id?: string;
  progress?: number;
  progress_msg?: string;
  token_num?: number;
}
interface GraphData {
  graph: { nodes?: Array<{ id: string; source_id: string[]; doc_ids?: string[] }>; edges?: unknown[] };
  mind_map: { id?: string; children?: unknown[] };
}

async function waitTask(server: TestServer, token: string, kind: string, kbId: string): Promise<Trace> {
  let t: Trace = {};
  for (let i = 0; i < 400; i++) {
    t = (await get<Trace>(server, token, `/v1/kb/trace_${kind}?kb_id=${kbId}`)).data!;
    if (t.progress !== undefined && (t.progress >= 1 || t.progress < 0)) return t;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${kind} task did not finish: ${JSON.stringify(t)}`);
}

describe('knowledge graph, RAPTOR and mind map jobs', () => {
  let server: TestServer;
  let llm: Standin;
  let alice: TestUser;
  let bob: TestUser;
  let kbId: string;
  let docA: string;
  let docB: string;
  let host: WorkerHost;

  beforeAll(async () => {
    llm = await startOpenAIStandin({ embeddingDim: 32, reply: graphRagReply });
    server = await startTestServer({ MODEL_MAX_RETRIES: '0' });
    host = await startTaskWorkers(server.ctx, { pollMs: 50, tickMs: 200, leaseMs: 3_000 });
    alice = await newUser(server, 'alice');
    bob = await newUser(server, 'bob');
    const api = `${llm.url}/v1`;
    const chatId = await addModel(server, alice, {
      llm_factory: 'OpenAI-API-Compatible',
      llm_name: 'chatter',
      model_type: 'chat',
      api_base: api,
    });
    const embdId = await addModel(server, alice, {
      llm_factory: 'OpenAI-API-Compatible',
      llm_name: 'embedder',
      model_type: 'embedding',
      api_base: api,
    });
    kbId = await createKb(server, alice.token, {
      name: 'History',
      embd_id: embdId,
      parser_config: {
        llm_id: chatId,
        graphrag: {
          use_graphrag: true,
          entity_types: ['person', 'organization'],
          method: 'light',
          community: true,
        },
        raptor: { use_raptor: true, max_cluster: 4, random_seed: 7 },
      },
    });
    docA = await emptyDoc(server, alice.token, kbId, 'engine.txt');
    for (const text of [
      'Ada Lovelace worked with Charles Babbage on the Analytical Engine.',
      'Charles Babbage designed the Difference Engine for Cambridge University.',
      'Ada Lovelace wrote the first program for the Analytical Engine.',
    ])
      await addChunk(server, alice.token, docA, text);
  }, 60_000);

  afterAll(async () => {
    await host?.stop();
    await server?.close();
    await llm?.close();
  });

  it('refuses jobs without a KB id, on unknown KBs and on KBs the caller cannot manage', async () => {
    expect(await post(server, alice.token, '/v1/kb/run_graphrag', {})).toMatchObject({
      code: 102,
      message: 'Lack of "KB ID"',
    });
    expect(await post(server, alice.token, '/v1/kb/run_graphrag', { kb_id: 'nope' })).toMatchObject({
      code: 102,
      message: 'Invalid Knowledgebase ID',
    });
    expect(await post(server, bob.token, '/v1/kb/run_raptor', { kb_id: kbId })).toMatchObject({ code: 109 });
    expect(await get(server, bob.token, `/v1/kb/${kbId}/knowledge_graph`)).toMatchObject({ code: 109 });
    expect((await get(server, alice.token, `/v1/kb/trace_graphrag?kb_id=${kbId}`)).data).toEqual({});
    expect((await get(server, alice.token, `/v1/kb/${kbId}/knowledge_graph`)).data).toEqual({
      graph: {},
      mind_map: {},
    });
  });

  it('builds the graph once when started twice, with progress, token usage and a graph view', async () => {
    const first = await post<{ graphrag_task_id: string }>(server, alice.token, '/v1/kb/run_graphrag', {
      kb_id: kbId,
    });
    expect(first.code).toBe(0);
    const again = await post(server, alice.token, '/v1/kb/run_graphrag', { kb_id: kbId });
    expect(again.code).toBe(102);
    expect(again.message).toMatch(
      new RegExp(
        `^Task ${first.data!.graphrag_task_id} in progress with status .*A Graph Task is already running\\.$`,
      ),
    );
    const t = await waitTask(server, alice.token, 'graphrag', kbId);
    expect(t.progress_msg).toContain('Task done');
    expect(t.progress, t.progress_msg).toBe(1);
    expect(t.id).toBe(first.data!.graphrag_task_id);
    expect(t.progress_msg).toMatch(/Token usage: \d+ prompt/);
    expect(t.token_num).toBeGreaterThan(0);
    const kb = (await get<Record<string, unknown>>(server, alice.token, `/v1/kb/detail?kb_id=${kbId}`)).data!;
    expect(kb.graphrag_task_finish_at).toEqual(expect.any(String));

    const g = (await get<GraphData>(server, alice.token, `/v1/kb/${kbId}/knowledge_graph`)).data!;
    const ids = g.graph.nodes!.map((n) => n.id).sort();
    expect(ids).toEqual([
      'ADA LOVELACE',
      'ANALYTICAL ENGINE',
      'CAMBRIDGE UNIVERSITY',
      'CHARLES BABBAGE',
      'DIFFERENCE ENGINE',
    ]);
    expect(g.graph.edges!.length).toBeGreaterThan(0);
    const whole = (await get<GraphData>(server, alice.token, `/v1/kb/${kbId}/knowledge_graph?full=1`)).data!;
    expect(whole.graph.nodes!.map((n) => n.id).sort()).toEqual(ids);
    expect(whole.graph.edges!.length).toBe(g.graph.edges!.length);
    expect(await get(server, alice.token, `/v1/kb/${kbId}/knowledge_graph?full=all`)).toMatchObject({
      code: 101,
    });
    const doc = (await get<GraphData>(server, alice.token, `/v1/chunk/knowledge_graph?doc_id=${docA}`)).data!;
    expect(doc.graph.nodes!.length).toBe(5);
    // Entities and relations are in the chunk index, embedded, and stay out of ordinary listings.
    const records = await server.ctx.chunkIndex.list(
      { kbIds: [kbId], graphKinds: ['entity', 'relation', 'community_report'] },
      'newest',
      0,
      100,
    );
    const entities = records.chunks.filter((c) => c.knowledge_graph_kwd === 'entity');
    expect(entities.length).toBe(5);
    expect(records.chunks.some((c) => c.knowledge_graph_kwd === 'community_report')).toBe(true);
    const full = await server.ctx.chunkIndex.getMany(entities.map((e) => e.id));
    expect(full.every((c) => c.vector && c.vector.length === 32)).toBe(true);
    const listed = await post<{ total: number }>(server, alice.token, '/v1/chunk/list', { doc_id: docA });
    expect(listed.data!.total).toBe(3);
  });

  it('extracts only an added document, and removing it takes only what it contributed', async () => {
    docB = await emptyDoc(server, alice.token, kbId, 'letters.txt');
    await addChunk(
      server,
      alice.token,
      docB,
      'Ada Lovelace corresponded with Mary Somerville about Babbage Labs.',
    );
    const before = llm.requests.length;
    expect((await post(server, alice.token, '/v1/kb/run_graphrag', { kb_id: kbId })).code).toBe(0);
    const t = await waitTask(server, alice.token, 'graphrag', kbId);
    expect(t.progress, t.progress_msg).toBe(1);
    expect(t.progress_msg).toContain('1 documents to extract, 1 already in the graph');
    const extractionCalls = llm.requests
      .slice(before)
      .filter((r) => r.path.endsWith('/chat/completions') && JSON.stringify(r.body).includes('-Real Data-'));
    expect(extractionCalls, t.progress_msg).toHaveLength(1);
    let g = (await get<GraphData>(server, alice.token, `/v1/kb/${kbId}/knowledge_graph`)).data!;
    const ada = g.graph.nodes!.find((n) => n.id === 'ADA LOVELACE')!;
    expect(ada.doc_ids!.sort()).toEqual([docA, docB].sort());
    expect(g.graph.nodes!.map((n) => n.id)).toContain('MARY SOMERVILLE');

    expect(
      (await call(server, '/v1/document/rm', { token: alice.token, body: { doc_id: docB } })).body,
    ).toMatchObject({
      code: 0,
    });
    g = (await get<GraphData>(server, alice.token, `/v1/kb/${kbId}/knowledge_graph`)).data!;
    const names = g.graph.nodes!.map((n) => n.id);
    expect(names).not.toContain('MARY SOMERVILLE');
    expect(names).not.toContain('BABBAGE LABS');
    expect(g.graph.nodes!.find((n) => n.id === 'ADA LOVELACE')!.doc_ids).toEqual([docA]);
  });

  it('answers use_kg retrieval with the knowledge-graph chunk first', async () => {
    const res = await post<{ chunks: Array<{ docnm_kwd: string; content_with_weight: string }> }>(
      server,
      alice.token,
      '/v1/chunk/retrieval_test',
      { kb_id: kbId, question: 'Who worked with Charles Babbage?', use_kg: true, similarity_threshold: 0 },
    );
    expect(res.code, res.message).toBe(0);
    expect(res.data!.chunks[0].docnm_kwd).toBe('Related content in Knowledge Graph');
    expect(res.data!.chunks[0].content_with_weight).toContain('CHARLES BABBAGE');
    const plain = await post<{ chunks: Array<{ docnm_kwd: string }> }>(
      server,
      alice.token,
      '/v1/chunk/retrieval_test',
      {
        kb_id: kbId,
        question: 'Who worked with Charles Babbage?',
      },
    );
    expect(plain.data!.chunks.every((c) => c.docnm_kwd !== 'Related content in Knowledge Graph')).toBe(true);
  });

  it('builds RAPTOR summaries that are retrieved as chunks citing their sources', async () => {
    expect((await post(server, alice.token, '/v1/kb/run_raptor', { kb_id: kbId })).code).toBe(0);
    const t = await waitTask(server, alice.token, 'raptor', kbId);
    expect(t.progress, t.progress_msg).toBe(1);
    expect(t.progress_msg).toMatch(/Summary tree: 3 -> 1 \(1 summaries/);
    const listed = await server.ctx.chunkIndex.list({ kbIds: [kbId], docIds: [docA] }, 'newest', 0, 50);
    const summaries = listed.chunks.filter((c) => c.extra?.raptor_kwd === 'raptor');
    expect(summaries.length).toBeGreaterThan(0);
    expect(summaries[0].content_with_weight).toMatch(/^Summary: /);
    expect((summaries[0].extra!.source_chunk_ids as string[]).length).toBeGreaterThan(1);
  });

  it('builds the mind map of the KB and of each document', async () => {
    expect((await post(server, alice.token, '/v1/kb/run_mindmap', { kb_id: kbId })).code).toBe(0);
    const t = await waitTask(server, alice.token, 'mindmap', kbId);
    expect(t.progress, t.progress_msg).toBe(1);
    const kb = (await get<GraphData>(server, alice.token, `/v1/kb/${kbId}/knowledge_graph`)).data!;
    expect(kb.mind_map.children!.length).toBeGreaterThan(0);
    const doc = (await get<GraphData>(server, alice.token, `/v1/chunk/knowledge_graph?doc_id=${docA}`)).data!;
    expect(doc.mind_map.id).toEqual(expect.any(String));
    expect(doc.mind_map.children!.length).toBeGreaterThan(0);
  });

  it('ends a job whose model fails with a clear message and keeps the stored graph', async () => {
    const docC = await emptyDoc(server, alice.token, kbId, 'more.txt');
    await addChunk(server, alice.token, docC, 'Grace Hopper worked on the Harvard Mark.');
    llm.fail('401', 1);
    expect((await post(server, alice.token, '/v1/kb/run_graphrag', { kb_id: kbId })).code).toBe(0);
    const t = await waitTask(server, alice.token, 'graphrag', kbId);
    expect(t.progress, t.progress_msg).toBe(-1);
    expect(t.progress_msg).toMatch(/\[ERROR\]/);
    expect(t.progress_msg).toMatch(/extract|model/i);
    const g = (await get<GraphData>(server, alice.token, `/v1/kb/${kbId}/knowledge_graph`)).data!;
    expect(g.graph.nodes!.map((n) => n.id)).toContain('ADA LOVELACE');
  });

  /**
   * Waits until the job has started and its (hanging) model request has reached the stand-in: a job
   * stopped before that leaves the scripted hang queued for the next test's first model call.
   */
  async function waitStarted(taskKind: string, modelCallsBefore: number): Promise<string> {
    for (let i = 0; i < 400; i++) {
      const t = (await get<Trace>(server, alice.token, `/v1/kb/trace_${taskKind}?kb_id=${kbId}`)).data!;
      if (t.id && (t.progress ?? 0) > 0 && llm.modelCalls().length > modelCallsBefore) return t.id;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error('the task never reached its model call');
  }

  it('stops a job through the queue cancel flag, keeping the stored graph', async () => {
    llm.fail('hang', 1);
    const calls = llm.modelCalls().length;
    expect((await post(server, alice.token, '/v1/kb/run_graphrag', { kb_id: kbId })).code).toBe(0);
    const taskId = await waitStarted('graphrag', calls);
    // What `kb/unbind_task` does: the queue's generic cancel flag.
    await server.ctx.db.kysely.updateTable('task').set({ cancel: 1 }).where('id', '=', taskId).execute();
    const t = await waitTask(server, alice.token, 'graphrag', kbId);
    expect(t.progress, t.progress_msg).toBe(-1);
    expect(t.progress_msg).toMatch(/\[Canceled\]$/);
    const g = (await get<GraphData>(server, alice.token, `/v1/kb/${kbId}/knowledge_graph`)).data!;
    expect(g.graph.nodes!.map((n) => n.id)).toContain('ADA LOVELACE');
  });

  it('finishes a job after its worker stops mid-run (restart)', async () => {
    llm.fail('hang', 1);
    const calls = llm.modelCalls().length;
    expect((await post(server, alice.token, '/v1/kb/run_graphrag', { kb_id: kbId })).code).toBe(0);
    await waitStarted('graphrag', calls);
    await host.stop();
    host = await startTaskWorkers(server.ctx, { pollMs: 50, tickMs: 200, leaseMs: 3_000 });
    const t = await waitTask(server, alice.token, 'graphrag', kbId);
    expect(t.progress, t.progress_msg).toBe(1);
    const g = (await get<GraphData>(server, alice.token, `/v1/kb/${kbId}/knowledge_graph`)).data!;
    expect(g.graph.nodes!.map((n) => n.id)).toContain('GRACE HOPPER');
  });

  it('deletes the graph and its index records', async () => {
    expect(
      (await call(server, `/v1/kb/${kbId}/knowledge_graph`, { token: alice.token, method: 'DELETE' })).body,
    ).toMatchObject({
      code: 0,
      data: true,
    });
    const g = (await get<GraphData>(server, alice.token, `/v1/kb/${kbId}/knowledge_graph`)).data!;
    expect(g.graph).toEqual({});
    const left = await server.ctx.chunkIndex.list(
      { kbIds: [kbId], graphKinds: ['entity', 'relation', 'community_report'] },
      'newest',
      0,
      10,
    );
    expect(left.total).toBe(0);
  });
});
