/**
 * Port of the chunk index (ARCHITECTURE.md): one record per chunk, partitioned by KB, with
 * pre-tokenized text fields, a dense vector and rank features. Adapters: SQLite FTS5 + sqlite-vec
 * (embedded default, sqlite-index.ts) and PostgreSQL tsvector + pgvector (to follow).
 *
 * The adapter owns storage and the engine-side query (matching, text relevance, vector distance);
 * everything engine-neutral (tokenizing, term weights, the query's clauses, hybrid scoring, paging,
 * highlight) lives beside it in this folder, so a second adapter only translates `FullTextQuery`.
 */
/** A position on a PDF page: [page (1-based), x0, x1, top, bottom] in PDF points. */
export type Position = [number, number, number, number, number];

export interface ChunkRecord {
  id: string; // 16-hex xxHash64 of content_with_weight + doc_id
  doc_id: string;
  kb_id: string;
  tenant_id: string;
  docnm_kwd: string;
  content_with_weight: string;
  /** Text that is tokenized for search when it differs from content (qa questions). */
  search_text?: string;
  important_kwd: string[];
  question_kwd: string[];
  tag_kwd: string[];
  tag_feas: Record<string, number>;
  img_id: string;
  positions: Position[];
  available_int: number;
  create_time: number;
  doc_type_kwd: string | null;
  mom_id: string | null;
  pagerank_fea: number;
  knowledge_graph_kwd?: string | null;
  /** Graph records (API.md §19.1). */
  entity_kwd?: string | null;
  from_entity_kwd?: string | null;
  to_entity_kwd?: string | null;
  /** Tokens of the chunk as the caller counted them (document/KB `token_num`); 0 when not given. */
  token_num?: number;
  /** Dense vector of the KB's embedding model, or null when keyword-only. */
  vector: number[] | null;
  /** Extra typed fields (table columns, resume fields, graph fields). */
  extra?: Record<string, unknown>;
}

/** Which rows a read may see. `kbIds` is always applied first. */
export interface ChunkFilter {
  kbIds: string[];
  docIds?: string[];
  /** 1 = enabled only, 0 = disabled only, undefined = both. */
  available?: 0 | 1;
  /** Knowledge-graph records are excluded unless this is true. */
  includeGraph?: boolean;
  /**
   * Only graph records (of these `knowledge_graph_kwd` values in listings; any enabled graph record in
   * searches, whose callers keep the kinds they want). Implies `includeGraph`.
   */
  graphKinds?: string[];
  /**
   * Listings leave out child chunks (`mom_id` set, `children_delimiter`): people see and edit the
   * parents. True lists them too (index copies, maintenance). Searches always see children only.
   */
  withChildren?: boolean;
}

/**
 * One clause of the weighted full-text query (API.md §19.2), engine-neutral. The text relevance of
 * a row is Σ boost·relevance(clause) over the clauses it matches, relevance being the engine's
 * field-weighted BM25 of that clause.
 */
export interface TextClause {
  /** One token = a term; several = a phrase (`kind: 'phrase'`) or a proximity group (`'near'`). */
  tokens: string[];
  kind: 'term' | 'phrase' | 'near';
  /** Maximum distance between the tokens of a `near` clause. */
  slop?: number;
  boost: number;
  /** Clauses of one group count once for minimum-should-match. */
  group: number;
  /** Rows of the whole index that may match (term: its document frequency; phrase: its rarest word's). */
  df?: number;
}

export interface FullTextQuery {
  clauses: TextClause[];
  /** Number of distinct groups. */
  groups: number;
  /** Fraction of groups a row must match (at least one group always). */
  minimumShouldMatch: number;
  /** Rows in the whole index when the clauses' `df` were read (what makes a clause common). */
  indexRows?: number;
}

/** Field weights of the full-text query (API.md §19.2). */
export const FIELD_WEIGHTS = {
  title_tks: 10,
  title_sm_tks: 5,
  important_kwd: 30,
  important_tks: 20,
  question_tks: 20,
  content_ltks: 2,
  content_sm_ltks: 1,
} as const;

export interface SearchRequest {
  filter: ChunkFilter;
  text: FullTextQuery;
  /** Query vector with how many nearest candidates get the vector part, and the cosine floor. */
  vector: { values: number[]; topK: number; floor: number } | null;
  /** Query tag weights for the rank features (tag_feas cosine); pagerank_fea is always added. */
  tagWeights?: Record<string, number> | null;
  /**
   * Text relevance of a row: 'bm25' = Σ boost·BM25F(clause) (exact, costs a bm25() call per matching
   * row); 'presence' = Σ boost of the matched clauses (cheap; used when the vector part dominates the
   * engine order). Default: 'bm25' without a vector, 'presence' with one.
   */
  textScoring?: 'bm25' | 'presence';
  /**
   * The question's weighted tokens (QueryPlan.weighted): when given, an adapter may return each hit's
   * `terms` (term-similarity.ts) computed where the search ran, off the caller's event loop.
   */
  termQuery?: Array<[string, number]>;
  /** Rows of the engine order to return. */
  offset: number;
  limit: number;
}

