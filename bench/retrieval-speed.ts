/**
 * Retrieval latency of `retrieve()` on a synthetic corpus (bench/lib/synthetic.ts) with 384-dim vectors:
 * hybrid with the retrieval_test defaults (size 30, vw 0.3, top_k 1024, threshold 0), query embedding
 * excluded (vectors are precomputed), plus keyword-only. Questions are 5 words drawn like corpus text. Targets: p95 < 50 ms at 100k chunks, < 200 ms
 * at 1M. Prints figures, asserts nothing. The index is kept in --dir so a rerun skips the build.
 *
 *   npx tsx bench/retrieval-speed.ts [--chunks 100000] [--queries 200] [--skip-common 0] [--dir …] [--json]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { retrieve } from '../apps/server/src/search/retrieval.js';
import { SqliteChunkIndex } from '../apps/server/src/chunk-index/sqlite-index.js';
import { createTokenizer } from '../apps/server/src/chunk-index/tokenize-pool.js';
import { machine, summarize } from './lib/stats.js';
import { SyntheticCorpus } from './lib/synthetic.js';

const args = process.argv.slice(2);
const value = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const chunks = Number(value('--chunks') ?? 100_000);
const queries = Number(value('--queries') ?? 200);
// Leave the N most frequent words out of the questions (topical questions match fewer chunks).
const skipCommon = Number(value('--skip-common') ?? 0);
const dir = value('--dir') ?? path.join(os.tmpdir(), `lectern-speed-${chunks}`);
const KB = 'speedkb';

async function main(): Promise<void> {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'index.sqlite');
  const tokenizer = createTokenizer();
  const index = new SqliteChunkIndex(file, tokenizer);
  const corpus = new SyntheticCorpus();
  let buildSeconds: number | null = null;
  if (index.rowCounts().chunks !== chunks) {
    await index.deleteByKb(KB);
    const t = performance.now();
    // As the server writes (bench/index-bulk.ts): tokenized on the tokenizer thread, two batches in flight.
    const batch = 1000;
    let previous: Promise<void> = Promise.resolve();
    for (let i = 0; i < chunks; i += batch) {
      const recs = [];
      for (let k = i; k < Math.min(chunks, i + batch); k++) recs.push(corpus.chunk(k, KB, true));
      const next = index.upsert(recs);
      await previous;
      previous = next;
      if (!args.includes('--json') && (i / batch) % 100 === 99) console.log(`  built ${i + batch} chunks`);
    }
    await previous;
    buildSeconds = (performance.now() - t) / 1000;
  }
  // Questions: 5 words of a fresh text drawn from the corpus distribution, with a random query vector.
  const qs = [];
  for (let q = 0; q < queries; q++) {
    const target = corpus.chunk(Math.floor((q * 7919) % chunks), KB, true);
    qs.push(corpus.question(target.content_with_weight, target.vector, 5, skipCommon));
  }
  const hybrid: number[] = [];
  const keyword: number[] = [];
  const candidates: number[] = [];
  for (const [i, q] of qs.entries()) {
    let t = performance.now();
    const res = await retrieve(index, { question: q.question, kbIds: [KB], queryVector: q.vector });
    hybrid.push(performance.now() - t);
    candidates.push(res.candidates);
    t = performance.now();
    await retrieve(index, { question: q.question, kbIds: [KB], queryVector: null });
    keyword.push(performance.now() - t);
    if (i === 0) {
      // The first question warms the page cache and the prepared statements.
      hybrid.pop();
      keyword.pop();
    }
  }
  const bytes = index.sizeOnDisk();
  const out = {
    machine: machine(),
    loadAverage: os.loadavg().map((x) => Number(x.toFixed(2))),
    chunks,
    skipCommon,
    buildSeconds,
    bytesOnDisk: bytes,
    bytesPer100k: Math.round((bytes / chunks) * 100_000),
    meanCandidates: Math.round(candidates.reduce((a, b) => a + b, 0) / candidates.length),
    hybridMs: summarize(hybrid),
    keywordOnlyMs: summarize(keyword),
  };
  await index.close();
  await tokenizer.close();
  if (args.includes('--json')) {
    console.log(JSON.stringify(out, null, 2));
    return;
  }
  console.log(`machine: ${out.machine} (load average ${out.loadAverage.join(' ')})`);
  if (buildSeconds !== null)
    console.log(
      `built ${chunks} chunks in ${buildSeconds.toFixed(1)} s (${Math.round(chunks / buildSeconds)} chunks/s)`,
    );
  console.log(
    `index on disk: ${(bytes / 2 ** 20).toFixed(1)} MiB = ${(out.bytesPer100k / 2 ** 20).toFixed(1)} MiB per 100k chunks`,
  );
  console.log(
    `mean candidates per question: ${out.meanCandidates} (questions skip the ${skipCommon} most frequent words)`,
  );
  console.log(
    `hybrid: median ${out.hybridMs.median.toFixed(1)} ms, p95 ${out.hybridMs.p95.toFixed(1)} ms (${out.hybridMs.n} questions)`,
  );
  console.log(
    `keyword-only: median ${out.keywordOnlyMs.median.toFixed(1)} ms, p95 ${out.keywordOnlyMs.p95.toFixed(1)} ms`,
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
