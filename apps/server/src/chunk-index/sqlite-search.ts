/**
 * The engine side of a search on SQLite (API.md §19.3): one statement that
 * 1. runs every clause of the weighted full-text query as an FTS5 MATCH within the rowid range of
 *    each KB (availability and graph records are part of the range; documents are `flt` tokens),
 *    scoring each with FTS5's bm25() under the field weights, times the clause boost (with a query
 *    vector, presence only: then common clauses only score the rows the rarer ones found, see
 *    COMMON_CLAUSE_SHARE);
 * 2. sums the scores per row and keeps rows matching at least the minimum-should-match groups
 *    (these are the candidates: the vector never adds a row);
 * 3. adds cosine(query, chunk) from the `vec_<dim>` table, ranks candidates by it, and gives the
 *    vector part only to the top-K within the floor;
 * 4. orders by 0.05·text/max(text) + vector part + rank features (pagerank_fea, tag cosine·10)
 *    and returns one window of rows.
 *
 * Why plain `vec_<dim>` tables and not vec0: candidates are a subset chosen by the text match, so the
 * engine needs cosine for given rowids. Measured on this machine (100k×384, 20k candidates): vec0 point
 * reads 170–250 ms, vec0 KNN with `rowid IN (…)` 100–160 ms, a rowid-keyed blob table scored with
 * sqlite-vec's distance function 25–50 ms. vec0 has no ANN index in 0.1.x, so a KNN over the whole KB is a
 * scan either way (≈200 ms at 100k).
 *
 * The PostgreSQL adapter would do the same in one statement: `ts_rank_cd` per clause over a weighted
 * tsvector (setweight A–D per field group, or one tsvector column per field for exact weights) with
 * `@@ to_tsquery` (phrases `<->`, proximity `<N>`), the filters as plain `kb_id = ANY($1)` predicates on
 * an indexed column, and `1 - (embedding <=> $q)` from pgvector for the cosine (HNSW can serve the
 * top-K when the candidate set is large).
 */
import {
  type ChunkFilter,
  type FullTextQuery,
  type SearchRequest,
  type SearchResult,
  type TextClause,
} from './chunk-index.js';
import { minimumShouldMatchCount } from './query.js';
import { topKApplies, topKByPostings } from './sqlite-topk.js';
import {
  BM25_WEIGHTS,
  clauseExpression,
  matchString,
  PHRASE_BOOST_SCALE,
  type SearchEnv,
} from './sqlite-fts.js';

export {
  BM25_WEIGHTS,
  clauseExpression,
  matchString,
  PHRASE_BOOST_SCALE,
  quote,
  StatementCache,
  type SearchEnv,
} from './sqlite-fts.js';
import { kindRange, ridRange, rowToRecord, vectorBlob, type ChunkRow } from './sqlite-schema.js';

/** FTS5 expression matching any of the clauses. */
function anyOf(clauses: TextClause[]): string {
  return clauses.map((c) => `(${clauseExpression(c)})`).join(' OR ');
}

/** How a request scores text: its own choice, else presence with a query vector and BM25 without. */
function textScoringOf(req: SearchRequest): 'bm25' | 'presence' {
  return req.textScoring ?? (req.vector ? 'presence' : 'bm25');
}

/**
 * With a query vector, cosine is computed for the best `2·top_k` candidates by text relevance, not for
 * every candidate: a question of common words matches half of a large KB, and each cosine costs ≈2.7 µs
 * here (mostly the row lookup). Like Elasticsearch's `num_candidates` (1.5·k by default), this bounds the
 * vector work; rows outside keep only their text part (they are still candidates, never added by the
 * vector). 4·top_k cost 10 ms more at p95 on 100k chunks (bench/retrieval-speed.ts).
 */
export const VECTOR_CANDIDATES_PER_K = 2;

