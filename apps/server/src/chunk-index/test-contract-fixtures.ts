/**
 * Fixtures of the chunk-index contract suite (chunk-index.contract.test.ts; not a test file itself):
 * the adapters under test, a deterministic corpus that exercises every part of the query (weighted
 * fields, common and rare words, CJK, graph records, disabled chunks, tags, page rank, vectors), and
 * the comparison of two engines' results that allows ties to come in either order.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { expect } from 'vitest';
import type { ChunkIndex, ChunkRecord } from './chunk-index.js';
import { SqliteChunkIndex } from './sqlite-index.js';
import { PgChunkIndex } from './pg-index.js';

export interface OpenedIndex {
  index: ChunkIndex;
  /** Chunk rows and vector rows stored (both engines keep them in step with the records). */
  counts(): Promise<{ chunks: number; vectors: number }>;
  close(): Promise<void>;
}

export interface Adapter {
  name: string;
  open(): Promise<OpenedIndex>;
}

export const sqliteAdapter: Adapter = {
  name: 'sqlite',
  async open() {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-contract-'));
    const index = new SqliteChunkIndex(path.join(dir, 'index.sqlite'));
    return {
      index,
      counts: async () => {
        const c = index.rowCounts();
        expect(c.fts).toBe(c.chunks);
        return { chunks: c.chunks, vectors: c.vectors };
      },
      close: async () => {
        await index.close();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  },
};

/** A database of its own for the suite (dropped by `drop`), as test/harness.ts makes them. */
export async function createTestDatabase(baseUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `lectern_ci_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: baseUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/** Removes the index's tables, so the next open starts empty. */
async function dropIndexTables(url: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const tables = await c.query<{ relname: string }>(
    "SELECT relname FROM pg_class WHERE relkind = 'r' AND relname LIKE 'lectern\\_chunk%' AND relnamespace = current_schema()::regnamespace",
  );
  for (const t of tables.rows) await c.query(`DROP TABLE IF EXISTS ${t.relname} CASCADE`);
  await c.query('DROP SEQUENCE IF EXISTS lectern_chunk_kb_slot');
  await c.end();
}

export function postgresAdapter(url: () => string): Adapter {
  return {
    name: 'postgres',
    async open() {
      await dropIndexTables(url());
      const index = await PgChunkIndex.open(url());
      return { index, counts: () => index.rowCounts(), close: () => index.close() };
    },
  };
}

const ENGLISH = [
  'retrieval',
  'index',
  'vector',
  'ranking',
  'engine',
  'query',
  'document',
  'chunk',
  'search',
  'model',
  'harbor',
  'violin',
  'granite',
  'meadow',
  'lantern',
  'copper',
  'orchard',
  'glacier',
  'saddle',
  'thimble',
  'quasar',
  'nebula',
  'falcon',
  'walnut',
  'cedar',
  'plum',
  'kiwi',
  'quince',
  'papaya',
  'mango',
  'running',
  'runs',
  'studies',
  'studying',
  'covid-19',
  'v2.5',
  'C++',
  'e-mail',
  'naïve',
  'café',
];
const CHINESE = [
  '人工智能正在改变世界',
  '中华人民共和国成立于1949年',
  '机器学习和深度学习是人工智能的分支',
  '北京是中国的首都',
  '自然语言处理技术发展迅速',
  '向量检索与全文检索结合',
  '知识图谱用于推理',
];
const TITLES = [
  'Engine Manual.pdf',
  'Orchard notes.docx',
  '人工智能报告.pdf',
  'glacier survey.txt',
  'misc.md',
  'vector guide.html',
];

function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Index of a Zipf-like draw over `n` items (the first ones are common). */
function zipf(rnd: () => number, n: number): number {
  return Math.min(n - 1, Math.floor(Math.pow(rnd(), 2.2) * n));
}

/** The contract corpus: 2 KBs, 6 documents, ~360 chunks (deterministic). */
export function contractCorpus(seed = 7): ChunkRecord[] {
  const rnd = prng(seed);
  const out: ChunkRecord[] = [];
  for (let i = 0; i < 360; i++) {
    const doc = i % 6;
    const kb = doc < 4 ? 'kba' : 'kbb';
    const cjk = doc === 2 || i % 11 === 0;
    const words = Array.from(
      { length: 6 + Math.floor(rnd() * 30) },
      () => ENGLISH[zipf(rnd, ENGLISH.length)],
    );
    const text = cjk
      ? `${CHINESE[i % CHINESE.length]}，${CHINESE[(i * 3) % CHINESE.length]} ${words.slice(0, 4).join(' ')}`
      : words.join(' ');
    const tags = i % 5 === 0 ? ['alpha', i % 2 ? 'beta' : 'Gamma'] : [];
    out.push({
      id: `k${i.toString(16).padStart(15, '0')}`,
      doc_id: `doc${doc}`,
      kb_id: kb,
      tenant_id: 't1',
      docnm_kwd: TITLES[doc],
      content_with_weight: text,
      important_kwd: i % 7 === 0 ? [ENGLISH[(i * 5) % ENGLISH.length], 'key phrase'] : [],
      question_kwd: i % 9 === 0 ? [`What about the ${ENGLISH[(i * 3) % ENGLISH.length]} engine?`] : [],
      tag_kwd: tags,
      tag_feas: tags.length ? { alpha: 1 + (i % 4), beta: i % 3 } : {},
      img_id: '',
      positions: [[1 + Math.floor(i / 40), 10, 200, (i * 37) % 700, ((i * 37) % 700) + 20]],
      available_int: i % 13 === 0 ? 0 : 1,
      // Equal times in groups of 4: listings break those ties by row id.
      create_time: 1_700_000_000_000 + Math.floor(i / 4),
      doc_type_kwd: i % 17 === 0 ? 'table' : null,
      mom_id: null,
      pagerank_fea: kb === 'kbb' ? 3 : 0,
      knowledge_graph_kwd: i % 19 === 0 ? 'entity' : null,
      token_num: words.length,
      // Every chunk has a vector: the SQLite index cannot score a candidate without one in a hybrid
      // search (sqlite-vec's distance of NULL is an error), the PostgreSQL index gives it no vector part.
      vector: Array.from({ length: 8 }, (_, d) => Math.sin(i * 0.37 + d * 1.7) + (d === doc ? 0.8 : 0)),
    });
  }
  return out;
}

/** Questions of the contract: common and rare words, pairs, stemming, symbols, CJK, stop words only. */
export const CONTRACT_QUESTIONS = [
  'retrieval index',
  'vector ranking engine',
  'harbor violin granite',
  'quasar',
  'walnut cedar plum kiwi',
  'running studies',
  'covid-19 v2.5 C++',
  'naïve café e-mail',
  'engine manual',
  'key phrase orchard',
  'what about the engine',
  '人工智能',
  '机器学习 人工智能 分支',
  '中华人民共和国',
  '向量检索',
  'the of and',
  'nonexistentword',
];

export const queryVector = (i: number) => Array.from({ length: 8 }, (_, d) => Math.cos(i * 0.9 + d * 0.6));
