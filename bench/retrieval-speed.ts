/**
 * Retrieval latency of `retrieve()` on a synthetic corpus (bench/lib/synthetic.ts) with 384-dim vectors:
 * hybrid with the retrieval_test defaults (size 30, vw 0.3, top_k 1024, threshold 0), query embedding
 * excluded (vectors are precomputed), plus keyword-only. An interrupted build resumes on the next run. Questions are 5 words drawn like corpus text. Targets: p95 < 50 ms at 100k chunks, < 200 ms
 * at 1M. Prints figures, asserts nothing. The index is kept in --dir so a rerun skips the build.
 *
 * `--store postgres` runs it on the PostgreSQL index (tsvector + pgvector, database `lectern_bench_<chunks>`
 * on the server of --pg-url / TEST_DATABASE_URL), `--store both` on each and prints them side by side.
 *
 *   npx tsx bench/retrieval-speed.ts [--chunks 100000] [--queries 200] [--skip-common 0] [--dir …]
 *                                    [--store sqlite|postgres|both] [--pg-url postgres://…] [--json]
 *                                    [--keyword-postings]
 *
 * `--keyword-postings`: the SQLite index with its experimental block-max postings (LECTERN_KEYWORD_POSTINGS);
 * without it an index in --dir that has them drops them, so A/B runs keep one --dir per setting.
 */
import os from 'node:os';
import path from 'node:path';
import { retrieve } from '../apps/server/src/search/retrieval.js';
import { machine, summarize, type Summary } from './lib/stats.js';
import { openStore, pgBaseUrl, storesFromArgs, type StoreName } from './lib/stores.js';
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
const keywordPostings = args.includes('--keyword-postings');

interface StoreRun {
  store: StoreName;
  buildSeconds: number | null;
  bytesOnDisk: number;
  meanCandidates: number;
  hybridMs: Summary;
  keywordOnlyMs: Summary;
}

async function runStore(name: StoreName): Promise<StoreRun> {
  const store = await openStore(name, {
    dir,
    pgBase: pgBaseUrl(args),
    pgDatabase: `lectern_bench_${chunks}`,
    fresh: false,
    thread: true,
    keywordPostings,
  });
  const index = store.index;
  const corpus = new SyntheticCorpus();
  let buildSeconds: number | null = null;
  const present = await store.chunks();
  if (present !== chunks) {
    // As the server writes (bench/index-bulk.ts): tokenized on the tokenizer thread, two batches in flight.
    const batch = 1000;
    // An interrupted build goes on where it stopped: the last two batches again (two were in flight,
    // and a rewrite of a chunk replaces it); the chunks drawn are new, from the same distribution.
    let from = 0;
    if (present < chunks) from = Math.max(0, Math.floor(present / batch) * batch - 2 * batch);
    else await index.deleteByKb(KB);
    if (from > 0 && !args.includes('--json'))
      console.log(`  ${name}: ${present} chunks kept, writing from ${from}`);
    const t = performance.now();
    let previous: Promise<void> = Promise.resolve();
    for (let i = from; i < chunks; i += batch) {
      const recs = [];
      for (let k = i; k < Math.min(chunks, i + batch); k++) recs.push(corpus.chunk(k, KB, true));
      const next = index.upsert(recs);
      await previous;
      previous = next;
      if (!args.includes('--json') && (i / batch) % 100 === 99)
        console.log(`  ${name}: built ${i + batch} chunks`);
    }
    await previous;
    buildSeconds = from > 0 ? null : (performance.now() - t) / 1000;
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
  const bytesOnDisk = await store.bytes();
  await store.close();
  return {
    store: name,
    buildSeconds,
    bytesOnDisk,
    meanCandidates: Math.round(candidates.reduce((a, b) => a + b, 0) / candidates.length),
    hybridMs: summarize(hybrid),
    keywordOnlyMs: summarize(keyword),
  };
}

async function main(): Promise<void> {
  const runs: StoreRun[] = [];
  for (const name of storesFromArgs(args)) runs.push(await runStore(name));
  const out = {
    machine: machine(),
    loadAverage: os.loadavg().map((x) => Number(x.toFixed(2))),
    chunks,
    skipCommon,
    runs: runs.map((r) => ({ ...r, bytesPer100k: Math.round((r.bytesOnDisk / chunks) * 100_000) })),
  };
  if (args.includes('--json')) {
    console.log(JSON.stringify(out, null, 2));
    return;
  }
  console.log(`machine: ${out.machine} (load average ${out.loadAverage.join(' ')})`);
  console.log(`${chunks} chunks, questions skip the ${skipCommon} most frequent words`);
  const cell = (s: string) => s.padStart(22);
  const row = (label: string, f: (r: StoreRun) => string) =>
    console.log(label.padEnd(28) + runs.map((r) => cell(f(r))).join(''));
  row('', (r) => r.store);
  row('build (chunks/s)', (r) =>
    r.buildSeconds === null
      ? 'kept'
      : `${Math.round(chunks / r.buildSeconds)} (${r.buildSeconds.toFixed(0)} s)`,
  );
  row('index size (MiB)', (r) => (r.bytesOnDisk / 2 ** 20).toFixed(1));
  row('mean candidates', (r) => String(r.meanCandidates));
  row('hybrid median / p95 (ms)', (r) => `${r.hybridMs.median.toFixed(1)} / ${r.hybridMs.p95.toFixed(1)}`);
  row(
    'keyword-only median / p95',
    (r) => `${r.keywordOnlyMs.median.toFixed(1)} / ${r.keywordOnlyMs.p95.toFixed(1)}`,
  );
  console.log(`(${runs[0]?.hybridMs.n ?? 0} questions per mode)`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
