/**
 * The rows each clause of a full-text query matches in the PostgreSQL index, with the clause's score
 * per row, as the SQLite index scores them (search/sqlite-search.ts):
 * - presence: the clause's boost;
 * - BM25: boost · FTS5's bm25() of the clause, Σ over its phrases of
 *   idf · f·(k1+1) / (f + k1·(1 − b + b·dl/avgdl)) with k1 = 1.2, b = 0.75,
 *   idf = ln((N − n + 0.5)/(n + 0.5)) (1e-6 when not positive), f the column-weighted frequency,
 *   N and n counted over the whole index, avgdl its average row length. The expressions are FTS5's
 *   own, term for term, so both engines compute the same doubles.
 * Term and phrase clauses are one SELECT each over the GIN indexes; proximity groups (pg-near.ts) are
 * evaluated in Node over the positions of the rows holding all their terms, and enter the statement as
 * arrays.
 */
import type pg from 'pg';
import type { TextClause } from './chunk-index.js';
import { PHRASE_BOOST_SCALE } from './sqlite-search.js';
import { nearMatch, phrasePositions } from './pg-near.js';
import {
  allTermsQuery,
  anyQuery,
  clausePhrases,
  COARSE_RANK,
  COARSE_WEIGHTS,
  FINE_RANK,
  FINE_WEIGHTS,
  mayBeFine,
  phraseQuery,
} from './pg-text.js';

export const K1 = 1.2;
export const B = 0.75;

/** Positional parameters of one statement. */
export class Params {
  readonly values: unknown[] = [];
  add(value: unknown, cast?: string): string {
    this.values.push(value);
    return `$${this.values.length}${cast ? `::${cast}` : ''}`;
  }
}

/** A clause ready to run: its phrases, tsquery (term/phrase), boost and, with BM25, its phrases' counts. */
export interface PreparedClause {
  clause: TextClause;
  phrases: string[][];
  /** tsquery of a term or phrase clause; null for a proximity group or a clause without terms. */
  query: string | null;
  near: boolean;
  boost: number;
  /** Rows of the index holding each phrase (BM25 only). */
  hits?: number[];
  /** Whether its terms can be in the fine-grained fields (pg-text.ts `mayBeFine`). */
  fine: boolean;
}

export function prepareClause(c: TextClause): PreparedClause {
  const phrases = clausePhrases(c);
  const near = c.kind === 'near' && c.tokens.length > 1;
  return {
    clause: c,
    phrases,
    query: near ? null : phraseQuery(phrases[0]),
    near,
    boost: c.tokens.length > 1 ? c.boost * PHRASE_BOOST_SCALE : c.boost,
    fine: mayBeFine(phrases.flat()),
  };
}

/** BM25 inputs of a statement: N (rows) and average row length, as parameter references. */
export interface Bm25Refs {
  rows: string;
  avgdl: string;
}

/** Rows whose text matches tsquery `q` (the fine-grained fields only when `fine`). */
export function matchSql(q: string, fine: boolean): string {
  return fine ? `(tsv @@ ${q} OR tsv_sm @@ ${q})` : `tsv @@ ${q}`;
}

/** SQL of ln((N − n + 0.5)/(n + 0.5)), floored at 1e-6 as FTS5 does. */
function idfSql(rows: string, hits: string): string {
  const x = `ln(((${rows} - ${hits})::float8 + 0.5::float8) / (${hits}::float8 + 0.5::float8))`;
  return `(CASE WHEN ${x} <= 0 THEN 1e-6::float8 ELSE ${x} END)`;
}

/** FTS5's per-phrase BM25 term over a frequency expression `f` and row length `dl`. */
export function bm25TermSql(idf: string, f: string, avgdl: string): string {
  return `(${idf} * ((${f} * (${K1}::float8 + 1.0::float8)) / (${f} + ${K1}::float8 * (1.0::float8 - ${B}::float8 + ${B}::float8 * dl / ${avgdl}))))`;
}

/** The column-weighted frequency of a query in a row: the label weights summed by ts_rank_cd. */
function frequencySql(q: string, fine: boolean): string {
  const coarse = `round(${COARSE_RANK.scale}::float8 * ts_rank_cd('${COARSE_RANK.array}'::real[], tsv, ${q}))`;
  if (!fine) return `(${coarse})`;
  return `(${coarse} + COALESCE(round(${FINE_RANK.scale}::float8 * ts_rank_cd('${FINE_RANK.array}'::real[], tsv_sm, ${q})), 0))`;
}

/**
 * SELECT of (rid, s, g) for a term or phrase clause; `rare` (a tsquery reference) restricts it to the
 * rows the rare clauses found (a common clause with presence scoring).
 */
