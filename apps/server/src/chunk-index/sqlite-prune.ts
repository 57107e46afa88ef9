/**
 * Keyword-only top-k without scoring every match (MaxScore over the query's clauses, SQLite index).
 *
 * Exhaustive BM25 (sqlite-search.ts `buildSearch`) calls FTS5's bm25() for every row of every clause:
 * a question with a word in half of a 100k-chunk KB costs ~50k bm25() calls (each reads the row's
 * instance lists and its `docsize` row) just to learn that those rows are not in the top 90.
 *
 * Every clause has an upper bound on what it can add to a row: FTS5 scores a phrase
 * idf·f·(k1+1)/(f + k1·(1−b+b·dl/avgdl)) < idf·(k1+1), so a clause adds less than
 * boost·(k1+1)·Σ idf over its phrases (`clauseBound`, idf from the phrase's row count N/n as FTS5
 * counts them). With the clauses sorted rarest first:
 * 1. the rare clauses (df under the common cutoff) are scored exhaustively: partial scores of the rows
 *    R1 they match, and θ = the `need`-th best partial score (a lower bound of the final `need`-th
 *    score: a partial score never exceeds the full one);
 * 2. the common clauses' bounds sum to `rest`; if rest < θ, a row matching only common clauses cannot
 *    reach the window, and a row of R1 whose partial + rest < θ cannot either. The others (R2) are
 *    the only rows that can;
 * 3. the full statement of the exhaustive path runs restricted to R2 through their `flt` row tokens
 *    (sqlite-schema.ts). `flt` weighs 0, so each clause scores every row of R2 to the same double as
 *    the exhaustive statement does, summed the same way: the window is the exhaustive window, ties
 *    ordered by the same keys (engine score, text score, rid). `matched` is counted separately (a
 *    walk of the postings without bm25()).
 * When rest ≥ θ, the next-rarest clause joins the rare ones (up to MAX_ATTEMPTS); when R2 is too large
 * for an OR of row tokens, or the request is not plain keyword BM25 (vector, rank features,
 * minimum-should-match over several groups, a deep window), the exhaustive path runs.
 */
import type { SearchRequest, TextClause } from './chunk-index.js';
import { minimumShouldMatchCount } from './query.js';
import { rowToken } from './sqlite-schema.js';
import {
  buildSearch,
  clauseHits,
  COMMON_CLAUSE_MAX_ROWS,
  COMMON_CLAUSE_SHARE,
  quote,
  scoredBoost,
  TEXT_COLUMN_SET,
  type EngineRow,
  type StatementCache,
} from './sqlite-search.js';

/** FTS5's bm25() k1 (fts5_aux.c). */
const K1 = 1.2;
/** Rows (R2) restricted by an OR of row tokens at most; past it the exhaustive statement is cheaper. */
export const MAX_PRUNED_ROWS = 2000;
/** Deepest window (offset + limit) served by pruning. */
export const MAX_PRUNED_WINDOW = 1000;
/** Splits tried (each moves one more clause to the rare side) before falling back. */
const MAX_ATTEMPTS = 3;
/** Relative slack on the bounds (rounding of the partial and full sums). */
const SLACK = 1e-9;

export interface PruneEnv {
  statements: StatementCache;
}

/** A SQLite varint (big-endian 7-bit groups, the 9th byte whole) at `at`. */
export function readVarint(b: Uint8Array, at: number): number {
  let v = 0;
  for (let i = 0; i < 9 && at + i < b.length; i++) {
    const byte = b[at + i];
    if (i === 8) return v * 256 + byte;
    v = v * 128 + (byte & 0x7f);
    if (!(byte & 0x80)) return v;
  }
  return v;
}

/** N as FTS5's bm25() reads it: the row count of the averages record. */
export function ftsRowCount(env: PruneEnv): number {
  const block = env.statements.get('SELECT block FROM chunk_fts_data WHERE id = 1').pluck().get() as
    Buffer | undefined;
  return block ? readVarint(block, 0) : 0;
}

/** The FTS5 phrases of a clause as bm25() sees them (a proximity group: one per token). */
function phrasesOf(c: TextClause): string[] {
  if (c.kind === 'near' && c.tokens.length > 1) return c.tokens.map(quote);
  return [quote(c.tokens.join(' '))];
}

