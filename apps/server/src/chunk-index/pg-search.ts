/**
 * The engine side of a search on PostgreSQL (API.md §19.3), statement for statement the SQLite
 * index's (search/sqlite-search.ts), so both return the same rows in the same order:
 * 1. each clause selects its rows in the filter (KB, partition kind for availability and graph
 *    records, documents) over the GIN indexes, scored by BM25 or presence (pg-clauses.ts); with a
 *    query vector, common clauses only score the rows the rarer ones found (`commonSplits`);
 * 2. scores are summed per row; rows below minimum-should-match drop out (the candidates);
 * 3. with a query vector, the best VECTOR_CANDIDATES_PER_K·top_k candidates by text get their cosine
 *    from pgvector (`<=>` on unit vectors), ranked; the top-K within the floor keep it;
 * 4. engine order = 0.05·text/max(text) + vector part + rank features (pagerank_fea, tag cosine·10),
 *    ties by text, then row id; one window is returned.
 * The cosine is exact for the candidates the contract picks, so no approximate (HNSW) index is read.
 */
import type pg from 'pg';
import type { ChunkFilter, SearchRequest, SearchResult } from './chunk-index.js';
import { minimumShouldMatchCount } from './query.js';
import { kindRange, rowToRecord, type ChunkRow } from './sqlite-schema.js';
import { commonSplits, VECTOR_CANDIDATES_PER_K, type ClauseSplit } from './sqlite-search.js';
import {
  anyOfClauses,
  clauseSelect,
  idfsOf,
  matchSql,
  nearRows,
  Params,
  prepareClause,
  type NearRows,
  type PreparedClause,
} from './pg-clauses.js';
import { RECORD_COLUMNS } from './pg-schema.js';
import type { PgStats } from './pg-stats.js';
import { vectorText } from './pg-vectors.js';

export interface PgSearchEnv {
  pool: pg.Pool;
  stats: PgStats;
  /** The vector table of a dimension when one exists. */
  vecTable(dim: number): Promise<string | null>;
}

interface EngineRow {
  rid: string | number;
  ts: number;
  cos: number | null;
  eng: number;
  matched: string | number;
  mx: number;
  /** With `countRare`: rows matching any of the rare clauses (before minimum-should-match). */
  rare_n?: string | number;
}

function textScoringOf(req: SearchRequest): 'bm25' | 'presence' {
  return req.textScoring ?? (req.vector ? 'presence' : 'bm25');
}

/** WHERE clause of the search filter (the SQLite index's rid ranges as plain predicates). */
export function searchFilter(p: Params, f: ChunkFilter): string {
  const [lo, hi] = kindRange(f.available, f.includeGraph, !!f.graphKinds);
  let sql = `kb_id = ANY(${p.add([...new Set(f.kbIds)], 'text[]')}) AND kind BETWEEN ${lo} AND ${hi}`;
  if (f.docIds && f.docIds.length > 0) sql += ` AND doc_id = ANY(${p.add(f.docIds, 'text[]')})`;
  return sql;
}

/** What one search needs beyond the request: BM25 statistics and the proximity groups' rows. */
interface Prepared {
  clauses: PreparedClause[];
  bm25: { rows: number; avgdl: number } | null;
  near: Map<PreparedClause, NearRows>;
}

async function prepare(env: PgSearchEnv, req: SearchRequest, bm25: boolean): Promise<Prepared> {
  const clauses = req.text.clauses.map(prepareClause);
  let stats: Prepared['bm25'] = null;
  if (bm25) {
    const totals = await env.stats.totals();
    stats = { rows: totals.rows, avgdl: totals.rows > 0 ? totals.tokens / totals.rows : 0 };
    await Promise.all(
      clauses.map(async (c) => {
        c.hits = await env.stats.phraseHits(c.phrases, totals.rows);
      }),
    );
  }
  const near = new Map<PreparedClause, NearRows>();
  for (const c of clauses.filter((x) => x.near)) {
    const idfs = stats ? await idfsOf(env.pool, stats.rows, c.hits!) : null;
    const p = new Params();
    const rows = await nearRows(
      env.pool,
      p,
      searchFilter(p, req.filter),
      c,
      stats && idfs ? { idfs, avgdl: stats.avgdl } : null,
    );
    near.set(c, rows);
  }
  return { clauses, bm25: stats, near };
}

