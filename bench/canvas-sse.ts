/**
 * Agent runs over HTTP (issue 14 "Speed"), against the real server and the OpenAI stand-in (no
 * delay between its chunks):
 *  1. sequential runs of a 10-component flow (Begin → 7 StringTransforms → LLM → Message) through
 *     `POST /v1/canvas/completion`: time from request to the first SSE event, and to the end;
 *  2. 50 runs of the same flow at once (each its own canvas), against one run: p95 total.
 * `latencyMs` is the stand-in's pause between streamed chunks (0 = answer at once: then the figures
 * are the server's own CPU time, which 50 runs share; with a model-like latency they show how well
 * runs overlap).
 * Prints figures, the load average and the machine; never asserts a time.
 *   Run: npm run bench -- canvas-sse [sequential=100] [concurrent=50] [latencyMs=0]
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { newUser, startTestServer } from '../apps/server/test/harness.js';
import { startOpenAIStandin } from '../apps/server/test/standins/index.js';
import { CHAT_MODEL, wireModels } from '../apps/server/src/chat/test-fixtures.js';
import { chainFlow, saveCanvas } from '../apps/server/src/modules/canvas/test-support.js';
import { machine, summarize } from './lib/stats.js';

const SEQUENTIAL = Number(process.argv[2] ?? 100);
const CONCURRENT = Number(process.argv[3] ?? 50);
const LATENCY_MS = Number(process.argv[4] ?? 0);
const WARMUP = 5;
const COMPONENTS = 10;

interface Timing {
  firstMs: number;
  totalMs: number;
  ok: boolean;
}

async function run(url: string, token: string, id: string, query: string): Promise<Timing> {
  const t0 = performance.now();
  const res = await fetch(`${url}/v1/canvas/completion`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: token },
    body: JSON.stringify({ id, query }),
  });
  const reader = res.body!.getReader();
  let firstMs = -1;
  let text = '';
  const decoder = new TextDecoder();
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    if (firstMs < 0) firstMs = performance.now() - t0;
    text += decoder.decode(chunk.value, { stream: true });
  }
  return { firstMs, totalMs: performance.now() - t0, ok: text.includes('"workflow_finished"') };
}

const fmt = (s: ReturnType<typeof summarize>) =>
  `median ${s.median.toFixed(1)} ms, p95 ${s.p95.toFixed(1)} ms, max ${s.max.toFixed(1)} ms (n=${s.n})`;

async function main() {
  const llm = await startOpenAIStandin({
    reply: () => 'A short answer from the stand-in model.',
    chunkDelayMs: LATENCY_MS,
  });
  const server = await startTestServer({ LECTERN_CONTRACT_CHECK: '0' });
  try {
    const user = await newUser(server, 'bench');
    await wireModels(server, user, llm);
    const dsl = chainFlow(CHAT_MODEL, COMPONENTS);
    const ids: string[] = [];
    for (let i = 0; i < CONCURRENT; i++)
      ids.push((await saveCanvas(server, user, { title: `Bench ${i}`, dsl })).id);

    for (let i = 0; i < WARMUP; i++) await run(server.url, user.token, ids[0], `warm ${i}`);
    const seq: Timing[] = [];
    const cpu0 = process.cpuUsage();
    for (let i = 0; i < SEQUENTIAL; i++)
      seq.push(await run(server.url, user.token, ids[i % ids.length], `q ${i}`));
    const cpu = process.cpuUsage(cpu0);
    const one = summarize(seq.map((t) => t.totalMs));

    const t0 = performance.now();
    const par = await Promise.all(ids.map((id, i) => run(server.url, user.token, id, `c ${i}`)));
    const wall = performance.now() - t0;
    const parTotal = summarize(par.map((t) => t.totalMs));

    console.log(
      `canvas-sse — ${COMPONENTS}-component flow, OpenAI stand-in (${LATENCY_MS} ms between chunks), ${machine()}`,
    );
    console.log(
      `load average before: ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
    console.log(`sequential (${SEQUENTIAL} runs, ${seq.filter((t) => !t.ok).length} failed)`);
    console.log(`  first SSE event: ${fmt(summarize(seq.map((t) => t.firstMs)))}`);
    console.log(`  whole run:       ${fmt(one)}`);
    console.log(
      `  CPU per run (this process: server, stand-in and client): ${((cpu.user + cpu.system) / 1000 / SEQUENTIAL).toFixed(1)} ms`,
    );
    console.log(
      `${CONCURRENT} concurrent runs (${par.filter((t) => !t.ok).length} failed), wall ${wall.toFixed(0)} ms`,
    );
    console.log(`  first SSE event: ${fmt(summarize(par.map((t) => t.firstMs)))}`);
    console.log(`  whole run:       ${fmt(parTotal)}`);
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