export interface SearchHit {
  chunk: ChunkRecord;
  /** Engine text relevance (field-weighted BM25 summed over the matched clauses). */
  textScore: number;
  /** cosine(query vector, chunk vector); null when there is no query vector or no chunk vector. */
  cosine: number | null;
  /** 0.05·text/max(text) + cosine (top-K within the floor only) + rank features. */
  engineScore: number;
  /** Term similarity for the request's `termQuery`, when the adapter computed it. */
  terms?: HitTerms;
}

export interface HitTerms {
  /** term_similarity of API.md §19.4 (0..1). */
  similarity: number;
  /** The chunk's content tokens joined by spaces (`content_ltks` of a retrieval hit). */
  contentTokens: string;
}

export interface SearchResult {
  hits: SearchHit[];
  /** Number of rows that matched the full-text query. */
  matched: number;
  /** Highest text relevance among all matched rows (normalizes `textScore` to 0..1). */
  maxTextScore: number;
}

export type ListOrder = 'position' | 'newest';

export interface ChunkPatch {
  content_with_weight?: string;
  search_text?: string;
  important_kwd?: string[];
  question_kwd?: string[];
  tag_kwd?: string[];
  tag_feas?: Record<string, number>;
  img_id?: string;
  available_int?: number;
  docnm_kwd?: string;
  pagerank_fea?: number;
  token_num?: number;
  vector?: number[] | null;
  extra?: Record<string, unknown>;
}

export interface DocStats {
  chunks: number;
  tokens: number;
}

/** A question's weighted full-text query and what else retrieval needs of it (query.ts planQuery). */
export interface QueryPlan {
  text: FullTextQuery;
  /** Query tokens (and CJK sub-tokens), at most 32: highlighting. */
  keywords: string[];
  /** Coarse query tokens in order with weights normalized over the whole question: term similarity. */
  weighted: Array<[string, number]>;
  /** True when the question took the CJK path. */
  cjk: boolean;
}

/** Options of query planning (query.ts). */
export interface PlanOptions {
  /**
   * Keep one-character Latin tokens and single digits (`"1"`, `"x"`). Questions drop them (their
   * weight is negligible, §19.2); a chunk-list keyword search is a literal filter and keeps them.
   */
  keepSingleChars?: boolean;
}

export interface TermStats {
  /** Rows in the index. */
  total: number;
  /** Rows containing each token (any field). */
  df: Record<string, number>;
}

export interface ChunkIndex {
  readonly type: string;
  upsert(records: ChunkRecord[]): Promise<void>;
  get(chunkId: string): Promise<ChunkRecord | null>;
  getMany(chunkIds: string[]): Promise<ChunkRecord[]>;
  deleteByIds(kbId: string, chunkIds: string[]): Promise<number>;
  deleteByDoc(docId: string): Promise<number>;
  deleteByKb(kbId: string): Promise<number>;
  countByDoc(docId: string): Promise<number>;
  /** Chunk count and token sum per document. */
  statsByDocs(docIds: string[]): Promise<Map<string, DocStats>>;
  /** Plain filtered listing: `position` = page, top, then newest; `newest` = newest first. */
  list(
    filter: ChunkFilter,
    order: ListOrder,
    offset: number,
    limit: number,
  ): Promise<{ total: number; chunks: ChunkRecord[] }>;
  /** Rows matching the full-text query (and the vector part), in engine order. */
  search(request: SearchRequest): Promise<SearchResult>;
  termStats(tokens: string[]): Promise<TermStats>;
  /**
   * Optional: plans a question's full-text query (query.ts) where the statistics are read, off the
   * caller's event loop (the SQLite index: on a search thread). Callers go through query.ts planSearch,
   * which falls back to planning here over termStats.
   */
  planQuery?(question: string, options?: PlanOptions): Promise<QueryPlan | null>;
  /** Merge fields into one chunk and re-tokenize it; false when it does not exist. */
  update(chunkId: string, patch: ChunkPatch): Promise<boolean>;
  setAvailableByIds(chunkIds: string[], available: number, docId?: string): Promise<number>;
  setAvailableByDoc(docId: string, available: number): Promise<number>;
  /** `[[tag, count]]` over the KBs' chunks, most used first. */
  tagCounts(kbIds: string[]): Promise<Array<[string, number]>>;
  removeTags(kbId: string, tags: string[]): Promise<number>;
  renameTag(kbId: string, from: string, to: string): Promise<number>;
  setPagerank(kbId: string, pagerank: number): Promise<number>;
  health(): Promise<void>;
  close(): Promise<void>;
}
