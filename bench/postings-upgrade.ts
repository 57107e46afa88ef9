/**
 * Upgrade time of a SQLite chunk index written without the block-max postings (sqlite-postings.ts):
 * copies the index of --dir to a temporary folder, drops the postings there, and times opening it
 * with the postings on (the one pass that builds them). Prints figures, asserts nothing; the index in --dir is untouched.
 *
 *   npx tsx bench/postings-upgrade.ts --dir /work/bench-data/sqlite-100k
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { SqliteChunkIndex } from '../apps/server/src/chunk-index/sqlite-index.js';
import { machine } from './lib/stats.js';

const args = process.argv.slice(2);
const i = args.indexOf('--dir');
if (i < 0) throw new Error('--dir <folder holding index.sqlite> is required');
const source = path.join(args[i + 1], 'index.sqlite');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-upgrade-'));
const file = path.join(tmp, 'index.sqlite');
try {
  // A consistent copy (WAL included) through SQLite's own backup.
  const src = new Database(source, { readonly: true, fileMustExist: true });
  await src.backup(file);
  src.close();
  const raw = new Database(file);
  raw.exec(
    'DROP TABLE IF EXISTS chunk_post; DROP TABLE IF EXISTS chunk_post_row; DROP TABLE IF EXISTS chunk_post_meta;',
  );
  raw.exec('VACUUM');
  raw.close();
  const load = os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
  const t = performance.now();
  const index = new SqliteChunkIndex(file, null, null, { keywordPostings: true });
  const seconds = (performance.now() - t) / 1000;
  const { chunks } = index.rowCounts();
  await index.close();
  console.log(`machine: ${machine()} (load average at start ${load})`);
  console.log(
    `${chunks} chunks: postings built in ${seconds.toFixed(1)} s on open (${Math.round(chunks / seconds)} chunks/s), peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`,
  );
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