/**
 * Common clauses, as Lucene's CommonTermsQuery (Elasticsearch's `cutoff_frequency`) treats them: with
 * presence scoring (a query vector), a clause that may match more than this share of the index's rows
 * (or more than COMMON_CLAUSE_MAX_ROWS) does not enumerate candidates; it only adds its boost to the
 * rows the rarer clauses found, through an FTS5 `(rare…) AND common` query that seeks in the long
 * posting list instead of walking it. A question with a word found in most chunks otherwise walks tens
 * of thousands of postings per word (≈0.3 µs each here) before any vector is read. When the rare clauses cannot fill the window (or there are none),
 * the next-rarest clause joins them (commonSplits), down to enumerating every clause.
 */
export const COMMON_CLAUSE_SHARE = 0.05;
/** …and a clause in more rows than this is common whatever the index size (walking costs per row). */
export const COMMON_CLAUSE_MAX_ROWS = 10_000;

export interface ClauseSplit {
  rare: TextClause[];
  common: TextClause[];
}

/**
 * The splits to try, from the fewest enumerated clauses to the most: clauses by `df` ascending, first
 * those under the cutoff (at least one), then one more at a time. Empty when no `df` is known.
 */
export function commonSplits(text: FullTextQuery): ClauseSplit[] {
  const rows = text.indexRows ?? 0;
  if (rows <= 0 || text.clauses.some((c) => c.df === undefined)) return [];
  // On equal counts a phrase first: its `df` is only an upper bound.
  const sorted = [...text.clauses].sort(
    (a, b) => (a.df ?? 0) - (b.df ?? 0) || b.tokens.length - a.tokens.length,
  );
  const cutoff = Math.min(COMMON_CLAUSE_SHARE * rows, COMMON_CLAUSE_MAX_ROWS);
  const first = Math.max(1, sorted.filter((c) => (c.df ?? 0) <= cutoff).length);
  const splits: ClauseSplit[] = [];
  for (let k = first; k < sorted.length; k++)
    splits.push({ rare: sorted.slice(0, k), common: sorted.slice(k) });
  return splits;
}

export interface EngineRow {
  rid: number;
  ts: number;
  cos: number | null;
  eng: number;
  matched: number;
  mx: number;
}

export interface SearchPlan {
  sql: string;
  params: unknown[];
}

/**
 * Builds the statement. `vecTable` is the table of the query vector's dimension when it exists;
 * `rankFeatures` adds the pagerank/tag features (a join on `chunk` per candidate, so only when needed).
 */
