/**
 * Model adapter figures (issue 3), against zero-latency stand-ins on 127.0.0.1:
 *  1. streamed chat: time to first delta and to the last one through the adapter (AI SDK + our
 *     retry/time-limit/usage wrapper), next to a raw fetch of the same SSE stream — the difference is
 *     the adapter's overhead;
 *  2. embedding throughput (texts/s) per batch size 1, 16, 64, 256.
 * Prints figures and the machine; never asserts a time.   Run: npx tsx bench/models.ts [calls]
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { startOpenAIStandin } from '../apps/server/test/standins/index.js';
import { catalogueFactory } from '../apps/server/src/models/catalogue.js';
import { AiSdkChatModel } from '../apps/server/src/models/adapters/chat.js';
import { AiSdkEmbeddingModel } from '../apps/server/src/models/adapters/embedding.js';
import type { ModelSpec } from '../apps/server/src/models/spec.js';

const CALLS = Number(process.argv[2] ?? 200);
const WARMUP = 20;
const policy = { timeoutMs: 30_000, retries: 0, retryBaseMs: 100 };

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}
const fmt = (ms: number) => `${ms.toFixed(2)} ms`;

function spec(name: string, baseUrl: string, type: 'chat' | 'embedding'): ModelSpec {
  const factory = catalogueFactory('OpenAI');
  if (!factory) throw new Error('catalogue has no OpenAI');
  return {
    id: `${name}@OpenAI`,
    factory,
    storedName: name,
    callName: name,
    modelType: type,
    apiKey: 'sk-bench',
    credentials: {},
    baseUrl,
    maxTokens: 8192,
  };
}

async function rawStream(url: string, prompt: string): Promise<{ first: number; total: number }> {
  const t0 = performance.now();
  const res = await fetch(`${url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer sk-bench' },
    body: JSON.stringify({
      model: 'gpt-4o-mini',
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: prompt }],
    }),
  });
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let first = 0;
  let buf = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buf += decoder.decode(value, { stream: true });
    if (!first && /"content":"[^"]/.test(buf)) first = performance.now() - t0;
  }
  return { first, total: performance.now() - t0 };
}

async function benchChat(url: string) {
  const model = new AiSdkChatModel(spec('gpt-4o-mini', url, 'chat'), policy);
  const prompt =
    'Summarise the retrieval pipeline in one short paragraph of about twenty words for the bench';
  const adapter = { first: [] as number[], total: [] as number[] };
  const raw = { first: [] as number[], total: [] as number[] };
  for (let i = 0; i < CALLS + WARMUP; i++) {
    const t0 = performance.now();
    let first = 0;
    let deltas = 0;
    for await (const d of model.stream([{ role: 'user', content: prompt }])) {
      if (d.type === 'text') {
        deltas++;
        if (!first) first = performance.now() - t0;
      }
    }
    const total = performance.now() - t0;
    const r = await rawStream(url, prompt);
    if (i >= WARMUP) {
      adapter.first.push(first);
      adapter.total.push(total);
      raw.first.push(r.first);
      raw.total.push(r.total);
    }
    if (i === 0) console.log(`  (each answer streams ${deltas} text deltas)`);
  }
  console.log(
    `Streamed chat, ${CALLS} calls (after ${WARMUP} warm-up), OpenAI adapter vs raw fetch of the same SSE:`,
  );
  console.log(
    `  time to first delta  adapter median ${fmt(pct(adapter.first, 50))}  p95 ${fmt(pct(adapter.first, 95))}   raw median ${fmt(pct(raw.first, 50))}  p95 ${fmt(pct(raw.first, 95))}`,
  );
  console.log(
    `  whole stream         adapter median ${fmt(pct(adapter.total, 50))}  p95 ${fmt(pct(adapter.total, 95))}   raw median ${fmt(pct(raw.total, 50))}  p95 ${fmt(pct(raw.total, 95))}`,
  );
  console.log(
    `  adapter overhead (median): first delta +${fmt(pct(adapter.first, 50) - pct(raw.first, 50))}, whole stream +${fmt(pct(adapter.total, 50) - pct(raw.total, 50))}`,
  );
}

async function benchEmbeddings(url: string, dim: number) {
  const model = new AiSdkEmbeddingModel(spec('text-embedding-3-small', url, 'embedding'), policy);
  console.log(`Embedding throughput (OpenAI adapter, ${dim}-dim vectors, ~12-word texts):`);
  for (const batch of [1, 16, 64, 256]) {
    const texts = Array.from(
      { length: batch },
      (_, i) => `chunk ${i} of a document about hybrid retrieval with keyword and vector scores`,
    );
    for (let i = 0; i < 5; i++) await model.embed(texts); // warm-up
    const perCall: number[] = [];
    const target = Math.max(2048, batch * 20);
    const t0 = performance.now();
    let done = 0;
    while (done < target) {
      const c0 = performance.now();
      await model.embed(texts);
      perCall.push(performance.now() - c0);
      done += batch;
    }
    const secs = (performance.now() - t0) / 1000;
    console.log(
      `  batch ${String(batch).padStart(3)}: ${(done / secs).toFixed(0).padStart(6)} texts/s   per call median ${fmt(pct(perCall, 50))}  p95 ${fmt(pct(perCall, 95))}  (${perCall.length} calls)`,
    );
  }
}

async function main() {
  const cpus = os.cpus();
  console.log(
    `Machine: ${cpus.length} cores (${cpus[0]?.model ?? 'unknown'}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${os.platform()} ${os.arch()}, load average ${os.loadavg()[0].toFixed(1)}`,
  );
  console.log(
    'Stand-ins answer at once (no artificial latency); client and stand-in share this process and its cores.\n',
  );
  const dim = 384;
  const s = await startOpenAIStandin({ embeddingDim: dim, apiKey: 'sk-bench' });
  try {
    await benchChat(s.url);
    console.log('');
    await benchEmbeddings(s.url, dim);
  } finally {
    await s.close();
  }
}

await main();
