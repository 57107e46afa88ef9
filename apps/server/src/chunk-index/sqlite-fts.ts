/**
 * FTS5 pieces shared by the SQLite search statement (sqlite-search.ts) and the postings top-k
 * (sqlite-topk.ts): clause expressions, MATCH strings, bm25() column weights, prepared statements.
 */
import type Database from 'better-sqlite3';
import { FIELD_WEIGHTS, type TextClause } from './chunk-index.js';
import { idToken, TEXT_COLUMNS } from './sqlite-schema.js';

export const BM25_WEIGHTS = ['0', ...TEXT_COLUMNS.map((c) => String(FIELD_WEIGHTS[c]))].join(', ');
const TEXT_COLUMN_SET = `{${TEXT_COLUMNS.join(' ')}}`;

/** One token or phrase as an FTS5 string (double quotes doubled). */
export function quote(token: string): string {
  return `"${token.replace(/"/g, '""')}"`;
}

/** FTS5 expression of one clause (without filters). */
export function clauseExpression(c: TextClause): string {
  if (c.kind === 'term' || c.tokens.length === 1) return quote(c.tokens[0]);
  if (c.kind === 'phrase') return quote(c.tokens.join(' '));
  return `NEAR(${c.tokens.map(quote).join(' ')}, ${Math.max(0, Math.trunc(c.slop ?? 2))})`;
}

/**
 * Full MATCH string of one clause: the token fields only, inside the document filter when there is
 * one (the KB/availability/graph filters are rowid ranges, see sqlite-schema.ts).
 */
export function matchString(docIds: string[] | undefined, expr: string): string {
  const m = `${TEXT_COLUMN_SET} : (${expr})`;
  if (!docIds || docIds.length === 0) return m;
  return `flt : (${docIds.map((d) => idToken('d', d)).join(' OR ')}) AND ${m}`;
}

/**
 * FTS5 weighs a phrase by its own document count (a pair is much rarer than either word), where the
 * reference engine sums the words' idf; phrase and proximity clauses are scaled by this factor so that
 * a pair match does not drown the terms. Tuned on SciFact (see bench/retrieval-quality.ts): 1 → 0.640,
 * 0.25 → 0.685 nDCG@10 of the engine order; 0.125–0.25 is a flat optimum.
 */
export const PHRASE_BOOST_SCALE = 0.25;

/** Prepared statements by SQL text (queries differ only by their number of clauses). */
export class StatementCache {
  private readonly map = new Map<string, Database.Statement>();
  constructor(
    private readonly db: Database.Database,
    private readonly max = 256,
  ) {}

  get(sql: string): Database.Statement {
    let st = this.map.get(sql);
    if (st) {
      this.map.delete(sql);
      this.map.set(sql, st);
      return st;
    }
    st = this.db.prepare(sql);
    this.map.set(sql, st);
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value as string);
    return st;
  }

  clear(): void {
    this.map.clear();
  }
}

/** What executeSearch needs from the index. */
export interface SearchEnv {
  statements: StatementCache;
  slotOf(kbId: string): number | null;
  vecTable(dim: number): string | null;
  /** The index's block-max postings may serve keyword-only searches (SqliteIndexOptions). */
  keywordPostings: boolean;
}
