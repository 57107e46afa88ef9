/**
 * Scale-out ingestion (issue 17 Speed: "two API processes + two workers ingest at ≥ 1.7× one of
 * each"). For each N (default 1 then 2) it starts N API processes and N worker processes — the real
 * entry point (`src/main.ts` with LECTERN_ROLE=api|worker), each with a data folder of its own —
 * sharing one PostgreSQL database (created fresh on --pg-url's server, dropped afterwards), one
 * LECTERN_SECRET_KEY and one S3 bucket on an s3rver stand-in (BLOB_STORE=s3; local blobs cannot be
 * shared between processes with separate data folders). The tenant embeds with an OpenAI-compatible
 * stand-in on 127.0.0.1 that answers each /v1/embeddings request after a fixed pause (default 150 ms;
 * Lectern sends batches of 16). The same documents (SciFact abstracts when ../shared/data/scifact is
 * present, synthetic text otherwise) are uploaded round-robin through the API processes, run, and
 * timed until every one has finished. Prints docs/s for each N and the ratio. Figures only — it never
 * asserts a time.
 *
 *   npx tsx bench/scale-out.ts [--docs 200] [--n 1,2] [--latency-ms 150] [--concurrency 5]
 *                              [--batch 20] [--staged] [--pg-url postgres://postgres@127.0.0.1:5432/postgres]
 * Default: each batch is run as soon as it is uploaded (ingestion end to end). --staged uploads every
 * batch first, then runs them all, and also prints docs/s of the parse phase alone.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import S3rver from 's3rver';
import { createTestDatabase } from '../apps/server/src/chunk-index/test-contract-fixtures.js';
import { textPages } from '../apps/server/src/ingest/testing/make-pdf.js';
import { callChild, exited, startChild, type Child } from '../apps/server/test/child-server.js';
import { startEmbeddingStandin } from './lib/embedding-standin.js';
import { loadSciFact, sciFactAvailable } from './lib/scifact.js';
import { machine } from './lib/stats.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: string): string => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : fallback;
};
const DOCS = Number(option('--docs', '200'));
const SIZES = option('--n', '1,2')
  .split(',')
  .map((s) => Number(s.trim()));
const LATENCY_MS = Number(option('--latency-ms', '150'));
const CONCURRENCY = option('--concurrency', '5');
const UPLOAD_BATCH = Number(option('--batch', '20'));
// Staged: every upload first, then every run — the parse phase timed on its own, apart from uploads.
const STAGED = args.includes('--staged');
const PG_URL = option(
  '--pg-url',
  process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
);
const BUCKET = 'lectern-bench';

interface Doc {
  id: string;
  run: string;
  chunk_num: number;
}

/** Everything started by a run, stopped on its end, an error or a signal. */
const live = { children: [] as Child[], cleanups: [] as Array<() => Promise<void>>, dirs: [] as string[] };

let stopping: Promise<void> | undefined;
let interrupted = false;

/** Stops what is live; callers that overlap (a signal during a run's own stop) share one stop. */
function stopAll(): Promise<void> {
  stopping ??= stopLive().finally(() => {
    stopping = undefined;
  });
  return stopping;
}

async function stopLive(): Promise<void> {
  for (const c of live.children)
    if (c.proc.exitCode === null && c.proc.signalCode === null) c.proc.kill('SIGTERM');
  const grace = setTimeout(() => {
    for (const c of live.children) if (c.proc.exitCode === null) c.proc.kill('SIGKILL');
  }, 10_000);
  await Promise.all(live.children.map((c) => exited(c.proc)));
  clearTimeout(grace);
  live.children = [];
  for (const clean of live.cleanups.reverse()) await clean().catch((e: unknown) => console.error(e));
  live.cleanups = [];
  for (const d of live.dirs) fs.rmSync(d, { recursive: true, force: true });
  live.dirs = [];
}

// A bench killed mid-run leaves no server behind: SIGKILL synchronously on exit, full cleanup on signals.
process.on('exit', () => {
  for (const c of live.children) if (c.proc.exitCode === null) c.proc.kill('SIGKILL');
});
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    interrupted = true;
    console.error(`\n${signal}: stopping processes, dropping the database`);
    void stopAll().finally(() => process.exit(130));
  });

function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  live.dirs.push(dir);
  return dir;
}

function corpus(): { source: string; files: Array<{ name: string; data: Buffer }> } {
  if (sciFactAvailable()) {
    const docs = loadSciFact().docs.slice(0, DOCS);
    return {
      source: `SciFact abstracts (first ${docs.length} of the corpus)`,
      files: docs.map((d) => ({
        name: `scifact-${d.id}.txt`,
        data: Buffer.from(`${d.title}\n\n${d.text}\n`),
      })),
    };
  }
  return {
    source: `synthetic text (${DOCS} notes of 12 lines)`,
    files: Array.from({ length: DOCS }, (_, i) => ({
      name: `note-${i}.txt`,
      data: Buffer.from(`Note ${i}\n${textPages(1, 12, `note${i}`)[0].join('\n')}\n`),
    })),
  };
}

