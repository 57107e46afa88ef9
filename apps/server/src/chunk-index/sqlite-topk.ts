/**
 * Keyword-only top-k on the SQLite index without scoring every match (API.md §19.3 ranking, unchanged):
 * MaxScore over the block-max postings of sqlite-postings.ts, term at a time.
 * - Term clauses are scored from the postings with FTS5's bm25() reproduced exactly (k1 1.2, b 0.75,
 *   idf log((N − n + 0.5)/(n + 0.5)) clamped at 1e-6, N and avgdl from FTS5's own totals, n the
 *   term's rows in the whole table), so a row's text score is the one the exhaustive statement sums.
 * - Phrase/proximity clauses (and tokens FTS5 splits into several terms) are scored by FTS5 as before:
 *   a phrase matches few rows, and FTS5 alone knows positions.
 * - Terms go from the highest possible contribution down; while the rows not yet seen could still
 *   reach the current k-th best partial score, a term's postings are all read; after that, the
 *   remaining terms are only looked up for the rows that can still enter the top k (block bounds).
 * Every contribution is ≥ 0, so a partial score is a lower bound and pruning is exact.
 * Null when the request is not keyword-only BM25 (vector, rank features, minimum-should-match > 1,
 * postings not built): the caller runs the exhaustive statement. Experimental and off by default
 * (LECTERN_KEYWORD_POSTINGS, SqliteIndexOptions in sqlite-index.ts).
 */
import { type SearchRequest, type TextClause } from './chunk-index.js';
import { pushTerms } from './fts-terms.js';
import { minimumShouldMatchCount } from './query.js';
import { decodeBlock, postingsReady, readVarint, type DecodedBlock } from './sqlite-postings.js';
import {
  BM25_WEIGHTS,
  clauseExpression,
  matchString,
  PHRASE_BOOST_SCALE,
  type SearchEnv,
} from './sqlite-fts.js';

const K1 = 1.2;
const B = 0.75;
/** Relative slack of every pruning comparison: JS and SQLite may round a sum differently. */
const SLACK = 1e-9;

export interface TopRow {
  rid: number;
  ts: number;
}

interface Block {
  id: number;
  rid0: number;
  rid1: number;
  n: number;
  bound: number;
  data: DecodedBlock | null;
}

interface TermClause {
  index: number;
  term: string;
  boost: number;
  idf: number;
  blocks: Block[];
  ub: number;
}

/** Rows of FTS5 and its total tokens over every column (the averages record). */
function ftsTotals(env: SearchEnv): { rows: number; tokens: number } {
  const rec = env.statements.get('SELECT block FROM chunk_fts_data WHERE id = 1').pluck().get() as
    Buffer | undefined;
  if (!rec || rec.length === 0) return { rows: 0, tokens: 0 };
  let [rows, i] = readVarint(rec, 0);
  let tokens = 0;
  while (i < rec.length) {
    const [v, next] = readVarint(rec, i);
    tokens += v;
    i = next;
  }
  if (rows < 0) rows = 0;
  return { rows, tokens };
}

/** FTS5's term frequency factor, in its operation order (fts5_aux.c). */
function bm25Factor(tf: number, dl: number, avgdl: number): number {
  return (tf * (K1 + 1.0)) / (tf + K1 * (1 - B + (B * dl) / avgdl));
}

/** The single FTS term a term clause searches, or null when FTS5 sees a phrase. */
function ftsTermOf(c: TextClause): string | null {
  if (!(c.kind === 'term' || c.tokens.length === 1)) return null;
  const out: string[] = [];
  pushTerms(c.tokens[0], out);
  return out.length === 1 ? out[0] : null;
}

function inRanges(rid: number, ranges: Array<[number, number]>): boolean {
  for (const [lo, hi] of ranges) if (rid >= lo && rid <= hi) return true;
  return false;
}

