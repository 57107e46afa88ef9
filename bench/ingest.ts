/**
 * Ingestion benchmark (issue 4). Run: `node --import tsx bench/ingest.ts` (SQLite; set DATABASE_URL for
 * PostgreSQL). Starts the real server in-process on a temp data folder, keyword-only (no embedding
 * model), and prints:
 *  (a) a 500-page text PDF end to end to indexed chunks: pages/s and peak RSS while it parses;
 *  (b) latency of POST /v1/kb/list while that PDF parses: median and p95;
 *  (c) 1,000 small files uploaded (batches of 32) and parsed: files/s.
 * Figures only — it never asserts a time.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../apps/server/src/config.js';
import { closeRoot, createRoot } from '../apps/server/src/root.js';
import { buildApp } from '../apps/server/src/http/app.js';
import { parseThreadCount } from '../apps/server/src/ingest/parse-pool.js';
import { makePdf, textPages } from '../apps/server/src/ingest/testing/make-pdf.js';
import { startTaskWorkers } from '../apps/server/src/root.js';

const PAGES = Number(process.env.BENCH_PAGES ?? 500);
const SMALL_FILES = Number(process.env.BENCH_FILES ?? 1000);

type Json = { code: number; message: string; data: any }; // eslint-disable-line @typescript-eslint/no-explicit-any -- bench reads loose JSON

/** Resident memory of a process in bytes (Linux /proc), 0 when unreadable. */
function rssOf(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-bench-'));
  const config = loadConfig({
    ...process.env,
    LOG_LEVEL: 'silent',
    PORT: '0',
    HOST: '127.0.0.1',
    LECTERN_DATA_DIR: dataDir,
    LECTERN_SECRET_KEY: 'bench',
    WEB_DIST_DIR: path.join(dataDir, 'no-web'),
    DEFAULT_EMBD_ID: '',
  });
  const ctx = await createRoot(config);
  const app = await buildApp(ctx);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const host = await startTaskWorkers(ctx, { pollMs: 200, tickMs: 1000 });

  let token = '';
  const api = async (route: string, body?: unknown): Promise<Json> => {
    const res = await fetch(`${url}${route}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: token } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!token && res.headers.get('authorization')) token = res.headers.get('authorization') as string;
    return (await res.json()) as Json;
  };
  const uploadFiles = async (kbId: string, files: Array<{ name: string; data: Buffer }>) => {
    const form = new FormData();
    form.append('kb_id', kbId);
    for (const f of files) form.append('file', new Blob([f.data]), f.name);
    const res = await fetch(`${url}/v1/document/upload`, {
      method: 'POST',
      headers: { authorization: token },
      body: form,
    });
    return ((await res.json()) as Json).data as Array<{ id: string }>;
  };
  const waitDone = async (kbId: string, onTick?: () => void) => {
    for (;;) {
      const list = await api(`/v1/document/list?kb_id=${kbId}`, {});
      const docs = list.data.docs as Array<{ run: string; chunk_num: number; progress_msg: string }>;
      if (docs.every((d) => d.run === '3' || d.run === '4')) return docs;
      onTick?.();
      await new Promise((r) => setTimeout(r, 200));
    }
  };

  await api('/v1/user/register', {
    nickname: 'bench',
    email: 'bench@example.com',
    password: 'correct-horse-9',
  });
  const machine = `${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, ${Math.round(os.totalmem() / 2 ** 30)} GB, Node ${process.version}, ${ctx.db.dialect}, ${parseThreadCount(config)} parse worker process(es), ${config.workerConcurrency} concurrent tasks`;
  console.log(`machine: ${machine}`);

  // (a) + (b): one big PDF, with kb/list polled throughout.
  const pdfKb = (await api('/v1/kb/create', { name: 'bench pdf', embd_id: '' })).data.kb_id as string;
  const pdf = makePdf(textPages(PAGES, 45));
  console.log(`(a) ${PAGES}-page text PDF, ${(pdf.length / 2 ** 20).toFixed(1)} MB`);
  const [doc] = await uploadFiles(pdfKb, [{ name: 'big.pdf', data: pdf }]);
  let peakRss = process.memoryUsage().rss;
  let peakTotal = peakRss;
  const sampler = setInterval(() => {
    const own = process.memoryUsage().rss;
    peakRss = Math.max(peakRss, own);
    peakTotal = Math.max(peakTotal, own + ctx.parsePool.pids().reduce((sum, pid) => sum + rssOf(pid), 0));
  }, 25);
  const latencies: number[] = [];
  let parsing = true;
  const poller = (async () => {
    while (parsing) {
      const t0 = performance.now();
      await api('/v1/kb/list', {});
      latencies.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  const t0 = performance.now();
  await api('/v1/document/run', { doc_ids: [doc.id], run: '1' });
  const [done] = await waitDone(pdfKb);
  const seconds = (performance.now() - t0) / 1000;
  parsing = false;
  await poller;
  clearInterval(sampler);
  console.log(
    `    run ${done.run}, ${done.chunk_num} chunks in ${seconds.toFixed(1)} s → ${(PAGES / seconds).toFixed(1)} pages/s; ` +
      `peak RSS ${(peakRss / 2 ** 20).toFixed(0)} MB server, ${(peakTotal / 2 ** 20).toFixed(0)} MB server + parse workers`,
  );
  console.log(
    `(b) POST /v1/kb/list while it parsed: ${latencies.length} calls, median ${quantile(latencies, 0.5).toFixed(1)} ms, p95 ${quantile(latencies, 0.95).toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms`,
  );

  // (c): many small files.
  const smallKb = (await api('/v1/kb/create', { name: 'bench small', embd_id: '' })).data.kb_id as string;
  const files = Array.from({ length: SMALL_FILES }, (_, i) => ({
    name: `note-${i}.txt`,
    data: Buffer.from(`Note ${i}\n${textPages(1, 6, `note${i}`)[0].join('\n')}\n`),
  }));
  const u0 = performance.now();
  const ids: string[] = [];
  for (let i = 0; i < files.length; i += 32)
    ids.push(...(await uploadFiles(smallKb, files.slice(i, i + 32))).map((d) => d.id));
  const uploadSeconds = (performance.now() - u0) / 1000;
  const r0 = performance.now();
  for (let i = 0; i < ids.length; i += 100)
    await api('/v1/document/run', { doc_ids: ids.slice(i, i + 100), run: '1' });
  const small = await waitDone(smallKb);
  const parseSeconds = (performance.now() - r0) / 1000;
  const ok = small.filter((d) => d.run === '3').length;
  console.log(
    `(c) ${SMALL_FILES} small files: upload ${uploadSeconds.toFixed(1)} s (${(SMALL_FILES / uploadSeconds).toFixed(0)} files/s), ` +
      `parse ${parseSeconds.toFixed(1)} s (${(SMALL_FILES / parseSeconds).toFixed(1)} files/s), ${ok} done, ` +
      `end to end ${(SMALL_FILES / (uploadSeconds + parseSeconds)).toFixed(1)} files/s`,
  );

  await host.stop();
  await app.close();
  await closeRoot(ctx);
  fs.rmSync(dataDir, { recursive: true, force: true });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