interface RunResult {
  n: number;
  uploadSeconds: number;
  totalSeconds: number;
  /** Staged only: from the first run call to every document finished. */
  parseSeconds: number;
  docsPerSecond: number;
  done: number;
  failed: number;
  chunks: number;
  embedRequests: number;
  embedInputs: number;
  /** Most embedding requests the stand-in held at once (over the whole run). */
  embedMaxInFlight: number;
  load: [number, number];
  /** Tasks each worker process ran (by lease owner): shows whether the work was shared. */
  tasksPerWorker: number[];
}

async function tasksPerWorker(databaseUrl: string): Promise<number[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const rows = await client.query<{ n: string }>(
      'SELECT count(*) AS n FROM task WHERE lease_owner IS NOT NULL GROUP BY lease_owner ORDER BY 1 DESC',
    );
    return rows.rows.map((r) => Number(r.n));
  } finally {
    await client.end();
  }
}

async function runScale(n: number, files: Array<{ name: string; data: Buffer }>): Promise<RunResult> {
  const database = await createTestDatabase(PG_URL);
  live.cleanups.push(() => database.drop());
  const s3 = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: tempDir('lectern-bench-s3-'),
    configureBuckets: [{ name: BUCKET, configs: [] }],
  });
  const { port } = await s3.run();
  live.cleanups.push(() => s3.close());
  const embedder = await startEmbeddingStandin(LATENCY_MS);
  live.cleanups.push(() => embedder.close());
  const shared = {
    DATABASE_URL: database.url,
    BLOB_STORE: 's3',
    S3_ENDPOINT: `http://127.0.0.1:${port}`,
    S3_BUCKET: BUCKET,
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    LECTERN_SECRET_KEY: 'scale-out-bench-secret',
    LECTERN_SSRF_ALLOW: '127.0.0.1',
    WORKER_CONCURRENCY: CONCURRENCY,
    DEFAULT_EMBD_ID: '',
    // As deployed: the contract check (zod over every JSON answer) is test-only.
    LECTERN_CONTRACT_CHECK: '0',
  };
  const start = async (role: 'api' | 'worker') => {
    const child = await startChild({
      ...shared,
      LECTERN_ROLE: role,
      LECTERN_DATA_DIR: tempDir('lectern-node-'),
    });
    live.children.push(child);
    return child;
  };
  // The first API process migrates the fresh database; the others start once it is ready.
  const apis = [await start('api')];
  for (let i = 1; i < n; i++) apis.push(await start('api'));
  for (let i = 0; i < n; i++) await start('worker');

  const reg = await callChild(apis[0], '/v1/user/register', {
    nickname: 'bench',
    email: 'bench@example.com',
    password: 'correct-horse-9',
  });
  const token = reg.headers.get('authorization');
  if (!token) throw new Error(`register failed: ${reg.body.message}`);
  const added = await callChild(
    apis[0],
    '/v1/llm/add_llm',
    {
      llm_factory: 'OpenAI-API-Compatible',
      llm_name: 'embedder',
      model_type: 'embedding',
      api_base: `${embedder.url}/v1`,
      api_key: 'k',
    },
    token,
  );
  if (added.body.code !== 0) throw new Error(`add_llm failed: ${added.body.message}`);
  const kb = await callChild(
    apis[0],
    '/v1/kb/create',
    { name: 'Scale-out bench', embd_id: 'embedder@OpenAI-API-Compatible' },
    token,
  );
  if (kb.body.code !== 0) throw new Error(`kb/create failed: ${kb.body.message}`);
  const kbId = kb.body.data.kb_id as string;
  const before = embedder.stats();
  const load0 = os.loadavg()[0];

  // Batches go round-robin: batch k through API process k mod N.
  const runThrough = async (api: Child, ids: string[]) => {
    const run = await callChild(api, '/v1/document/run', { doc_ids: ids, run: '1' }, token);
    if (run.body.code !== 0) throw new Error(`document/run failed: ${run.body.message}`);
  };
  const t0 = performance.now();
  let uploadSeconds = 0;
  const uploaded = await Promise.all(
    apis.map(async (api, a) => {
      const ids: string[] = [];
      for (let i = a * UPLOAD_BATCH; i < files.length; i += apis.length * UPLOAD_BATCH) {
        const form = new FormData();
        form.append('kb_id', kbId);
        for (const f of files.slice(i, i + UPLOAD_BATCH)) form.append('file', new Blob([f.data]), f.name);
        const res = await fetch(`${api.url}/v1/document/upload`, {
          method: 'POST',
          headers: { authorization: token },
          body: form,
        });
        const up = (await res.json()) as { code: number; message: string; data: Array<{ id: string }> };
        if (up.code !== 0) throw new Error(`upload failed: ${up.message}`);
        ids.push(...up.data.map((d) => d.id));
        if (!STAGED)
          await runThrough(
            api,
            up.data.map((d) => d.id),
          );
      }
      uploadSeconds = Math.max(uploadSeconds, (performance.now() - t0) / 1000);
      return ids;
    }),
  );
  const t1 = performance.now();
  if (STAGED) await Promise.all(apis.map((api, a) => runThrough(api, uploaded[a])));
  let docs: Doc[] = [];
  for (let poll = 0; ; poll++) {
    const list = await callChild(
      apis[poll % apis.length],
      `/v1/document/list?kb_id=${kbId}&page=1&page_size=${files.length}`,
      {},
      token,
    );
    docs = list.body.data.docs as Doc[];
    if (docs.length === files.length && docs.every((d) => d.run === '3' || d.run === '4')) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  const totalSeconds = (performance.now() - t0) / 1000;
  const parseSeconds = (performance.now() - t1) / 1000;
  const after = embedder.stats();
  const result: RunResult = {
    n,
    uploadSeconds,
    totalSeconds,
    parseSeconds,
    docsPerSecond: files.length / totalSeconds,
    done: docs.filter((d) => d.run === '3').length,
    failed: docs.filter((d) => d.run === '4').length,
    chunks: docs.reduce((sum, d) => sum + d.chunk_num, 0),
    embedRequests: after.requests - before.requests,
    embedInputs: after.inputs - before.inputs,
    embedMaxInFlight: after.maxInFlight,
    load: [load0, os.loadavg()[0]],
    tasksPerWorker: await tasksPerWorker(database.url),
  };
  await stopAll();
  return result;
}