/** Index of the last block with rid0 ≤ rid, or −1. */
function blockOf(blocks: Block[], rid: number): number {
  let lo = 0;
  let hi = blocks.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (blocks[mid].rid0 <= rid) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

function indexIn(rids: Float64Array, rid: number): number {
  let lo = 0;
  let hi = rids.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = rids[mid];
    if (v === rid) return mid;
    if (v < rid) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** SQLite's SUM() of doubles (Kahan–Babuška–Neumaier, func.c), over the clause parts in order. */
export function sqliteSum(parts: Float64Array): number {
  let sum = 0;
  let err = 0;
  for (let i = 0; i < parts.length; i++) {
    const r = parts[i];
    if (r === 0) continue;
    const t = sum + r;
    if (Math.abs(sum) > Math.abs(r)) err += sum - t + r;
    else err += r - t + sum;
    sum = t;
  }
  return Number.isFinite(err) ? sum + err : sum;
}

interface Candidate {
  parts: Float64Array;
  partial: number;
}

/** k-th largest partial score (−∞ with fewer than k candidates). */
function kthPartial(cands: Map<number, Candidate>, k: number): number {
  if (cands.size < k) return -Infinity;
  const all = new Float64Array(cands.size);
  let i = 0;
  for (const c of cands.values()) all[i++] = c.partial;
  all.sort();
  return all[all.length - k];
}

/** True when the request can use the postings (see the header). */
export function topKApplies(env: SearchEnv, req: SearchRequest, rankFeatures: boolean): boolean {
  if (req.vector || rankFeatures) return false;
  if ((req.textScoring ?? 'bm25') !== 'bm25') return false;
  if (req.tagWeights && Object.values(req.tagWeights).some((w) => Number.isFinite(w) && w !== 0))
    return false;
  if (minimumShouldMatchCount(req.text.minimumShouldMatch, req.text.groups) > 1) return false;
  return postingsReady(env.statements);
}

/**
 * The best `offset + limit` rows by text score (ts desc, rid asc), and the top score. `allowed`: rids
 * of the document filter, when there is one.
 */
export function topKByPostings(
  env: SearchEnv,
  req: SearchRequest,
  ranges: Array<[number, number]>,
): { rows: TopRow[]; max: number } {
  const k = Math.max(0, Math.trunc(req.offset)) + Math.max(0, Math.trunc(req.limit));
  const clauses = req.text.clauses;
  const { rows: nRow, tokens } = ftsTotals(env);
  const avgdl = tokens / nRow;
  const cands = new Map<number, Candidate>();
  const candidate = (rid: number): Candidate => {
    let c = cands.get(rid);
    if (!c) {
      c = { parts: new Float64Array(clauses.length), partial: 0 };
      cands.set(rid, c);
    }
    return c;
  };
  let allowed: Set<number> | null = null;
  if (req.filter.docIds && req.filter.docIds.length > 0) {
    const rids = env.statements
      .get('SELECT rid FROM chunk WHERE doc_id IN (SELECT value FROM json_each(?))')
      .pluck()
      .all(JSON.stringify(req.filter.docIds)) as number[];
    allowed = new Set(rids);
  }
  const ln = env.statements.get('SELECT ln(?)').pluck();
  const meta = env.statements.get(
    'SELECT rid0, rid1, n, max_tf, min_dl, id FROM chunk_post WHERE term = ? ORDER BY rid0',
  );
  const terms: TermClause[] = [];
  for (const [index, c] of clauses.entries()) {
    const boost = c.tokens.length > 1 ? c.boost * PHRASE_BOOST_SCALE : c.boost;
    const term = ftsTermOf(c);
    if (term === null) {
      // FTS5 scores this clause over all its rows, exactly as the exhaustive statement does.
      const st = env.statements.get(
        `SELECT rowid, bm25(chunk_fts, ${BM25_WEIGHTS}) * ? FROM chunk_fts WHERE chunk_fts MATCH ? AND rowid BETWEEN ? AND ?`,
      );
      const match = matchString(req.filter.docIds, clauseExpression(c));
      for (const [lo, hi] of ranges)
        for (const [rid, s] of st.raw().iterate(-boost, match, lo, hi) as IterableIterator<
          [number, number]
        >) {
          const cand = candidate(rid);
          cand.parts[index] += s;
          cand.partial += s;
        }
      continue;
    }
    let nHit = 0;
    const blocks: Block[] = [];
    const rowsOf = meta.raw().all(term) as Array<[number, number, number, number, number, number]>;
    for (const [, , n] of rowsOf) nHit += n;
    let idf = Number(ln.get((nRow - nHit + 0.5) / (nHit + 0.5)));
    if (!(idf > 0)) idf = 1e-6;
    let ub = 0;
    for (const [rid0, rid1, n, maxTf, minDl, id] of rowsOf) {
      if (!ranges.some(([lo, hi]) => rid1 >= lo && rid0 <= hi)) continue;
      const bound = idf * bm25Factor(maxTf, minDl, avgdl) * boost;
      ub = Math.max(ub, bound);
      blocks.push({ id, rid0, rid1, n, bound, data: null });
    }
    if (blocks.length > 0) terms.push({ index, term, boost, idf, blocks, ub });
  }
  const read = env.statements.get('SELECT data FROM chunk_post WHERE id = ?').pluck();
  const load = (t: TermClause, b: Block): DecodedBlock => {
    if (!b.data) b.data = decodeBlock(read.get(b.id) as Buffer, b.n);
    return b.data;
  };
  const score = (t: TermClause, blk: DecodedBlock, i: number) =>
    t.idf * bm25Factor(blk.tf[i], blk.dl[i], avgdl) * t.boost;
  terms.sort((a, b) => b.ub - a.ub);
  let rem = terms.reduce((a, t) => a + t.ub, 0);
  let enumerate = true;
  for (const t of terms) {
    const theta = kthPartial(cands, k);
    if (enumerate && k > 0 && rem * (1 + SLACK) < theta) enumerate = false;
    if (enumerate) {
      for (const b of t.blocks) {
        const blk = load(t, b);
        for (let i = 0; i < b.n; i++) {
          const rid = blk.rids[i];
          if (!inRanges(rid, ranges) || (allowed && !allowed.has(rid))) continue;
          const cand = candidate(rid);
          const s = score(t, blk, i);
          cand.parts[t.index] += s;
          cand.partial += s;
        }
      }
    } else {
      for (const [rid, c] of cands) {
        if ((c.partial + rem) * (1 + SLACK) < theta) {
          cands.delete(rid);
          continue;
        }
        const at = blockOf(t.blocks, rid);
        if (at < 0 || t.blocks[at].rid1 < rid) continue;
        const blk = load(t, t.blocks[at]);
        const i = indexIn(blk.rids, rid);
        if (i < 0) continue;
        const s = score(t, blk, i);
        c.parts[t.index] += s;
        c.partial += s;
      }
    }
    rem -= t.ub;
  }
  const scored: TopRow[] = [];
  for (const [rid, c] of cands) scored.push({ rid, ts: sqliteSum(c.parts) });
  scored.sort((a, b) => b.ts - a.ts || a.rid - b.rid);
  return { rows: scored.slice(0, k), max: scored.length > 0 ? scored[0].ts : 0 };
}
