/**
 * Bulk indexing throughput of the SQLite chunk index, tokenization included (target ≥ 10,000 chunks/s):
 * - `upsertSync` on one thread (tokenize, then write, batch after batch);
 * - `upsert` as the server runs it (search/create-index.ts): records tokenized on the index's tokenizer
 *   thread while this thread writes, with `--in-flight` batches awaited together as concurrent ingestion
 *   tasks do.
 *
 * `--store postgres` measures the PostgreSQL index (tsvector + pgvector, database `lectern_bench_bulk`,
 * emptied first; the first mode writes one batch at a time, tokenizing inline), `--store both` each.
 *
 *   npx tsx bench/index-bulk.ts [--chunks 50000] [--batch 1000] [--in-flight 2]
 *                               [--store sqlite|postgres|both] [--pg-url postgres://…] [--json]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { tokenFields } from '../apps/server/src/chunk-index/fields.js';
import { machine } from './lib/stats.js';
import { openStore, pgBaseUrl, storesFromArgs, type StoreName } from './lib/stores.js';
import { SyntheticCorpus } from './lib/synthetic.js';

const args = process.argv.slice(2);
const value = (name: string, fallback: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};

async function run(
  store: StoreName,
  withVectors: boolean,
  n: number,
  batch: number,
  inFlight: number | null,
) {
  const corpus = new SyntheticCorpus();
  const records = Array.from({ length: n }, (_, i) => corpus.chunk(i, 'bulkkb', withVectors));
  const chars = records.reduce((a, r) => a + r.content_with_weight.length, 0) / n;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-bulk-'));
  const s = await openStore(store, {
    dir,
    pgBase: pgBaseUrl(args),
    pgDatabase: 'lectern_bench_bulk',
    fresh: true,
    thread: inFlight !== null,
  });
  const index = s.index;
  try {
    // Warm-up: the tokenizer thread's start and the first statements are not part of the rate.
    await index.upsert([corpus.chunk(n, 'warmkb', withVectors)]);
    await index.upsert(Array.from({ length: 32 }, (_, i) => corpus.chunk(n + 1 + i, 'warmkb', withVectors)));
    await index.deleteByKb('warmkb');
    let t = performance.now();
    for (const r of records) tokenFields(r);
    const tokenizeMs = performance.now() - t;
    t = performance.now();
    if (inFlight === null) {
      for (let i = 0; i < n; i += batch) {
        if (s.upsertSync) s.upsertSync(records.slice(i, i + batch));
        else await index.upsert(records.slice(i, i + batch));
      }
    } else {
      const pending = new Set<Promise<void>>();
      for (let i = 0; i < n; i += batch) {
        const p = index.upsert(records.slice(i, i + batch)).finally(() => pending.delete(p));
        pending.add(p);
        if (pending.size >= inFlight) await Promise.race(pending);
      }
      await Promise.all(pending);
    }
    const totalMs = performance.now() - t;
    return {
      store,
      mode:
        inFlight === null
          ? s.upsertSync
            ? 'upsertSync'
            : 'upsert, one batch at a time, tokenized inline'
          : `upsert, tokenizer thread, ${inFlight} in flight`,
      vectors: withVectors ? corpus.dim : 0,
      chunks: n,
      charsPerChunk: Math.round(chars),
      tokenizeOnlyPerSecond: Math.round((n / tokenizeMs) * 1000),
      chunksPerSecond: Math.round((n / totalMs) * 1000),
      seconds: totalMs / 1000,
      bytesOnDisk: await s.bytes(),
    };
  } finally {
    await s.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const n = value('--chunks', 50_000);
const batch = value('--batch', 1000);
const inFlight = value('--in-flight', 2);
const results = [];
for (const store of storesFromArgs(args))
  for (const vectors of [false, true])
    for (const mode of [null, inFlight]) results.push(await run(store, vectors, n, batch, mode));
if (args.includes('--json')) {
  console.log(JSON.stringify({ machine: machine(), results }, null, 2));
} else {
  console.log(`machine: ${machine()}`);
  for (const r of results) {
    console.log(
      `${r.store}, ${r.mode}, ${r.vectors ? `with ${r.vectors}-dim vectors` : 'text only'}: ${r.chunks} chunks of ~${r.charsPerChunk} chars in batches of ${batch} → ${r.chunksPerSecond} chunks/s (tokenization alone ${r.tokenizeOnlyPerSecond}/s), ${(r.bytesOnDisk / 2 ** 20).toFixed(1)} MiB on disk`,
    );
  }
}