async function main(): Promise<void> {
  const { source, files } = corpus();
  console.log(`machine: ${machine()}`);
  console.log(
    `setup: PostgreSQL ${new URL(PG_URL).host} (a fresh database per run, dropped after), blobs BLOB_STORE=s3 on an s3rver stand-in, ` +
      `embedding stand-in ${LATENCY_MS} ms per /v1/embeddings request, WORKER_CONCURRENCY=${CONCURRENCY} per worker, ` +
      `${files.length} docs: ${source}, uploaded in batches of ${UPLOAD_BATCH} round-robin, ` +
      (STAGED ? 'all uploaded before any run' : 'each batch run once uploaded'),
  );
  const results: RunResult[] = [];
  for (const n of SIZES) {
    const r = await runScale(n, files);
    results.push(r);
    console.log(
      `N=${n}: ${n} API + ${n} worker processes: ${r.done} done, ${r.failed} failed, ${r.chunks} chunks; ` +
        `uploads ${r.uploadSeconds.toFixed(1)} s, all done ${r.totalSeconds.toFixed(1)} s → ${r.docsPerSecond.toFixed(2)} docs/s` +
        (STAGED
          ? ` (parse phase ${r.parseSeconds.toFixed(1)} s → ${(files.length / r.parseSeconds).toFixed(2)} docs/s)`
          : '') +
        '; ' +
        `${r.embedRequests} embedding requests (${(r.embedInputs / Math.max(1, r.embedRequests)).toFixed(1)} inputs each, at most ${r.embedMaxInFlight} at once), ` +
        // What the round trips alone take with every worker's concurrent tasks always waiting on one.
        `model-latency floor ${((r.embedRequests * LATENCY_MS) / 1000 / (r.n * Number(CONCURRENCY))).toFixed(1)} s; ` +
        `tasks per worker ${r.tasksPerWorker.join(' + ')}; ` +
        `load (1 min) ${r.load[0].toFixed(2)} → ${r.load[1].toFixed(2)}`,
    );
  }
  const base = results.find((r) => r.n === 1);
  for (const r of results)
    if (base && r !== base)
      console.log(
        `ratio N=${r.n} / N=1: ${(r.docsPerSecond / base.docsPerSecond).toFixed(2)}× end to end` +
          (STAGED ? `, ${(base.parseSeconds / r.parseSeconds).toFixed(2)}× parse phase` : ''),
      );
  if (os.availableParallelism() <= 2)
    console.log(
      `note: ${os.availableParallelism()} cores here, shared by every process: what can scale with N is ` +
        `the model-latency-bound part of ingestion (workers waiting on ${LATENCY_MS} ms embedding round ` +
        `trips), not CPU-bound parsing or uploads. A run near its model-latency floor was latency-bound; ` +
        `one far above it was CPU-bound, and the load average says how busy the machine was.`,
    );
}

main().catch(async (error: unknown) => {
  // After a signal the failed request is its consequence; the signal handler stops and exits.
  if (interrupted) return;
  console.error(error);
  await stopAll();
  process.exit(1);
});