/** The statement of one search (search/sqlite-search.ts `buildSearch`, same steps). */
function buildSearch(
  req: SearchRequest,
  prep: Prepared,
  vecTable: string | null,
  rankFeatures: boolean,
  split: { rare: PreparedClause[]; common: Set<PreparedClause> } | null,
  countRare = false,
): { sql: string; params: unknown[] } {
  const p = new Params();
  const filter = searchFilter(p, req.filter);
  const bm25 = prep.bm25
    ? { rows: p.add(prep.bm25.rows, 'bigint'), avgdl: p.add(prep.bm25.avgdl, 'float8') }
    : null;
  const rareQuery = split ? anyOfClauses(split.rare) : null;
  const rare = rareQuery ? { query: p.add(rareQuery.query, 'tsquery'), fine: rareQuery.fine } : null;
  const parts: string[] = [];
  prep.clauses.forEach((c) => {
    const group = c.clause.group;
    if (c.near) {
      const rows = prep.near.get(c)!;
      if (rows.rids.length === 0) return;
      parts.push(
        `SELECT unnest(${p.add(rows.rids, 'bigint[]')}) AS rid, unnest(${p.add(rows.scores, 'float8[]')}) AS s, ${group} AS g`,
      );
    } else if (c.query) {
      const common = split?.common.has(c) ?? false;
      if (common && !rare) return;
      parts.push(clauseSelect(p, filter, c, group, bm25, common ? rare : null));
    }
  });
  if (parts.length === 0) parts.push('SELECT NULL::bigint AS rid, 0::float8 AS s, 0 AS g WHERE false');
  const need = minimumShouldMatchCount(req.text.minimumShouldMatch, req.text.groups);
  let sql = `WITH hits AS MATERIALIZED (${parts.join(' UNION ALL ')}), m AS (SELECT rid, SUM(s) AS ts FROM hits GROUP BY rid`;
  if (need > 1) sql += ` HAVING COUNT(DISTINCT g) >= ${p.add(need, 'int')}`;
  sql += ')';
  const vector = req.vector && vecTable ? req.vector : null;
  if (vector) {
    const n = Math.max(VECTOR_CANDIDATES_PER_K * Math.trunc(vector.topK), req.offset + req.limit);
    sql += `, c AS (SELECT rid, ts, MAX(ts) OVER () AS mx, COUNT(*) OVER () AS matched FROM m ORDER BY ts DESC, rid LIMIT ${p.add(n, 'bigint')})`;
    sql += `, v AS (SELECT c.rid, c.ts, c.mx, c.matched, 1 - (e.embedding <=> ${p.add(vectorText(vector.values), 'vector')}) AS cos FROM c LEFT JOIN ${vecTable} e ON e.rid = c.rid)`;
    sql +=
      ', r AS (SELECT rid, ts, cos, ROW_NUMBER() OVER (ORDER BY cos DESC NULLS LAST) AS rn, mx, matched FROM v)';
  } else {
    sql +=
      ', r AS (SELECT rid, ts, NULL::float8 AS cos, 0 AS rn, MAX(ts) OVER () AS mx, COUNT(*) OVER () AS matched FROM m)';
  }
  let vectorPart = '0';
  if (vector) {
    const topK = p.add(Math.max(0, Math.trunc(vector.topK)), 'bigint');
    const floor = p.add(vector.floor > 0 ? vector.floor : -2, 'float8');
    vectorPart = `CASE WHEN r.cos IS NOT NULL AND r.rn <= ${topK} AND r.cos >= ${floor} THEN r.cos ELSE 0 END`;
  }
  let rankPart = '0';
  let from = 'r';
  const tags = req.tagWeights
    ? Object.entries(req.tagWeights).filter(([, w]) => Number.isFinite(w) && w !== 0)
    : [];
  if (rankFeatures || tags.length > 0) {
    from = 'r JOIN lectern_chunk c ON c.rid = r.rid';
    rankPart = 'c.pagerank_fea';
    if (tags.length > 0) {
      const qnorm = Math.sqrt(tags.reduce((a, [, w]) => a + w * w, 0));
      const q = p.add(JSON.stringify(Object.fromEntries(tags)), 'jsonb');
      const num = (v: string) => `CASE WHEN jsonb_typeof(${v}) = 'number' THEN (${v})::float8 ELSE 0 END`;
      rankPart +=
        ` + CASE WHEN c.tag_norm > 0 THEN 10.0::float8 * (SELECT COALESCE(SUM(${num('j.value')} * ${num('q.value')}), 0)` +
        ` FROM jsonb_each(c.tag_feas::jsonb) j JOIN jsonb_each(${q}) q ON q.key = j.key) / (c.tag_norm * ${p.add(qnorm, 'float8')}) ELSE 0 END`;
    }
  }
  // With a split, every row of `hits` matches a rare clause (the common ones only score those rows).
  const rareCount = countRare && split ? ', (SELECT COUNT(DISTINCT rid) FROM hits) AS rare_n' : '';
  sql += ` SELECT r.rid, r.ts, r.cos, COALESCE(0.05::float8 * r.ts / NULLIF(r.mx, 0), 0) + ${vectorPart} + ${rankPart} AS eng, r.matched, r.mx${rareCount} FROM ${from}`;
  sql += ` ORDER BY eng DESC, r.ts DESC, r.rid LIMIT ${p.add(Math.max(0, Math.trunc(req.limit)), 'bigint')} OFFSET ${p.add(Math.max(0, Math.trunc(req.offset)), 'bigint')}`;
  return { sql, params: p.values };
}

