/**
 * Knowledge-graph extraction throughput against configured model concurrency (issue 16: "show that
 * the pipeline keeps the configured model concurrency busy, no serial gaps"). The model is a stand-in
 * behind the chat port with a fixed latency per call, answering valid GraphRAG records, so the ideal
 * time is ceil(calls / concurrency) × latency and any difference is scheduling overhead or idle slots.
 * Prints, per concurrency: wall time against the ideal, chunks/s, the most calls in flight, slot
 * utilisation (busy call-time / (concurrency × wall)), the longest gap between one call ending and the
 * next starting while work remained, and per-call latency median/p95. Never asserts a time.
 *
 *   npx tsx bench/graph-extract.ts [--chunks 256] [--latency 100] [--method light|general]
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { extractGraph, type ChunkInput } from '../apps/server/src/graph/extractor.js';
import { LOOP_PROMPT } from '../apps/server/src/graph/prompts.js';
import { ScriptedModel, capitalizedWordsScript } from '../apps/server/src/graph/test-fixtures.js';
import { machine, summarize } from './lib/stats.js';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

const CHUNKS = Number(arg('chunks', '256'));
const LATENCY = Number(arg('latency', '100'));
const METHOD = arg('method', 'light') === 'general' ? 'general' : 'light';
const LEVELS = [1, 2, 4, 8, 16, 32, 64];

const chunks: ChunkInput[] = Array.from({ length: CHUNKS }, (_, i) => ({
  id: `c${i}`,
  docId: `d${i % 8}`,
  text: `Alice${i % 50} met Bob${i % 37} and Carol${i % 23} at Acme${i % 11} in Paris.`,
}));

console.log(
  `graph extraction (${METHOD}) of ${CHUNKS} chunks, stand-in model with ${LATENCY} ms per call` +
    (METHOD === 'general' ? ' (2 gleaning rounds: 4 calls per chunk)' : ''),
);
console.log(
  'concurrency | wall s | ideal s | chunks/s | max in flight | utilisation | worst gap ms | call p50/p95 ms',
);
for (const c of LEVELS) {
  // General: the loop check always says YES, so every chunk makes extract + continue + check + continue.
  const model = new ScriptedModel(
    (messages) =>
      messages[messages.length - 1].content === LOOP_PROMPT ? 'YES' : capitalizedWordsScript(messages),
    LATENCY,
  );
  const t0 = performance.now();
  const res = await extractGraph(chunks, {
    model,
    entityTypes: ['person', 'organization', 'geo'],
    method: METHOD,
    maxGleanings: 2,
    concurrency: c,
  });
  const wall = performance.now() - t0;
  const calls = res.stats.calls;
  const ideal = Math.ceil(calls / c) * LATENCY;
  const busy = model.spans.reduce((s, x) => s + (x.end - x.start), 0);
  // Worst idle gap: for each call start after the first `c`, the distance back to the latest end before it.
  const ends = model.spans.map((s) => s.end).sort((a, b) => a - b);
  const starts = model.spans.map((s) => s.start).sort((a, b) => a - b);
  let worstGap = 0;
  for (const s of starts.slice(c)) {
    let latest = -Infinity;
    for (const e of ends) if (e <= s + 0.001) latest = e;
    if (latest > -Infinity) worstGap = Math.max(worstGap, s - latest);
  }
  const perCall = summarize(model.spans.map((s) => s.end - s.start));
  console.log(
    [
      String(c).padStart(11),
      (wall / 1000).toFixed(2).padStart(6),
      (ideal / 1000).toFixed(2).padStart(7),
      ((CHUNKS / wall) * 1000).toFixed(1).padStart(8),
      String(model.maxInFlight).padStart(13),
      `${((busy / (c * wall)) * 100).toFixed(1)} %`.padStart(11),
      worstGap.toFixed(2).padStart(12),
      `${perCall.median.toFixed(1)}/${perCall.p95.toFixed(1)}`.padStart(15),
    ].join(' | '),
  );
  if (res.stats.entities === 0) throw new Error('the stand-in produced no entities');
}
console.log(
  `machine: ${machine()}; load average ${os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
