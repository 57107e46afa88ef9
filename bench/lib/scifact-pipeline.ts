/**
 * SciFact through Lectern's REAL ingestion and retrieval: a server on a temp data dir, one
 * knowledge base with chunk method `one`, one uploaded .txt document per abstract (document name =
 * title, content = abstract), parsed by the task queue, then the 300 test queries asked over HTTP
 * with POST /v1/chunk/retrieval_test (keyword-only: no embedding model is configured).
 */
import {
  call,
  newUser,
  startTestServer,
  type TestServer,
  type TestUser,
} from '../../apps/server/test/harness.js';
import { startTaskWorkers } from '../../apps/server/src/root.js';
import { loadSciFact, ndcgAt, recallAt, subset } from './scifact.js';

export interface PipelineRun {
  docs: number;
  queries: number;
  ndcg10: number;
  recall100: number;
  ingestSeconds: number;
  docsPerSecond: number;
  queryMs: number[];
  /** nDCG@10 / Recall@100 per `vector_similarity_weight` the queries were asked with (first = the headline). */
  byWeight: Array<{ weight: number; ndcg10: number; recall100: number }>;
}

/** Titles become file names: no path characters, at most 200 bytes, plus the .txt extension. */
function fileNameOf(title: string): string {
  let name =
    [...title]
      .map((c) => (c.charCodeAt(0) < 0x20 || '\\/:*?"<>|'.includes(c) ? ' ' : c))
      .join('')
      .trim() || 'untitled';
  while (Buffer.byteLength(name) > 200) name = name.slice(0, -1);
  return `${name}.txt`;
}

async function upload(
  server: TestServer,
  user: TestUser,
  kbId: string,
  docs: Array<{ id: string; title: string; text: string }>,
) {
  const form = new FormData();
  form.append('kb_id', kbId);
  for (const d of docs) form.append('file', new Blob([d.text], { type: 'text/plain' }), fileNameOf(d.title));
  const res = await fetch(`${server.url}/v1/document/upload`, {
    method: 'POST',
    headers: { Authorization: user.token },
    body: form,
  });
  const body = (await res.json()) as { code: number; message: string; data: Array<{ id: string }> };
  if (body.code !== 0) throw new Error(`upload failed: ${body.message}`);
  // The answer lists the stored documents in the order of the files.
  return body.data.map((doc, i) => [doc.id, docs[i].id] as const);
}

export async function runSciFactPipeline(
  opts: { limit?: number; weights?: number[] } = {},
): Promise<PipelineRun> {
  const weights = opts.weights && opts.weights.length > 0 ? opts.weights : [0.3];
  const all = loadSciFact();
  const data = opts.limit ? subset(all, opts.limit) : all;
  const server = await startTestServer({
    DEFAULT_EMBD_ID: '',
    WORKER_CONCURRENCY: '4',
    // As deployed: the test harness's contract check (a zod pass over every JSON answer, e.g. each
    // full document list polled below) is test-only and would be measured as ingest time.
    LECTERN_CONTRACT_CHECK: '0',
  });
  const host = await startTaskWorkers(server.ctx, { pollMs: 50, tickMs: 500 });
  try {
    const user = await newUser(server, 'scifact');
    const kb = await call<{ kb_id: string }>(server, '/v1/kb/create', {
      token: user.token,
      body: { name: 'SciFact', parser_id: 'one' },
    });
    const kbId = (kb.body.data as { kb_id: string }).kb_id;
    const corpusIdOf = new Map<string, string>();
    const t0 = performance.now();
    for (let i = 0; i < data.docs.length; i += 32) {
      for (const [docId, corpusId] of await upload(server, user, kbId, data.docs.slice(i, i + 32)))
        corpusIdOf.set(docId, corpusId);
    }
    const ids = [...corpusIdOf.keys()];
    const uploadSeconds = (performance.now() - t0) / 1000;
    console.error(`uploaded ${ids.length} documents in ${uploadSeconds.toFixed(1)} s`);
    for (let i = 0; i < ids.length; i += 500) {
      const run = await call(server, '/v1/document/run', {
        token: user.token,
        body: { doc_ids: ids.slice(i, i + 500), run: '1' },
      });
      if (run.body.code !== 0) throw new Error(`run failed: ${run.body.message}`);
    }
    for (;;) {
      const list = await call<{ docs: Array<{ run: string; progress_msg: string; name: string }> }>(
        server,
        `/v1/document/list?kb_id=${kbId}&page=0&page_size=0`,
        { token: user.token, method: 'POST', body: { run_status: ['0', '1', '4', '5'] } },
      );
      const pending = (list.body.data as { docs: Array<{ run: string; progress_msg: string; name: string }> })
        .docs;
      const failed = pending.filter((d) => d.run === '4');
      if (failed.length > 0)
        throw new Error(
          `${failed.length} documents failed, e.g. ${failed[0].name}: ${failed[0].progress_msg}`,
        );
      if (pending.length === 0) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    const ingestSeconds = (performance.now() - t0) / 1000;
    console.error(`parsed and indexed in ${(ingestSeconds - uploadSeconds).toFixed(1)} s after the uploads`);
    const queryMs: number[] = [];
    const byWeight: PipelineRun['byWeight'] = [];
    for (const weight of weights) {
      let ndcg = 0;
      let recall = 0;
      for (const q of data.queries) {
        const t = performance.now();
        const res = await call<{ chunks: Array<{ doc_id: string }> }>(server, '/v1/chunk/retrieval_test', {
          token: user.token,
          body: {
            kb_id: kbId,
            question: q.text,
            size: 100,
            page: 1,
            similarity_threshold: 0,
            vector_similarity_weight: weight,
          },
        });
        queryMs.push(performance.now() - t);
        if (res.body.code !== 0) throw new Error(`retrieval_test failed: ${res.body.message}`);
        const ranked = (res.body.data as { chunks: Array<{ doc_id: string }> }).chunks.map(
          (c) => corpusIdOf.get(c.doc_id) ?? '',
        );
        const rel = data.qrels.get(q.id)!;
        ndcg += ndcgAt(ranked, rel, 10);
        recall += recallAt(ranked, rel, 100);
      }
      const count = data.queries.length || 1;
      byWeight.push({ weight, ndcg10: ndcg / count, recall100: recall / count });
    }
    return {
      docs: data.docs.length,
      queries: data.queries.length,
      ndcg10: byWeight[0]?.ndcg10 ?? 0,
      recall100: byWeight[0]?.recall100 ?? 0,
      byWeight,
      ingestSeconds,
      docsPerSecond: data.docs.length / ingestSeconds,
      queryMs,
    };
  } finally {
    await host.stop();
    await server.close();
  }
}
