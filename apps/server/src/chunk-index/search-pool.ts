/**
 * Threads that run searches of the SQLite chunk index (sqlite-search.worker.ts) so that query
 * planning (tokenizing, term statistics), scoring and vector search never block the API's event loop. Each thread reads the index file through its own
 * read-only connection; writes stay on the index object's connection.
 */
import { WorkerPool } from '../util/worker-pool.js';
import type { SearchRequest, SearchResult } from './chunk-index.js';
import type { PlanOptions, QueryPlan } from './query.js';

/** Search threads by default: two (each search is single-threaded; the API keeps its own thread). */
export const SEARCH_THREADS = 2;

export interface SearchThreads {
  /** `keywordPostings`: the index's option (sqlite-index.ts, SqliteIndexOptions). */
  search(file: string, request: SearchRequest, keywordPostings?: boolean): Promise<SearchResult>;
  /** A question's query plan (query.ts) with the index's term statistics; `writes`: see sqlite-term-stats.ts. */
  plan(file: string, question: string, options: PlanOptions, writes: number): Promise<QueryPlan | null>;
  close(): Promise<void>;
}

export function createSearchThreads(size = SEARCH_THREADS): SearchThreads {
  const pool = new WorkerPool({
    entry: 'chunk-index/sqlite-search.worker',
    size,
    isolation: 'thread',
    maxHeapMb: 512,
    defaultTimeoutMs: 60_000,
  });
  return {
    search: (file, request, keywordPostings = false) =>
      pool.run<SearchResult>('search', { file, request, keywordPostings }),
    plan: (file, question, options, writes) =>
      pool.run<QueryPlan | null>('plan', { file, question, options, writes }),
    close: () => pool.close(),
  };
}
