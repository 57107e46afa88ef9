/**
 * Index-wide statistics of the PostgreSQL chunk index, computed in SQL: rows and FTS5 tokens of the
 * whole index (BM25's N and average row length, from the sharded totals), and how many rows hold a
 * phrase (its document frequency: a term's from `lectern_chunk_df`, a longer phrase's a count over the
 * GIN indexes). Counts are cached like the SQLite
 * index caches them:
 * - for `termStats` (query term weights): DF_TTL_MS, or until this process wrote 1 % of the rows;
 * - for BM25's idf: until anything changes the row total or this process writes (FTS5 reads its
 *   counts afresh for every query), IDF_TTL_MS at most for other processes' in-place edits.
 */
import type pg from 'pg';
import { termCounts } from './pg-df.js';
import { mayBeFine, phraseQuery } from './pg-text.js';

const DF_TTL_MS = 60_000;
const IDF_TTL_MS = 10_000;
const CACHE_MAX = 100_000;

export interface Totals {
  rows: number;
  tokens: number;
}

interface CachedCount {
  n: number;
  at: number;
  writes: number;
  rows: number;
}

export class PgStats {
  /** Rows written by this process (invalidates cached counts). */
  writes = 0;
  private readonly dfCache = new Map<string, CachedCount>();
  private readonly idfCache = new Map<string, CachedCount>();

  constructor(private readonly pool: pg.Pool) {}

  noteWrites(n: number): void {
    this.writes += Math.max(1, n);
  }

  async totals(): Promise<Totals> {
    const res = await this.pool.query<{ rows: string | null; tokens: string | null }>(
      'SELECT SUM(rows)::text AS rows, SUM(tokens)::text AS tokens FROM lectern_chunk_totals',
    );
    return { rows: Number(res.rows[0]?.rows ?? 0), tokens: Number(res.rows[0]?.tokens ?? 0) };
  }

  /** Rows of the whole index holding the phrase (terms in a row) in a text field. */
  private async countPhrase(terms: string[]): Promise<number> {
    const q = phraseQuery(terms);
    if (!q) return 0;
    const where = mayBeFine(terms) ? 'tsv @@ $1::tsquery OR tsv_sm @@ $1::tsquery' : 'tsv @@ $1::tsquery';
    const res = await this.pool.query<{ n: string }>(
      `SELECT COUNT(*)::text AS n FROM lectern_chunk WHERE ${where}`,
      [q],
    );
    return Number(res.rows[0].n);
  }

  /** Rows holding each phrase: one-term phrases from the term counts (pg-df.ts), longer ones counted. */
  private async countPhrases(phrases: string[][]): Promise<number[]> {
    const single = phrases.flatMap((t, i) => (t.length === 1 ? [{ i, term: t[0], fine: mayBeFine(t) }] : []));
    const out = await Promise.all(phrases.map((t) => (t.length === 1 ? 0 : this.countPhrase(t))));
    const counts = await termCounts(this.pool, single);
    single.forEach((s, k) => (out[s.i] = counts[k]));
    return out;
  }

  /** Document frequency of each term for query weights (termStats). */
  async documentFrequencies(terms: string[][], rows: number): Promise<number[]> {
    const now = Date.now();
    return this.cached(
      terms,
      this.dfCache,
      (hit) => now - hit.at < DF_TTL_MS && Math.abs(this.writes - hit.writes) <= Math.max(50, rows / 100),
    ).then((r) => this.fill(r, this.dfCache, now, rows));
  }

  /** Rows holding each phrase, exact for the current index (BM25 idf, FTS5's nHit). */
  async phraseHits(phrases: string[][], rows: number): Promise<number[]> {
    const now = Date.now();
    return this.cached(
      phrases,
      this.idfCache,
      (hit) => hit.writes === this.writes && hit.rows === rows && now - hit.at < IDF_TTL_MS,
    ).then((r) => this.fill(r, this.idfCache, now, rows));
  }

  /** Counts from the cache where `fresh`, the others counted (all in one pass). */
  private async cached(
    phrases: string[][],
    cache: Map<string, CachedCount>,
    fresh: (hit: CachedCount) => boolean,
  ): Promise<{ phrases: string[][]; counts: Array<number | null>; counted: number[] }> {
    const counts = phrases.map((t) => {
      const hit = cache.get(t.join(' '));
      return hit && fresh(hit) ? hit.n : null;
    });
    const counted = await this.countPhrases(phrases.filter((_, i) => counts[i] === null));
    return { phrases, counts, counted };
  }

  private fill(
    r: { phrases: string[][]; counts: Array<number | null>; counted: number[] },
    cache: Map<string, CachedCount>,
    now: number,
    rows: number,
  ): number[] {
    let k = 0;
    return r.counts.map((c, i) => {
      if (c !== null) return c;
      const n = r.counted[k++];
      if (cache.size > CACHE_MAX) cache.clear();
      cache.set(r.phrases[i].join(' '), { n, at: now, writes: this.writes, rows });
      return n;
    });
  }
}
