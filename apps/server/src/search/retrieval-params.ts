/**
 * Parameters of `retrieve()` and their checks. Errors carry the envelope code the API layer answers
 * with (API.md §1.5: 100 for unusable values, 102 "Please specify dataset firstly." for no KB) and
 * messages in the contract's style, e.g. "`top_k` must be greater than 0.".
 */

export interface RetrieveParams {
  question: string;
  kbIds: string[];
  docIds?: string[];
  page?: number | string;
  size?: number | string;
  /** 0..1; defaults to 0.0 (retrieval_test's server default). */
  similarityThreshold?: number | string;
  /** 0..1; keyword weight = 1 − this. Default 0.3. */
  vectorSimilarityWeight?: number | string;
  /** Candidates that get the vector part; default 1024. */
  topK?: number | string;
  /** Embedding of the question, or null for keyword-only retrieval. */
  queryVector?: number[] | null;
  /** Relevance of each text to the question (a rerank model); replaces the cosine in the formula. */
  rerank?: ((question: string, texts: string[]) => Promise<number[]>) | null;
  /** Add `highlight` (content with `<em>` marks) to each hit. */
  highlight?: boolean;
  /** Tag weights inferred for the question (rank feature against chunk tag_feas). */
  tagWeights?: Record<string, number> | null;
  /**
   * Keyword-only similarity: 'text+term' (default) = vw·normalized text relevance + (1−vw)·term
   * similarity; 'term' = term similarity alone (API.md §19.4 literally). See retrieval.ts.
   */
  keywordOnlyScoring?: 'text+term' | 'term';
}

export interface CheckedParams {
  question: string;
  kbIds: string[];
  docIds: string[];
  page: number;
  size: number;
  similarityThreshold: number;
  vectorSimilarityWeight: number;
  topK: number;
  queryVector: number[] | null;
  rerank: ((question: string, texts: string[]) => Promise<number[]>) | null;
  highlight: boolean;
  tagWeights: Record<string, number> | null;
  keywordOnlyScoring: 'text+term' | 'term';
}

export class RetrievalParamError extends Error {
  constructor(
    message: string,
    /** Envelope code for the API layer (100 unusable value, 102 no dataset). */
    readonly code: 100 | 102 = 100,
  ) {
    super(message);
    this.name = 'RetrievalParamError';
  }
}

function toNumber(name: string, value: unknown, fallback: number): number {
  if (value === undefined || value === null || value === '') return fallback;
  const n =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && value.trim() !== ''
        ? Number(value)
        : NaN;
  if (!Number.isFinite(n)) throw new RetrievalParamError(`\`${name}\` must be a number.`);
  return n;
}

function toInteger(name: string, value: unknown, fallback: number): number {
  const n = toNumber(name, value, fallback);
  if (!Number.isInteger(n)) throw new RetrievalParamError(`\`${name}\` must be an integer.`);
  if (n <= 0) throw new RetrievalParamError(`\`${name}\` must be greater than 0.`);
  return n;
}

function toFraction(name: string, value: unknown, fallback: number): number {
  const n = toNumber(name, value, fallback);
  if (n < 0 || n > 1) throw new RetrievalParamError(`\`${name}\` must be between 0 and 1.`);
  return n;
}

export function checkParams(p: RetrieveParams): CheckedParams {
  if (typeof p.question !== 'string' || p.question.trim() === '') {
    throw new RetrievalParamError('`question` must be a non-empty string.');
  }
  const kbIds = Array.isArray(p.kbIds) ? p.kbIds.filter((k) => typeof k === 'string' && k !== '') : [];
  if (kbIds.length === 0) throw new RetrievalParamError('Please specify dataset firstly.', 102);
  if (p.docIds !== undefined && p.docIds !== null && !Array.isArray(p.docIds)) {
    throw new RetrievalParamError('`doc_ids` must be a list.');
  }
  const docIds = (p.docIds ?? []).filter((d) => typeof d === 'string' && d !== '');
  let queryVector: number[] | null = null;
  if (p.queryVector !== undefined && p.queryVector !== null) {
    if (
      !Array.isArray(p.queryVector) ||
      p.queryVector.length === 0 ||
      !p.queryVector.every((x) => Number.isFinite(x))
    ) {
      throw new RetrievalParamError('The query vector must be a non-empty list of numbers.');
    }
    queryVector = p.queryVector;
  }
  return {
    question: p.question,
    kbIds: [...new Set(kbIds)],
    docIds: [...new Set(docIds)],
    page: toInteger('page', p.page, 1),
    size: toInteger('size', p.size, 30),
    similarityThreshold: toFraction('similarity_threshold', p.similarityThreshold, 0),
    vectorSimilarityWeight: toFraction('vector_similarity_weight', p.vectorSimilarityWeight, 0.3),
    topK: toInteger('top_k', p.topK, 1024),
    queryVector,
    rerank: p.rerank ?? null,
    highlight: p.highlight === true,
    tagWeights: p.tagWeights && typeof p.tagWeights === 'object' ? p.tagWeights : null,
    keywordOnlyScoring: p.keywordOnlyScoring === 'term' ? 'term' : 'text+term',
  };
}