export function buildSearch(
  req: SearchRequest,
  ranges: Array<[number, number]>,
  vecTable: string | null,
  rankFeatures: boolean,
  msm: number,
  split: ClauseSplit | null = null,
): SearchPlan {
  const params: unknown[] = [];
  const parts: string[] = [];
  const bm25 = textScoringOf(req) === 'bm25';
  if (bm25 && split) throw new Error('common clauses are only split with presence scoring');
  const score = bm25 ? `bm25(chunk_fts, ${BM25_WEIGHTS}) * ?` : '?';
  const rare = split ? anyOf(split.rare) : '';
  const common = new Set(split?.common);
  for (const c of req.text.clauses) {
    const boost = c.tokens.length > 1 ? c.boost * PHRASE_BOOST_SCALE : c.boost;
    const expr = common.has(c) ? `(${rare}) AND (${clauseExpression(c)})` : clauseExpression(c);
    const match = matchString(req.filter.docIds, expr);
    for (const [lo, hi] of ranges) {
      parts.push(
        `SELECT rowid AS rid, ${score} AS s, ? AS g FROM chunk_fts WHERE chunk_fts MATCH ? AND rowid BETWEEN ? AND ?`,
      );
      params.push(bm25 ? -boost : boost, c.group, match, lo, hi);
    }
  }
  const need = minimumShouldMatchCount(msm, req.text.groups);
  let sql = `WITH hits(rid, s, g) AS MATERIALIZED (${parts.join(' UNION ALL ')}), m AS (SELECT rid, SUM(s) AS ts FROM hits GROUP BY rid`;
  if (need > 1) {
    sql += ' HAVING COUNT(DISTINCT g) >= ?';
    params.push(need);
  }
  sql += ')';
  const vector = req.vector && vecTable ? req.vector : null;
  if (vector) {
    // Cosine for the best VECTOR_CANDIDATES_PER_K·top_k text candidates only (see the note above).
    sql +=
      ', c AS (SELECT rid, ts, MAX(ts) OVER () AS mx, COUNT(*) OVER () AS matched FROM m ORDER BY ts DESC, rid LIMIT ?)';
    params.push(Math.max(VECTOR_CANDIDATES_PER_K * Math.trunc(vector.topK), req.offset + req.limit));
    sql += `, v AS (SELECT c.rid, c.ts, c.mx, c.matched, 1 - vec_distance_cosine(e.embedding, ?) AS cos FROM c LEFT JOIN ${vecTable} e ON e.rid = c.rid)`;
    params.push(vectorBlob(vector.values));
    sql += ', r AS (SELECT rid, ts, cos, ROW_NUMBER() OVER (ORDER BY cos DESC) AS rn, mx, matched FROM v)';
  } else {
    sql +=
      ', r AS (SELECT rid, ts, NULL AS cos, 0 AS rn, MAX(ts) OVER () AS mx, COUNT(*) OVER () AS matched FROM m)';
  }
  let vectorPart = '0';
  if (vector) {
    vectorPart = 'CASE WHEN r.cos IS NOT NULL AND r.rn <= ? AND r.cos >= ? THEN r.cos ELSE 0 END';
  }
  let rankPart = '0';
  let from = 'r';
  const tags = req.tagWeights
    ? Object.entries(req.tagWeights).filter(([, w]) => Number.isFinite(w) && w !== 0)
    : [];
  if (rankFeatures || tags.length > 0) {
    from = 'r JOIN chunk c ON c.rid = r.rid';
    rankPart = 'c.pagerank_fea';
    if (tags.length > 0) {
      const qnorm = Math.sqrt(tags.reduce((a, [, w]) => a + w * w, 0));
      rankPart +=
        ' + CASE WHEN c.tag_norm > 0 THEN 10.0 * (SELECT TOTAL(j.value * q.value) FROM json_each(c.tag_feas) j' +
        ` JOIN json_each(?) q ON q.key = j.key) / (c.tag_norm * ${qnorm}) ELSE 0 END`;
    }
  }
  sql += ` SELECT r.rid AS rid, r.ts AS ts, r.cos AS cos, COALESCE(0.05 * r.ts / NULLIF(r.mx, 0), 0) + ${vectorPart} + ${rankPart} AS eng, r.matched AS matched, r.mx AS mx FROM ${from}`;
  if (vector) params.push(Math.max(0, Math.trunc(vector.topK)), vector.floor > 0 ? vector.floor : -2);
  if (tags.length > 0) params.push(JSON.stringify(Object.fromEntries(tags)));
  sql += ' ORDER BY eng DESC, r.ts DESC, r.rid LIMIT ? OFFSET ?';
  params.push(Math.max(0, Math.trunc(req.limit)), Math.max(0, Math.trunc(req.offset)));
  return { sql, params };
}

function hasRankFeatures(env: SearchEnv, kbIds: string[]): boolean {
  const max = env.statements.get('SELECT MAX(pagerank_fea) FROM chunk WHERE kb_id = ?').pluck();
  const min = env.statements.get('SELECT MIN(pagerank_fea) FROM chunk WHERE kb_id = ?').pluck();
  return kbIds.some((k) => Number(max.get(k) ?? 0) !== 0 || Number(min.get(k) ?? 0) !== 0);
}

/** Rowid ranges of the filter: one per known KB. */
function rangesOf(env: SearchEnv, f: ChunkFilter): Array<[number, number]> {
  const kinds = kindRange(f.available, f.includeGraph, !!f.graphKinds);
  return [...new Set(f.kbIds)].flatMap((k) => {
    const slot = env.slotOf(k);
    return slot === null ? [] : [ridRange(slot, kinds)];
  });
}