async function hasRankFeatures(pool: pg.Pool, kbIds: string[]): Promise<boolean> {
  const res = await pool.query(
    'SELECT 1 FROM lectern_chunk WHERE kb_id = ANY($1::text[]) AND pagerank_fea <> 0 LIMIT 1',
    [kbIds],
  );
  return (res.rowCount ?? 0) > 0;
}

/** Rows matching any of the clauses in the filter (can the rare clauses fill the window alone?). */
async function countMatches(pool: pg.Pool, req: SearchRequest, clauses: PreparedClause[]): Promise<number> {
  const any = anyOfClauses(clauses);
  if (!any) return 0;
  const p = new Params();
  const filter = searchFilter(p, req.filter);
  const res = await pool.query<{ n: string }>(
    `SELECT COUNT(*)::text AS n FROM lectern_chunk WHERE ${filter} AND ${matchSql(p.add(any.query, 'tsquery'), any.fine)}`,
    p.values,
  );
  return Number(res.rows[0].n);
}

async function run(env: PgSearchEnv, plan: { sql: string; params: unknown[] }): Promise<EngineRow[]> {
  return (await env.pool.query<EngineRow>(plan.sql, plan.params)).rows;
}

/** Runs one search: engine rows of the window, then their chunk records. */
export async function executePgSearch(env: PgSearchEnv, req: SearchRequest): Promise<SearchResult> {
  const none: SearchResult = { hits: [], matched: 0, maxTextScore: 0 };
  if (req.filter.kbIds.length === 0 || req.text.clauses.length === 0 || req.limit <= 0) return none;
  const presence = textScoringOf(req) === 'presence';
  const vecTable = req.vector ? await env.vecTable(req.vector.values.length) : null;
  const [prep, rankFeatures] = await Promise.all([
    prepare(env, req, !presence),
    hasRankFeatures(env.pool, req.filter.kbIds),
  ]);
  const need = req.offset + req.limit;
  // As the SQLite index: the rare clauses must fill the window on their own (counted first, checked
  // again after minimum-should-match), else every clause enumerates. Proximity groups only come
  // with CJK questions, which carry no document frequencies and so never split.
  // The split's own statement counts the rare clauses' rows too (a separate count read every one of
  // them from the heap a second time); only when it returns no row is the count made apart.
  let split: { rare: PreparedClause[]; common: Set<PreparedClause> } | null = null;
  let rows: EngineRow[] | null = null;
  if (presence && !prep.clauses.some((c) => c.near)) {
    const byClause = new Map(prep.clauses.map((c) => [c.clause, c]));
    const toPrepared = (s: ClauseSplit) => ({
      rare: s.rare.map((c) => byClause.get(c)!),
      common: new Set(s.common.map((c) => byClause.get(c)!)),
    });
    for (const s of commonSplits(req.text)) {
      const candidate = toPrepared(s);
      // The count of the rows of `hits` is countMatches' when every rare clause reads the same
      // tsvectors (anyOfClauses reads the fine-grained one for all when one of them may be fine).
      const withTerms = candidate.rare.filter((c) => c.query);
      if (withTerms.every((c) => c.fine === withTerms[0].fine)) {
        const tried = await run(env, buildSearch(req, prep, vecTable, rankFeatures, candidate, true));
        if (tried.length > 0) {
          if (Number(tried[0].rare_n) >= need) {
            split = candidate;
            rows = tried;
            break;
          }
          continue;
        }
      }
      if ((await countMatches(env.pool, req, candidate.rare)) >= need) {
        split = candidate;
        break;
      }
    }
  }
  rows ??= split ? await run(env, buildSearch(req, prep, vecTable, rankFeatures, split)) : [];
  if (!split || rows.length === 0 || Number(rows[0].matched) < need)
    rows = await run(env, buildSearch(req, prep, vecTable, rankFeatures, null));
  if (rows.length === 0) {
    if (req.offset <= 0) return none;
    // The window is past the end: report how many matched all the same.
    const countReq: SearchRequest = { ...req, vector: null, tagWeights: null, offset: 0, limit: 1 };
    const countBm25 = textScoringOf(countReq) === 'bm25';
    const countPrep = countBm25 === !presence ? prep : await prepare(env, countReq, countBm25);
    const [row] = await run(env, buildSearch(countReq, countPrep, null, false, null));
    return { hits: [], matched: Number(row?.matched ?? 0), maxTextScore: row?.mx ?? 0 };
  }
  const records = await env.pool.query<ChunkRow>(
    `SELECT ${RECORD_COLUMNS} FROM lectern_chunk WHERE rid = ANY($1::bigint[])`,
    [rows.map((r) => r.rid)],
  );
  const byRid = new Map(records.rows.map((r) => [Number(r.rid), r]));
  const hits = rows.flatMap((r) => {
    const row = byRid.get(Number(r.rid));
    return row ? [{ chunk: rowToRecord(row), textScore: r.ts, cosine: r.cos, engineScore: r.eng }] : [];
  });
  return { hits, matched: Number(rows[0].matched), maxTextScore: rows[0].mx };
}