export function clauseSelect(
  p: Params,
  filter: string,
  pc: PreparedClause,
  group: number,
  bm25: Bm25Refs | null,
  rare: { query: string; fine: boolean } | null,
): string {
  const q = p.add(pc.query, 'tsquery');
  const where = `${filter} AND ${matchSql(q, pc.fine)}${rare ? ` AND ${matchSql(rare.query, rare.fine)}` : ''}`;
  if (!bm25)
    return `SELECT rid, ${p.add(pc.boost, 'float8')} AS s, ${group} AS g FROM lectern_chunk WHERE ${where}`;
  const idf = idfSql(bm25.rows, p.add(pc.hits![0], 'bigint'));
  return (
    `SELECT rid, ${p.add(pc.boost, 'float8')} * ${bm25TermSql(idf, 'f', bm25.avgdl)} AS s, ${group} AS g` +
    ` FROM (SELECT rid, dl, ${frequencySql(q, pc.fine)} AS f FROM lectern_chunk WHERE ${where}) x`
  );
}

/** tsquery of the rows any of the clauses match (null when none has terms). */
export function anyOfClauses(clauses: PreparedClause[]): { query: string; fine: boolean } | null {
  const withTerms = clauses.filter((c) => c.query);
  if (withTerms.length === 0) return null;
  return { query: anyQuery(withTerms.map((c) => c.query!)), fine: withTerms.some((c) => c.fine) };
}

interface PositionRow {
  rid: string | number;
  dl: number;
  sp: number;
  lexeme: string;
  positions: number[];
  weights: string[];
}

export interface NearRows {
  rids: number[];
  scores: number[];
}

/**
 * Rows matching a proximity group with their scores. `filter` is built on `p` (this statement's own);
 * with BM25, `idfs` are the phrases' idf (from SQL's ln) and `avgdl` the average row length.
 */
export async function nearRows(
  pool: pg.Pool,
  p: Params,
  filter: string,
  pc: PreparedClause,
  bm25: { idfs: number[]; avgdl: number } | null,
): Promise<NearRows> {
  const terms = pc.phrases.flat();
  const all = allTermsQuery(terms);
  if (!all) return { rids: [], scores: [] };
  const a = p.add(all, 'tsquery');
  const t = p.add([...new Set(terms)], 'text[]');
  const select = (col: string, sp: number) =>
    `SELECT c.rid, c.dl, ${sp} AS sp, u.lexeme, u.positions, u.weights FROM lectern_chunk c CROSS JOIN LATERAL unnest(c.${col}) u` +
    ` WHERE ${filter} AND c.${col} @@ ${a} AND u.lexeme = ANY(${t})`;
  const sql = pc.fine ? `${select('tsv', 0)} UNION ALL ${select('tsv_sm', 1)}` : select('tsv', 0);
  const res = await pool.query<PositionRow>(sql, p.values);
  // Per row and tsvector: positions per term and the label at each position.
  const spaces = new Map<
    string,
    { rid: number; dl: number; sp: number; byTerm: Map<string, number[]>; labels: Map<number, string> }
  >();
  for (const r of res.rows) {
    const key = `${r.rid}:${r.sp}`;
    let s = spaces.get(key);
    if (!s) {
      s = { rid: Number(r.rid), dl: r.dl, sp: r.sp, byTerm: new Map(), labels: new Map() };
      spaces.set(key, s);
    }
    s.byTerm.set(r.lexeme, r.positions.map(Number));
    r.positions.forEach((pos, i) => s.labels.set(Number(pos), r.weights[i]));
  }
  const nTerms = pc.phrases.map((ph) => ph.length);
  const slop = Math.max(0, Math.trunc(pc.clause.slop ?? 2));
  const freq = new Map<number, { dl: number; f: number[] }>();
  for (const s of spaces.values()) {
    const starts = pc.phrases.map((ph) => phrasePositions(ph, s.byTerm));
    const matched = nearMatch(starts, nTerms, slop);
    if (!matched) continue;
    const weights: Record<string, number> = s.sp === 0 ? COARSE_WEIGHTS : FINE_WEIGHTS;
    let row = freq.get(s.rid);
    if (!row) {
      row = { dl: s.dl, f: pc.phrases.map(() => 0) };
      freq.set(s.rid, row);
    }
    matched.forEach((instances, i) => {
      for (const pos of instances) row.f[i] += weights[s.labels.get(pos) ?? 'D'];
    });
  }
  const rids = [...freq.keys()];
  const scores = rids.map((rid) => {
    if (!bm25) return pc.boost;
    const { dl, f } = freq.get(rid)!;
    let score = 0;
    f.forEach((fi, i) => {
      score += bm25.idfs[i] * ((fi * (K1 + 1.0)) / (fi + K1 * (1 - B + (B * dl) / bm25.avgdl)));
    });
    return score * pc.boost;
  });
  return { rids, scores };
}

/** idf of each count, computed by PostgreSQL's ln() like the SQL-side scores. */
export async function idfsOf(pool: pg.Pool, rows: number, hits: number[]): Promise<number[]> {
  if (hits.length === 0) return [];
  const res = await pool.query<{ idf: number }>(
    `SELECT ${idfSql('$1::bigint', 'h')} AS idf FROM unnest($2::bigint[]) WITH ORDINALITY AS t(h, i) ORDER BY i`,
    [rows, hits],
  );
  return res.rows.map((r) => Number(r.idf));
}
