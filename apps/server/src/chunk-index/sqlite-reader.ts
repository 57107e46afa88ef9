/**
 * A read-only connection to the SQLite chunk index for the search threads (sqlite-search.worker.ts):
 * searches run here instead of on the API's event loop. The file is in WAL mode, so readers never wait
 * for the writer (the index object on the main thread) and see every transaction it committed before
 * the search was sent; each search is one read transaction (one snapshot for its several statements).
 * Nothing derived from the data is cached across searches but the existence of vector tables (they are
 * never dropped) and the term statistics of query plans (sqlite-term-stats.ts, invalidated by the
 * writer's write count): KB slots are read per search (a deleted and re-created KB gets a new slot).
 */
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import type { SearchRequest, SearchResult } from './chunk-index.js';
import { executeSearch, StatementCache } from './sqlite-search.js';
import { SqliteTermStats } from './sqlite-term-stats.js';
import { planQuery, type PlanOptions, type QueryPlan } from './query.js';

export class SqliteIndexReader {
  private readonly db: Database.Database;
  private readonly statements: StatementCache;
  private readonly vecTables = new Set<number>();
  private readonly stats: SqliteTermStats;

  constructor(readonly file: string) {
    this.db = new Database(file, { readonly: true, fileMustExist: true });
    sqliteVec.load(this.db);
    this.db.pragma('cache_size = -65536');
    this.db.pragma('mmap_size = 8589934592');
    this.db.pragma('busy_timeout = 10000');
    this.statements = new StatementCache(this.db);
    this.stats = new SqliteTermStats(this.statements);
  }

  /**
   * A question's query plan: tokenizing and document frequencies on this thread. `writes` is the
   * index object's write count (its caches and these are invalidated alike).
   */
  plan(question: string, options: PlanOptions, writes: number): Promise<QueryPlan | null> {
    return planQuery(question, async (tokens) => this.stats.termStats(tokens, writes), options);
  }

  private vecTable(dim: number): string | null {
    if (!Number.isInteger(dim) || dim <= 0 || dim > 65536) throw new Error(`invalid vector dimension ${dim}`);
    if (!this.vecTables.has(dim)) {
      const found = this.statements
        .get("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?")
        .pluck()
        .get(`vec_${dim}`);
      if (!found) return null;
      this.vecTables.add(dim);
    }
    return `vec_${dim}`;
  }

  /** `keywordPostings`: the index's option (SqliteIndexOptions); off, every search is exhaustive. */
  search(req: SearchRequest, keywordPostings = false): SearchResult {
    const slot = this.statements.get('SELECT slot FROM kb_slot WHERE kb_id = ?').pluck();
    return this.db.transaction(() =>
      executeSearch(
        {
          statements: this.statements,
          slotOf: (kbId) => (slot.get(kbId) as number | undefined) ?? null,
          vecTable: (dim) => this.vecTable(dim),
          keywordPostings,
        },
        req,
      ),
    )();
  }

  close(): void {
    this.statements.clear();
    this.db.close();
  }
}