/** Rows matching any of the clauses, within the filter's ranges. */
function countMatches(
  env: SearchEnv,
  req: SearchRequest,
  ranges: Array<[number, number]>,
  clauses: TextClause[],
): number {
  const match = matchString(req.filter.docIds, anyOf(clauses));
  const st = env.statements
    .get('SELECT COUNT(*) FROM chunk_fts WHERE chunk_fts MATCH ? AND rowid BETWEEN ? AND ?')
    .pluck();
  return ranges.reduce((n, [lo, hi]) => n + Number(st.get(match, lo, hi)), 0);
}

/** Runs one search: engine rows of the window, then their chunk records. */
export function executeSearch(env: SearchEnv, req: SearchRequest): SearchResult {
  const none: SearchResult = { hits: [], matched: 0, maxTextScore: 0 };
  if (req.filter.kbIds.length === 0 || req.text.clauses.length === 0 || req.limit <= 0) return none;
  const ranges = rangesOf(env, req.filter);
  if (ranges.length === 0) return none;
  const vecTable = req.vector ? env.vecTable(req.vector.values.length) : null;
  const rankFeatures = hasRankFeatures(env, req.filter.kbIds);
  if (env.keywordPostings && topKApplies(env, req, rankFeatures)) return searchByPostings(env, req, ranges);
  const run = (split: ClauseSplit | null) => {
    const plan = buildSearch(req, ranges, vecTable, rankFeatures, req.text.minimumShouldMatch, split);
    return env.statements.get(plan.sql).all(...plan.params) as EngineRow[];
  };
  const presence = textScoringOf(req) === 'presence';
  const need = req.offset + req.limit;
  // The rare clauses must be able to fill the window on their own: counted first (a walk of their
  // postings only), and checked again after minimum-should-match; otherwise every clause enumerates.
  const split = presence
    ? commonSplits(req.text).find((s) => countMatches(env, req, ranges, s.rare) >= need)
    : undefined;
  let rows = split ? run(split) : [];
  if (!split || rows.length === 0 || rows[0].matched < need) rows = run(null);
  if (rows.length === 0) {
    if (req.offset <= 0) return none;
    // The window is past the end: report how many matched all the same.
    const count = buildSearch(
      { ...req, vector: null, tagWeights: null, offset: 0, limit: 1 },
      ranges,
      null,
      false,
      req.text.minimumShouldMatch,
    );
    const row = env.statements.get(count.sql).get(...count.params) as EngineRow | undefined;
    return { hits: [], matched: row?.matched ?? 0, maxTextScore: row?.mx ?? 0 };
  }
  return { hits: hitsOf(env, rows), matched: rows[0].matched, maxTextScore: rows[0].mx };
}

/** The chunk records of engine rows, in their order. */
function hitsOf(env: SearchEnv, rows: EngineRow[]): SearchResult['hits'] {
  const records = env.statements
    .get('SELECT * FROM chunk WHERE rid IN (SELECT value FROM json_each(?))')
    .all(JSON.stringify(rows.map((r) => r.rid))) as ChunkRow[];
  const byRid = new Map(records.map((r) => [r.rid, r]));
  return rows.flatMap((r) => {
    const row = byRid.get(r.rid);
    return row ? [{ chunk: rowToRecord(row), textScore: r.ts, cosine: r.cos, engineScore: r.eng }] : [];
  });
}

/** Keyword-only search through the block-max postings (sqlite-topk.ts); same rows as the statement. */
function searchByPostings(env: SearchEnv, req: SearchRequest, ranges: Array<[number, number]>): SearchResult {
  const { rows, max } = topKByPostings(env, req, ranges);
  const matched = countMatches(env, req, ranges, req.text.clauses);
  const offset = Math.max(0, Math.trunc(req.offset));
  const window: EngineRow[] = rows.slice(offset).map((r) => ({
    rid: r.rid,
    ts: r.ts,
    cos: null,
    // As the statement computes it: 0.05·text/max + vector part (0) + rank features (0).
    eng: (max !== 0 ? (0.05 * r.ts) / max : 0) + 0 + 0,
    matched,
    mx: max,
  }));
  if (window.length === 0) return { hits: [], matched, maxTextScore: matched > 0 ? max : 0 };
  return { hits: hitsOf(env, window), matched, maxTextScore: max };
}
