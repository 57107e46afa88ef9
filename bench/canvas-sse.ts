/**
 * Agent runs over HTTP (issue 14 "Speed"), against the real server and the OpenAI stand-in answering
 * like a real model: its first token after `firstTokenMs` (default 300 ms), then one chunk per word
 * every `chunkMs` (default 20 ms) — so a run is mostly waiting on the model, and 50 runs at once show
 * how well runs overlap rather than how they share the CPU (`0 0` gives the old instant stand-in).
 *  1. sequential runs of a 10-component flow (Begin → 7 StringTransforms → LLM → Message) through
 *     `POST /v1/canvas/completion`: time from request to the first SSE event, and to the end;
 *  2. 50 runs of the same flow at once (each its own canvas): the same figures, and the ratio of
 *     their p95 total to the single run's p95 total (issue 14: within 1.5×).
 * The stand-in runs on a thread of its own (bench/lib/openai-standin-worker.ts), as a model server is
 * not on the server's event loop. The client runs on a worker thread (bench/lib/sse-client-worker.mjs): on the server's own event loop
 * its reads waited behind the run's work, adding ~40 ms to "first event" that no browser sees. It
 * still shares the cores, so the CPU per run is printed with the client thread's share.
 * Prints figures, the load average and the machine; never asserts a time.
 *   Run: npm run bench -- canvas-sse [sequential=30] [concurrent=50] [firstTokenMs=300] [chunkMs=20]
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { newUser, startTestServer } from '../apps/server/test/harness.js';
import type { Standin } from '../apps/server/test/standins/index.js';
import { CHAT_MODEL, wireModels } from '../apps/server/src/chat/test-fixtures.js';
import { chainFlow, saveCanvas } from '../apps/server/src/modules/canvas/test-support.js';
import { machine, mainThreadCpuMs, summarize } from './lib/stats.js';

const SEQUENTIAL = Number(process.argv[2] ?? 30);
const CONCURRENT = Number(process.argv[3] ?? 50);
const FIRST_TOKEN_MS = Number(process.argv[4] ?? 300);
const CHUNK_MS = Number(process.argv[5] ?? 20);
const WARMUP = 5;
const COMPONENTS = 10;

interface Timing {
  firstMs: number;
  totalMs: number;
  ok: boolean;
}

/** Runs `queries` (one per canvas id) from the client thread, one after another or all at once. */
function runAll(
  url: string,
  token: string,
  jobs: Array<{ id: string; query: string }>,
  parallel: boolean,
): Promise<{ timings: Timing[]; clientBusyMs: number }> {
  const worker = new Worker(new URL('./lib/sse-client-worker.mjs', import.meta.url), {
    workerData: {
      url,
      token,
      path: '/v1/canvas/completion',
      jobs: jobs.map(({ id, query }) => ({ body: { id, query } })),
      parallel,
    },
  });
  return new Promise((resolve, reject) => {
    worker.once(
      'message',
      (m: { results: Array<{ firstMs: number; totalMs: number; text: string }>; busyMs: number }) => {
        resolve({
          timings: m.results.map((r) => ({
            firstMs: r.firstMs,
            totalMs: r.totalMs,
            ok: r.text.includes('"workflow_finished"'),
          })),
          clientBusyMs: m.busyMs,
        });
        void worker.terminate();
      },
    );
    worker.once('error', reject);
  });
}

const cpuMs = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;

/**
 * The process's CPU per run; the server's main thread's CPU; and how long the client and stand-in
 * threads were busy (event-loop time, which also counts time the thread waited for a core).
 */
const cpuLine = (processMs: number, mainMs: number, clientMs: number, standinMs: number, runs: number) =>
  `${(processMs / runs).toFixed(1)} ms in this process, server main thread ${(mainMs / runs).toFixed(1)} ms; client thread busy ~${(clientMs / runs).toFixed(1)} ms, stand-in thread ~${(standinMs / runs).toFixed(1)} ms`;

const fmt = (s: ReturnType<typeof summarize>) =>
  `median ${s.median.toFixed(1)} ms, p95 ${s.p95.toFixed(1)} ms, max ${s.max.toFixed(1)} ms (n=${s.n})`;

