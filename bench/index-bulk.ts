/**
 * Bulk indexing throughput of the SQLite chunk index, tokenization included (target ≥ 10,000 chunks/s).
 *
 *   npx tsx bench/index-bulk.ts [--chunks 20000] [--batch 1000] [--json]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { tokenFields } from '../apps/server/src/search/fields.js';
import { SqliteChunkIndex } from '../apps/server/src/search/sqlite-index.js';
import { machine } from './lib/stats.js';
import { SyntheticCorpus } from './lib/synthetic.js';

const args = process.argv.slice(2);
const value = (name: string, fallback: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};

function run(withVectors: boolean, n: number, batch: number) {
  const corpus = new SyntheticCorpus();
  const records = Array.from({ length: n }, (_, i) => corpus.chunk(i, 'bulkkb', withVectors));
  const chars = records.reduce((a, r) => a + r.content_with_weight.length, 0) / n;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-bulk-'));
  const index = new SqliteChunkIndex(path.join(dir, 'index.sqlite'));
  try {
    let t = performance.now();
    for (const r of records) tokenFields(r);
    const tokenizeMs = performance.now() - t;
    t = performance.now();
    for (let i = 0; i < n; i += batch) index.upsertSync(records.slice(i, i + batch));
    const totalMs = performance.now() - t;
    return {
      vectors: withVectors ? corpus.dim : 0,
      chunks: n,
      charsPerChunk: Math.round(chars),
      tokenizeOnlyPerSecond: Math.round((n / tokenizeMs) * 1000),
      chunksPerSecond: Math.round((n / totalMs) * 1000),
      seconds: totalMs / 1000,
      bytesOnDisk: index.sizeOnDisk(),
    };
  } finally {
    void index.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const n = value('--chunks', 20_000);
const batch = value('--batch', 1000);
const results = [run(false, n, batch), run(true, n, batch)];
if (args.includes('--json')) {
  console.log(JSON.stringify({ machine: machine(), results }, null, 2));
} else {
  console.log(`machine: ${machine()}`);
  for (const r of results) {
    console.log(
      `${r.vectors ? `with ${r.vectors}-dim vectors` : 'text only'}: ${r.chunks} chunks of ~${r.charsPerChunk} chars in batches of ${batch} → ${r.chunksPerSecond} chunks/s (tokenization alone ${r.tokenizeOnlyPerSecond}/s), ${(r.bytesOnDisk / 2 ** 20).toFixed(1)} MiB on disk`,
    );
  }
}
