/**
 * SciFact (BEIR test split) through Lectern's chunk index and `retrieve()`: one chunk per abstract
 * (the `one` chunk method: the whole document is one chunk; the document name is the title), the 300
 * test queries asked keyword-only, nDCG@10 and Recall@100 as BEIR computes them (binary gains,
 * log2 discount). The judgments are read only to score the ranked lists, never by the ranking.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ChunkRecord } from '../../apps/server/src/chunk-index/chunk-index.js';
import { retrieve } from '../../apps/server/src/search/retrieval.js';
import { SqliteChunkIndex } from '../../apps/server/src/chunk-index/sqlite-index.js';
import { hashedEmbedding } from './hashed-embedding.js';

export const SCIFACT_DIR =
  process.env.SCIFACT_DIR ?? path.resolve(import.meta.dirname, '../../../shared/data/scifact');

interface Doc {
  id: string;
  title: string;
  text: string;
}

export interface SciFactData {
  docs: Doc[];
  queries: Array<{ id: string; text: string }>;
  qrels: Map<string, Map<string, number>>;
}

function readJsonl<T>(file: string): T[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);
}

export function sciFactAvailable(dir = SCIFACT_DIR): boolean {
  return ['corpus.jsonl', 'queries.jsonl', 'qrels/test.tsv'].every((f) => fs.existsSync(path.join(dir, f)));
}

export function loadSciFact(dir = SCIFACT_DIR): SciFactData {
  const docs = readJsonl<{ _id: string; title: string; text: string }>(path.join(dir, 'corpus.jsonl')).map(
    (d) => ({
      id: d._id,
      title: d.title,
      text: d.text,
    }),
  );
  const qrels = new Map<string, Map<string, number>>();
  for (const line of fs.readFileSync(path.join(dir, 'qrels/test.tsv'), 'utf8').split('\n').slice(1)) {
    const [q, d, s] = line.split('\t');
    if (!q || !d) continue;
    if (!qrels.has(q)) qrels.set(q, new Map());
    qrels.get(q)!.set(d, Number(s));
  }
  const queries = readJsonl<{ _id: string; text: string }>(path.join(dir, 'queries.jsonl'))
    .filter((q) => qrels.has(q._id))
    .map((q) => ({ id: q._id, text: q.text }));
  return { docs, queries, qrels };
}

/**
 * A subset of `limit` documents: the relevant documents of test queries taken in file order until
 * they fill half of the subset, then other documents in corpus order; only queries whose relevant
 * documents are all inside are kept.
 */
export function subset(data: SciFactData, limit: number): SciFactData {
  if (limit >= data.docs.length) return data;
  const chosen = new Set<string>();
  const queries: SciFactData['queries'] = [];
  for (const q of data.queries) {
    const rel = [...data.qrels.get(q.id)!.keys()];
    if (chosen.size + rel.filter((d) => !chosen.has(d)).length > limit / 2) continue;
    for (const d of rel) chosen.add(d);
    queries.push(q);
  }
  for (const d of data.docs) {
    if (chosen.size >= limit) break;
    chosen.add(d.id);
  }
  return { docs: data.docs.filter((d) => chosen.has(d.id)), queries, qrels: data.qrels };
}

export function ndcgAt(ranked: string[], rel: Map<string, number>, k: number): number {
  let dcg = 0;
  ranked.slice(0, k).forEach((d, i) => {
    const g = rel.get(d) ?? 0;
    if (g > 0) dcg += g / Math.log2(i + 2);
  });
  const ideal = [...rel.values()].filter((g) => g > 0).sort((a, b) => b - a);
  let idcg = 0;
  ideal.slice(0, k).forEach((g, i) => (idcg += g / Math.log2(i + 2)));
  return idcg > 0 ? dcg / idcg : 0;
}

export function recallAt(ranked: string[], rel: Map<string, number>, k: number): number {
  const relevant = [...rel.entries()].filter(([, g]) => g > 0).map(([d]) => d);
  if (relevant.length === 0) return 0;
  const top = new Set(ranked.slice(0, k));
  return relevant.filter((d) => top.has(d)).length / relevant.length;
}

export interface SciFactRun {
  mode: 'keyword-only' | 'hybrid (hashed bag-of-words stand-in, not semantic)';
  docs: number;
  queries: number;
  ndcg10: number;
  /** nDCG@10 when the caller asks for a page of 10 (window W = 70 instead of 100). */
  ndcg10Page10: number;
  recall100: number;
  indexSeconds: number;
  queryMs: number[];
}

export interface SciFactOptions {
  dir?: string;
  limit?: number;
  hybrid?: boolean;
  /** Vector weight for the hybrid run (default 0.3, the retrieval_test default). */
  vectorWeight?: number;
}

const KB = 'scifact';

function records(docs: Doc[], hybrid: boolean): ChunkRecord[] {
  return docs.map((d) => ({
    id: `sf${d.id}`,
    doc_id: d.id,
    kb_id: KB,
    tenant_id: 'bench',
    docnm_kwd: d.title,
    content_with_weight: d.text,
    important_kwd: [],
    question_kwd: [],
    tag_kwd: [],
    tag_feas: {},
    img_id: '',
    positions: [],
    available_int: 1,
    create_time: 0,
    doc_type_kwd: null,
    mom_id: null,
    pagerank_fea: 0,
    vector: hybrid ? hashedEmbedding(`${d.title}\n${d.text}`) : null,
  }));
}

/** Indexes the (sub)set in a temporary index file and runs the test queries. */
export async function runSciFact(opts: SciFactOptions = {}): Promise<SciFactRun> {
  const all = loadSciFact(opts.dir);
  const data = opts.limit ? subset(all, opts.limit) : all;
  const hybrid = opts.hybrid === true;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-scifact-'));
  const index = new SqliteChunkIndex(path.join(dir, 'index.sqlite'));
  try {
    const t0 = performance.now();
    const recs = records(data.docs, hybrid);
    for (let i = 0; i < recs.length; i += 1000) index.upsertSync(recs.slice(i, i + 1000));
    const indexSeconds = (performance.now() - t0) / 1000;
    let ndcg = 0;
    let ndcg10 = 0;
    let recall = 0;
    const queryMs: number[] = [];
    for (const q of data.queries) {
      const rel = data.qrels.get(q.id)!;
      const common = {
        question: q.text,
        kbIds: [KB],
        queryVector: hybrid ? hashedEmbedding(q.text) : null,
        vectorSimilarityWeight: opts.vectorWeight ?? 0.3,
        similarityThreshold: 0,
      };
      const t = performance.now();
      const res = await retrieve(index, { ...common, size: 100, page: 1 });
      queryMs.push(performance.now() - t);
      const ranked = res.chunks.map((c) => c.doc_id);
      ndcg += ndcgAt(ranked, rel, 10);
      recall += recallAt(ranked, rel, 100);
      const top10 = await retrieve(index, { ...common, size: 10, page: 1 });
      ndcg10 += ndcgAt(
        top10.chunks.map((c) => c.doc_id),
        rel,
        10,
      );
    }
    const n = data.queries.length || 1;
    return {
      mode: hybrid ? 'hybrid (hashed bag-of-words stand-in, not semantic)' : 'keyword-only',
      docs: data.docs.length,
      queries: data.queries.length,
      ndcg10: ndcg / n,
      ndcg10Page10: ndcg10 / n,
      recall100: recall / n,
      indexSeconds,
      queryMs,
    };
  } finally {
    await index.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
