/**
 * API responsiveness during heavy parsing (issue 17 item 4: "< 50 ms p95 on kb/list during heavy
 * parsing"). Starts the real server in-process on a temp data folder (keyword-only, no embedding
 * model), uploads a mix of multi-task PDFs and small text files, runs them all, and calls
 * POST /v1/kb/list every 50 ms until every document has finished. Prints kb/list p50/p95/max, the
 * event loop's delay over the same window (what a request waits before it is even read), the ingest
 * rate and the 1-minute load average before and after (the machine may be shared).
 * Figures only — it never asserts a time.
 *
 *   npx tsx bench/api-under-parse.ts [--pdfs 12] [--pages 48] [--texts 400] [--json]
 */
import os from 'node:os';
import { monitorEventLoopDelay, performance as perf } from 'node:perf_hooks';
import { call, newUser, startTestServer } from '../apps/server/test/harness.js';
import { parseThreadCount } from '../apps/server/src/ingest/parse-pool.js';
import { makePdf, textPages } from '../apps/server/src/ingest/testing/make-pdf.js';
import { startTaskWorkers } from '../apps/server/src/root.js';
import { machine, summarize } from './lib/stats.js';

const args = process.argv.slice(2);
const value = (name: string, fallback: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const PDFS = value('--pdfs', 12);
const PAGES = value('--pages', 48);
const TEXTS = value('--texts', 400);
const POLL_MS = 50;

async function main(): Promise<void> {
  const loadBefore = os.loadavg()[0];
  const server = await startTestServer({
    DEFAULT_EMBD_ID: '',
    WORKER_CONCURRENCY: '4',
    // As deployed: the harness's contract check (zod over every JSON answer) is test-only.
    LECTERN_CONTRACT_CHECK: '0',
  });
  const host = await startTaskWorkers(server.ctx, { pollMs: 200, tickMs: 3000 });
  try {
    const user = await newUser(server, 'bench');
    const kb = await call<{ kb_id: string }>(server, '/v1/kb/create', {
      token: user.token,
      body: { name: 'under parse' },
    });
    const kbId = (kb.body.data as { kb_id: string }).kb_id;
    const files: Array<{ name: string; data: Buffer }> = [];
    for (let i = 0; i < PDFS; i++)
      files.push({ name: `report-${i}.pdf`, data: makePdf(textPages(PAGES, 40, `report${i}`)) });
    for (let i = 0; i < TEXTS; i++) {
      const lines = textPages(1, 12, `note${i}`)[0];
      files.push({ name: `note-${i}.txt`, data: Buffer.from(`Note ${i}\n${lines.join('\n')}\n`) });
    }
    const ids: string[] = [];
    for (let i = 0; i < files.length; i += 32) {
      const form = new FormData();
      form.append('kb_id', kbId);
      for (const f of files.slice(i, i + 32)) form.append('file', new Blob([f.data]), f.name);
      const res = await fetch(`${server.url}/v1/document/upload`, {
        method: 'POST',
        headers: { Authorization: user.token },
        body: form,
      });
      const body = (await res.json()) as { code: number; message: string; data: Array<{ id: string }> };
      if (body.code !== 0) throw new Error(`upload failed: ${body.message}`);
      ids.push(...body.data.map((d) => d.id));
    }

    const latencies: number[] = [];
    let parsing = true;
    const poller = (async () => {
      while (parsing) {
        const t0 = performance.now();
        const res = await call(server, '/v1/kb/list', { token: user.token, body: {} });
        latencies.push(performance.now() - t0);
        if (res.body.code !== 0) throw new Error(`kb/list failed: ${res.body.message}`);
        await new Promise((r) => setTimeout(r, POLL_MS));
      }
    })();
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    // Main-thread busy time and the process's CPU time (all its threads, not the parse processes):
    // less sensitive to a shared machine than latencies, for A/B comparisons.
    const elu0 = perf.eventLoopUtilization();
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    for (let i = 0; i < ids.length; i += 100) {
      const run = await call(server, '/v1/document/run', {
        token: user.token,
        body: { doc_ids: ids.slice(i, i + 100), run: '1' },
      });
      if (run.body.code !== 0) throw new Error(`run failed: ${run.body.message}`);
    }
    let failed = 0;
    for (;;) {
      const list = await call<{ docs: Array<{ run: string }> }>(
        server,
        `/v1/document/list?kb_id=${kbId}&page=0&page_size=0`,
        { token: user.token, method: 'POST', body: { run_status: ['0', '1', '4', '5'] } },
      );
      const pending = (list.body.data as { docs: Array<{ run: string }> }).docs;
      failed = pending.filter((d) => d.run === '4').length;
      if (pending.length === failed) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    const seconds = (performance.now() - t0) / 1000;
    loop.disable();
    const elu = perf.eventLoopUtilization(elu0);
    const cpu = process.cpuUsage(cpu0);
    parsing = false;
    await poller;
    const s = summarize(latencies);
    const result = {
      machine: `${machine()}, ${parseThreadCount(server.ctx.config)} parse worker process(es)`,
      documents: { pdfs: PDFS, pagesEach: PAGES, texts: TEXTS, failed },
      ingestSeconds: seconds,
      docsPerSecond: ids.length / seconds,
      kbList: { calls: s.n, p50: s.median, p95: s.p95, max: s.max },
      eventLoopDelayMs: {
        p50: loop.percentile(50) / 1e6,
        p95: loop.percentile(95) / 1e6,
        max: loop.max / 1e6,
      },
      mainThread: { busyMs: elu.active, utilization: elu.utilization },
      processCpuMs: (cpu.user + cpu.system) / 1000,
      load1: { before: loadBefore, after: os.loadavg()[0] },
    };
    if (args.includes('--json')) {
      console.log(JSON.stringify(result, null, 2));
      return;
    }
    console.log(
      `machine: ${result.machine}; load average (1 min) ${loadBefore.toFixed(1)} → ${result.load1.after.toFixed(1)}`,
    );
    console.log(
      `parsed ${PDFS} PDFs × ${PAGES} pages + ${TEXTS} text files in ${seconds.toFixed(1)} s (${result.docsPerSecond.toFixed(1)} docs/s, ${failed} failed)`,
    );
    console.log(
      `POST /v1/kb/list every ${POLL_MS} ms while parsing: ${s.n} calls, p50 ${s.median.toFixed(1)} ms, p95 ${s.p95.toFixed(1)} ms, max ${s.max.toFixed(1)} ms`,
    );
    console.log(
      `event loop delay: p50 ${result.eventLoopDelayMs.p50.toFixed(1)} ms, p95 ${result.eventLoopDelayMs.p95.toFixed(1)} ms, max ${result.eventLoopDelayMs.max.toFixed(1)} ms`,
    );
    console.log(
      `main thread busy ${elu.active.toFixed(0)} ms (${(elu.utilization * 100).toFixed(0)} %), process CPU ${result.processCpuMs.toFixed(0)} ms`,
    );
  } finally {
    await host.stop();
    await server.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
