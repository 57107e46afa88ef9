/**
 * Structured-query cost over a table KB (API.md §19.7): indexes `--rows` row chunks with typed fields
 * (name_tks, price_flt, stock_long, released_dt, color_kwd) into the chunk index, then per question
 * times what the chat pays besides the model: reading the rows from the index (`loadTableRows`) and
 * building the throwaway in-memory database + running the statement in the table-SQL worker thread
 * (`TableSqlRunner.query`), for a filter, an aggregate and a sorted listing. No model is called.
 * Prints median/p95 per part and the machine; never asserts a time.
 *
 *   npx tsx bench/table-sql.ts [--rows 10000] [--queries 30] [--store sqlite|postgres]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadConfig } from '../apps/server/src/config.js';
import { createRoot, closeRoot } from '../apps/server/src/root.js';
import type { ChunkRecord } from '../apps/server/src/chunk-index/chunk-index.js';
import {
  loadTableRows,
  MAX_RESULT_ROWS,
  TableSqlRunner,
  type TableSchema,
} from '../apps/server/src/search/table-sql/table-query.js';
import { machine, summarize } from './lib/stats.js';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
}
const ROWS = Number(arg('rows', '10000'));
const QUERIES = Number(arg('queries', '30'));
const STORE = arg('store', 'sqlite');

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-tablesql-'));
const env: Record<string, string> = {
  LOG_LEVEL: 'silent',
  LECTERN_DATA_DIR: dataDir,
  LECTERN_SECRET_KEY: 'bench',
  MODEL_VERIFY: '0',
};
if (STORE === 'postgres')
  env.DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const ctx = await createRoot(loadConfig(env));
const runner = new TableSqlRunner();
try {
  const kbId = 'tablesqlbenchkb00000000000000000';
  const colors = ['red', 'green', 'blue', 'black', 'white'];
  const schema: TableSchema = {
    kbIds: [kbId],
    fieldMap: {
      name_tks: 'Name',
      price_flt: 'Price',
      stock_long: 'Stock',
      released_dt: 'Released',
      color_kwd: 'Color(red,green,blue,black,white)',
    },
  };
  const t0 = performance.now();
  for (let start = 0; start < ROWS; start += 1000) {
    const batch: ChunkRecord[] = [];
    for (let i = start; i < Math.min(ROWS, start + 1000); i++) {
      const extra = {
        name_tks: `item ${i}`,
        price_flt: ((i * 37) % 1000) + 0.5,
        stock_long: (i * 13) % 200,
        released_dt: `20${10 + (i % 15)}-0${1 + (i % 9)}-1${i % 10} 00:00:00`,
        color_kwd: [colors[i % colors.length]],
      };
      batch.push({
        id: `row${String(i).padStart(13, '0')}`,
        doc_id: `doc${String(Math.floor(i / 3000)).padStart(29, '0')}`,
        kb_id: kbId,
        tenant_id: 'bench',
        docnm_kwd: `sheet-${Math.floor(i / 3000)}.xlsx`,
        content_with_weight: Object.entries(extra)
          .map(([k, v]) => `${k}: ${String(v)}`)
          .join('\n'),
        important_kwd: [],
        question_kwd: [],
        tag_kwd: [],
        tag_feas: {},
        img_id: '',
        positions: [],
        available_int: 1,
        create_time: Date.now(),
        doc_type_kwd: null,
        mom_id: null,
        pagerank_fea: 0,
        vector: null,
        extra,
      });
    }
    await ctx.chunkIndex.upsert(batch);
  }
  const buildS = (performance.now() - t0) / 1000;
  const statements = [
    "SELECT name_tks, price_flt FROM kb_rows WHERE color_kwd = 'blue' AND price_flt < 100",
    'SELECT color_kwd, count(*), avg(price_flt) FROM kb_rows GROUP BY color_kwd',
    "SELECT name_tks, stock_long FROM kb_rows WHERE released_dt >= '2020-01-01' ORDER BY stock_long DESC LIMIT 20",
  ];
  const load: number[] = [];
  const run: number[] = [];
  const total: number[] = [];
  let rowsSeen = 0;
  for (let q = 0; q < QUERIES + 3; q++) {
    const a = performance.now();
    const rows = await loadTableRows(ctx, schema);
    const b = performance.now();
    if (!rows) throw new Error('more rows than MAX_TABLE_ROWS');
    const out = await runner.query({
      table: 'kb_rows',
      fields: Object.keys(schema.fieldMap),
      rows,
      sql: statements[q % statements.length],
      maxRows: MAX_RESULT_ROWS,
    });
    const c = performance.now();
    if (!out.ok) throw new Error(out.error);
    rowsSeen = rows.length;
    if (q >= 3) {
      load.push(b - a);
      run.push(c - b);
      total.push(c - a);
    }
  }
  console.log(`table KB on ${STORE}: ${rowsSeen} rows indexed in ${buildS.toFixed(1)} s`);
  for (const [name, xs] of [
    ['read rows from the index', load],
    ['build in-memory db + run statement (worker)', run],
    ['total per question (no model)', total],
  ] as const) {
    const s = summarize(xs);
    console.log(`  ${name}: ${s.n} questions, median ${s.median.toFixed(1)} ms, p95 ${s.p95.toFixed(1)} ms`);
  }
  console.log(
    `machine: ${machine()}; load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
} finally {
  await runner.close();
  await closeRoot(ctx);
  fs.rmSync(dataDir, { recursive: true, force: true });
}
