/**
 * Retrieval defaults per caller (API.md §19.12), in one table. Every caller's absent parameters are
 * filled from its row here and nowhere else: `parseRetrievalParams(raw, caller)` for request bodies,
 * and the stored defaults of new assistants, search apps and knowledge bases.
 *
 * Besides the numbers, each row says how that caller's retrieval behaves where callers differ today:
 * - `tagLabels`: infer the question's tag weights from the KBs' tag sets (`labels`, the rank feature of
 *   §19.4). Retrieval testing, the public API and agents do; chat and search answers have not so far,
 *   and keep their results.
 * - `modelFailures`: `envelope` = a failing embedding/rerank call is a clean 100 "<step> failed: …"
 *   and an offline bundled model means keyword-only (retrieval testing answers an HTTP request);
 *   `raise` = the model's own error goes to the caller's pipeline, which reports it in its stream.
 */

export type RetrievalCaller = 'retrieval_test' | 'public_retrieval' | 'chat' | 'search_app' | 'agent';

export interface RetrievalDefaults {
  /** Floor of `similarity` (and of the vector part's cosine when > 0). */
  similarityThreshold: number;
  /** vw of `similarity = vw·vector + (1 − vw)·term + rank` (keyword weight = 1 − vw). */
  vectorSimilarityWeight: number;
  /** Candidates that get the vector part. */
  topK: number;
  /** 1-based page of results. */
  page: number;
  /** Results per page; for chat, search and agents this is `top_n` (one page of top_n chunks). */
  size: number;
  /** Add `<em>` highlights to hits when the request does not say. */
  highlight: boolean;
  tagLabels: boolean;
  modelFailures: 'envelope' | 'raise';
}

export const RETRIEVAL_DEFAULTS = {
  /** `POST /v1/chunk/retrieval_test`: server default 0.0 (the UI sends its own 0.2). */
  retrieval_test: {
    similarityThreshold: 0,
    vectorSimilarityWeight: 0.3,
    topK: 1024,
    page: 1,
    size: 30,
    highlight: true,
    tagLabels: true,
    modelFailures: 'envelope',
  },
  /** `POST /api/v1/retrieval` (page_size 30). */
  public_retrieval: {
    similarityThreshold: 0.2,
    vectorSimilarityWeight: 0.3,
    topK: 1024,
    page: 1,
    size: 30,
    highlight: false,
    tagLabels: true,
    modelFailures: 'envelope',
  },
  /**
   * Assistants (`dialog/set` creates with these when the request has none: threshold 0.1 as the API
   * creates them; the table column's stored default is 0.2), top_n 6.
   */
  chat: {
    similarityThreshold: 0.1,
    vectorSimilarityWeight: 0.3,
    topK: 1024,
    page: 1,
    size: 6,
    highlight: false,
    tagLabels: false,
    modelFailures: 'raise',
  },
  /** Search apps (`conversation/ask`, `mindmap`; `search_config` defaults), 12 chunks per answer. */
  search_app: {
    similarityThreshold: 0.2,
    vectorSimilarityWeight: 0.3,
    topK: 1024,
    page: 1,
    size: 12,
    highlight: false,
    tagLabels: false,
    modelFailures: 'raise',
  },
  /** The agent Retrieval component: keyword weight 0.5, top_n 8. */
  agent: {
    similarityThreshold: 0.2,
    vectorSimilarityWeight: 0.5,
    topK: 1024,
    page: 1,
    size: 8,
    highlight: false,
    tagLabels: true,
    modelFailures: 'raise',
  },
} as const satisfies Record<RetrievalCaller, RetrievalDefaults>;

/** The table's last row: what a new knowledge base stores (it retrieves nothing by itself). */
export const KB_RETRIEVAL_DEFAULTS = { similarityThreshold: 0.2, vectorSimilarityWeight: 0.3 } as const;
