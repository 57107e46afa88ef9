/**
 * Term statistics of the SQLite chunk index (rows in the index, document frequency per term) with
 * their caches: used by the index object on the main thread (termStats) and by the search threads
 * (sqlite-reader.ts), which plan a question's query there so that the API's event loop does none of it.
 * Caches are invalidated by the write count of the index object (`writes`): the main thread reads its
 * own; a search thread receives it with each request.
 */
import type { TermStats } from './chunk-index.js';
import { ridRange } from './sqlite-schema.js';
import { quote, type StatementCache } from './sqlite-search.js';

const TOTAL_TTL_MS = 5_000;
const DF_TTL_MS = 60_000;
/** Postings walked at most to count a term (termStats). */
const DF_COUNT_CAP = 20_000;
/** Cached terms at most (the cache is cleared past it). */
const DF_CACHE_MAX = 100_000;

export class SqliteTermStats {
  private total: { n: number; at: number } | null = null;
  private spans: { list: Array<[number, number]>; at: number } | null = null;
  private readonly dfCache = new Map<string, { df: number; at: number; writes: number }>();
  /** Write count the row total and spans were read at. */
  private seenWrites = 0;

  constructor(private readonly statements: StatementCache) {}

  /** Drops the row total and partition spans (after a write). */
  invalidate(): void {
    this.total = null;
    this.spans = null;
  }

  /** The write count moved since the last call: the cached total and spans are stale. */
  private observe(writes: number): void {
    if (writes !== this.seenWrites) {
      this.seenWrites = writes;
      this.invalidate();
    }
  }

  totalRows(writes = this.seenWrites): number {
    this.observe(writes);
    const now = Date.now();
    if (!this.total || now - this.total.at > TOTAL_TTL_MS) {
      this.total = { n: Number(this.statements.get('SELECT COUNT(*) FROM chunk').pluck().get()), at: now };
    }
    return this.total.n;
  }

  /** Lowest and highest rid of each non-empty partition (KB slot × kind), cached like totalRows. */
  private ridSpans(): Array<[number, number]> {
    const now = Date.now();
    if (this.spans && now - this.spans.at <= TOTAL_TTL_MS) return this.spans.list;
    const slots = this.statements.get('SELECT slot FROM kb_slot').pluck().all() as number[];
    const lowest = this.statements.get('SELECT MIN(rid) FROM chunk WHERE rid BETWEEN ? AND ?').pluck();
    const highest = this.statements.get('SELECT MAX(rid) FROM chunk WHERE rid BETWEEN ? AND ?').pluck();
    const list: Array<[number, number]> = [];
    for (const slot of slots)
      for (let kind = 0; kind < 4; kind++) {
        const [a, b] = ridRange(slot, [kind, kind]);
        const lo = lowest.get(a, b) as number | null;
        if (lo !== null) list.push([lo, highest.get(a, b) as number]);
      }
    this.spans = { list, at: now };
    return list;
  }

  private countTerm(term: string, total: number): number {
    const [n, last] = this.statements
      .get('SELECT COUNT(*), MAX(rowid) FROM (SELECT rowid FROM chunk_fts WHERE chunk_fts MATCH ? LIMIT ?)')
      .raw()
      .get(quote(term), DF_COUNT_CAP) as [number, number | null];
    if (n < DF_COUNT_CAP || last === null) return n;
    // Rows up to `last` out of all rows, reckoned from the partitions' rid spans (seq numbers are
    // dense: counting the rows themselves walks as far as the postings did).
    let all = 0;
    let upTo = 0;
    for (const [lo, hi] of this.ridSpans()) {
      all += hi - lo + 1;
      if (lo <= last) upTo += Math.min(hi, last) - lo + 1;
    }
    return Math.min(total, Math.round((n * all) / Math.max(n, upTo)));
  }

  /**
   * Document frequencies, cached per term for DF_TTL_MS or until 1 % of the rows changed. A term is
   * counted by walking its postings up to DF_COUNT_CAP rows (FTS5's vocabulary table walks all of them:
   * 16 ms for a word in 700k of 1M chunks); past the cap, its share of the rows up to the last one
   * counted is extrapolated to the whole index (idf is logarithmic: a few % off changes little).
   */
  termStats(tokens: string[], writes: number): TermStats {
    const df: Record<string, number> = {};
    const total = this.totalRows(writes);
    const now = Date.now();
    for (const t of new Set(tokens)) {
      const hit = this.dfCache.get(t);
      if (hit && now - hit.at < DF_TTL_MS && Math.abs(writes - hit.writes) <= Math.max(50, total / 100)) {
        df[t] = hit.df;
        continue;
      }
      df[t] = this.countTerm(t, total);
      if (this.dfCache.size > DF_CACHE_MAX) this.dfCache.clear();
      this.dfCache.set(t, { df: df[t], at: now, writes });
    }
    return { total, df };
  }
}