/** The stand-in on its own thread (bench/lib/openai-standin-worker.ts), with its busy time. */
async function startStandinThread(): Promise<Standin & { busyMs(): Promise<number> }> {
  const worker = new Worker(new URL('./lib/ts-worker.mjs', import.meta.url), {
    workerData: {
      module: new URL('./lib/openai-standin-worker.ts', import.meta.url).href,
      reply: 'A short answer from the stand-in model.',
      firstTokenMs: FIRST_TOKEN_MS,
      chunkDelayMs: CHUNK_MS,
    },
  });
  const next = <T>() =>
    new Promise<T>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
  const at = await next<{ url: string; origin: string; port: number }>();
  return {
    ...at,
    requests: [],
    fail: () => {
      throw new Error('The bench stand-in has no scripted faults.');
    },
    modelCalls: () => [],
    async busyMs() {
      worker.postMessage('busy');
      return (await next<{ busyMs: number }>()).busyMs;
    },
    async close() {
      worker.postMessage('close');
      await new Promise((resolve) => worker.once('exit', resolve));
    },
  };
}

async function main() {
  const llm = await startStandinThread();
  const server = await startTestServer({ LECTERN_CONTRACT_CHECK: '0' });
  try {
    const user = await newUser(server, 'bench');
    await wireModels(server, user, llm);
    const dsl = chainFlow(CHAT_MODEL, COMPONENTS);
    const ids: string[] = [];
    for (let i = 0; i < CONCURRENT; i++)
      ids.push((await saveCanvas(server, user, { title: `Bench ${i}`, dsl })).id);

    const job = (i: number, tag: string) => ({ id: ids[i % ids.length]!, query: `${tag} ${i}` });
    await runAll(
      server.url,
      user.token,
      Array.from({ length: WARMUP }, () => job(0, 'warm')),
      false,
    );
    await llm.busyMs();
    let cpu0 = process.cpuUsage();
    let main0 = mainThreadCpuMs();
    const { timings: seq, clientBusyMs: seqClientMs } = await runAll(
      server.url,
      user.token,
      Array.from({ length: SEQUENTIAL }, (_, i) => job(i, 'q')),
      false,
    );
    const seqCpuMs = cpuMs(process.cpuUsage(cpu0));
    const seqMainMs = mainThreadCpuMs() - main0;
    const seqStandinMs = await llm.busyMs();
    const one = summarize(seq.map((t) => t.totalMs));
    const loadSeq = os.loadavg();

    const t0 = performance.now();
    cpu0 = process.cpuUsage();
    main0 = mainThreadCpuMs();
    const { timings: par, clientBusyMs: parClientMs } = await runAll(
      server.url,
      user.token,
      ids.map((_, i) => job(i, 'c')),
      true,
    );
    const wall = performance.now() - t0;
    const parCpuMs = cpuMs(process.cpuUsage(cpu0));
    const parMainMs = mainThreadCpuMs() - main0;
    const parStandinMs = await llm.busyMs();
    const parTotal = summarize(par.map((t) => t.totalMs));

    console.log(
      `canvas-sse — ${COMPONENTS}-component flow, OpenAI stand-in (first token ${FIRST_TOKEN_MS} ms, ${CHUNK_MS} ms between chunks), ${machine()}`,
    );
    console.log(
      `load average at the end of the sequential runs: ${loadSeq.map((l) => l.toFixed(2)).join(' ')}`,
    );
    console.log(`sequential (${SEQUENTIAL} runs, ${seq.filter((t) => !t.ok).length} failed)`);
    console.log(`  first SSE event: ${fmt(summarize(seq.map((t) => t.firstMs)))}`);
    console.log(`  whole run:       ${fmt(one)}`);
    console.log(`  CPU per run: ${cpuLine(seqCpuMs, seqMainMs, seqClientMs, seqStandinMs, SEQUENTIAL)}`);
    console.log(
      `${CONCURRENT} concurrent runs (${par.filter((t) => !t.ok).length} failed), wall ${wall.toFixed(0)} ms`,
    );
    console.log(`  first SSE event: ${fmt(summarize(par.map((t) => t.firstMs)))}`);
    console.log(`  whole run:       ${fmt(parTotal)}`);
    console.log(`  CPU per run: ${cpuLine(parCpuMs, parMainMs, parClientMs, parStandinMs, CONCURRENT)}`);
    console.log(`  p95 concurrent / p95 single run:    ${(parTotal.p95 / one.p95).toFixed(2)}×`);
    console.log(`  p95 concurrent / median single run: ${(parTotal.p95 / one.median).toFixed(2)}×`);
    console.log(
      `load average after: ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    await server.close();
    await llm.close();
  }
}

await main();