/**
 * Upper bound of what a clause adds to a row: boost·(k1+1)·Σ idf(phrase), n counted over the whole
 * index within the token columns (as bm25() clones the phrase with its column filter; counting fewer
 * rows than it would only raises the bound).
 */
export function clauseBound(env: PruneEnv, c: TextClause, rows: number): number {
  const count = env.statements.get('SELECT COUNT(*) FROM chunk_fts WHERE chunk_fts MATCH ?').pluck();
  let idfs = 0;
  for (const p of phrasesOf(c)) {
    const n = Number(count.get(`${TEXT_COLUMN_SET} : (${p})`));
    const idf = Math.log((rows - n + 0.5) / (n + 0.5));
    idfs += idf <= 0 ? 1e-6 : idf;
  }
  return scoredBoost(c) * (K1 + 1) * idfs;
}

/** Whether a request may be pruned at all (plain keyword BM25, one group needed, a shallow window). */
export function prunable(req: SearchRequest): boolean {
  const need = req.offset + req.limit;
  const clauses = req.text.clauses;
  return (
    need > 0 &&
    need <= MAX_PRUNED_WINDOW &&
    clauses.length > 1 &&
    req.text.indexRows !== undefined &&
    clauses.every((c) => c.df !== undefined && c.boost > 0 && Number.isFinite(c.boost)) &&
    minimumShouldMatchCount(req.text.minimumShouldMatch, req.text.groups) === 1
  );
}

/**
 * The exhaustive window's engine rows (their `matched` not yet set), or null when pruning does not
 * apply or does not pay (the caller then runs the exhaustive statement).
 */
export function prunedWindow(
  env: PruneEnv,
  req: SearchRequest,
  ranges: Array<[number, number]>,
): EngineRow[] | null {
  if (!prunable(req)) return null;
  const need = req.offset + req.limit;
  const sorted = [...req.text.clauses].sort(
    (a, b) => (a.df ?? 0) - (b.df ?? 0) || b.tokens.length - a.tokens.length,
  );
  const cutoff = Math.min(COMMON_CLAUSE_SHARE * (req.text.indexRows ?? 0), COMMON_CLAUSE_MAX_ROWS);
  const first = Math.max(1, sorted.filter((c) => (c.df ?? 0) <= cutoff).length);
  const rows = ftsRowCount(env);
  const bounds = new Map<TextClause, number>();
  const boundOf = (c: TextClause) => {
    let b = bounds.get(c);
    if (b === undefined) bounds.set(c, (b = clauseBound(env, c, rows)));
    return b;
  };
  for (let k = first, attempt = 0; k < sorted.length && attempt < MAX_ATTEMPTS; k++, attempt++) {
    const rare = sorted.slice(0, k);
    const rest = sorted.slice(k).reduce((s, c) => s + boundOf(c), 0) * (1 + SLACK);
    const params: unknown[] = [];
    const hits = clauseHits(req, rare, ranges, params);
    const sql =
      `WITH hits(rid, s, g) AS MATERIALIZED (${hits}), m AS MATERIALIZED (SELECT rid, SUM(s) AS ts FROM hits GROUP BY rid),` +
      ' t AS (SELECT ts AS th FROM m ORDER BY ts DESC LIMIT 1 OFFSET ?)' +
      ` SELECT m.rid, m.ts, t.th FROM m, t WHERE m.ts + ? >= t.th * ${1 - SLACK}`;
    const found = env.statements
      .get(sql)
      .raw()
      .all(...params, need - 1, rest) as Array<[number, number, number]>;
    // Fewer than `need` rows match the rare clauses: the common ones must enumerate too.
    if (found.length === 0) continue;
    const theta = found[0][2];
    if (!(rest < theta * (1 - SLACK))) continue;
    if (found.length > MAX_PRUNED_ROWS) return null;
    const docs = env.statements
      .get('SELECT rid, doc_id FROM chunk WHERE rid IN (SELECT value FROM json_each(?))')
      .raw()
      .all(JSON.stringify(found.map((f) => f[0]))) as Array<[number, string]>;
    const tokens = docs.map(([rid, doc]) => rowToken(doc, rid));
    if (tokens.length === 0) return null;
    const plan = buildSearch(req, ranges, null, false, req.text.minimumShouldMatch, null, tokens);
    return env.statements.get(plan.sql).all(...plan.params) as EngineRow[];
  }
  return null;
}
