/**
 * Retrieval parameters, parsed, checked and defaulted in one place: `parseRetrievalParams(raw, caller)`
 * for what a request (or a stored assistant / search app / agent) asks, with the caller's defaults of
 * API.md §19.12 (./retrieval-defaults.ts); `checkParams` for `retrieve()`'s own input. Errors carry the
 * envelope code the API layer answers with (API.md §1.5: 100 for unusable values, 102 "Please specify
 * dataset firstly." for no KB) and messages in the contract's style, e.g. "`top_k` must be greater than 0.".
 */
import { parseCount } from '@lectern/shared';
import type { QueryPlan } from '../chunk-index/query.js';
import { RETRIEVAL_DEFAULTS, type RetrievalCaller, type RetrievalDefaults } from './retrieval-defaults.js';

export interface RetrieveParams {
  question: string;
  kbIds: string[];
  docIds?: string[];
  page?: number | string;
  size?: number | string;
  /** 0..1; absent → the retrieval_test row of §19.12 (0.0). */
  similarityThreshold?: number | string;
  /** 0..1; keyword weight = 1 − this. Absent → 0.3. */
  vectorSimilarityWeight?: number | string;
  /** Candidates that get the vector part; absent → 1024. */
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
   * Keyword-only similarity: 'text+term' (default) = 0.3·normalized text relevance + 0.7·term
   * similarity, whatever vw the client sent; 'term' = term similarity alone (API.md §19.4 literally).
   * See retrieval.ts.
   */
  keywordOnlyScoring?: 'text+term' | 'term';
  /**
   * The query plan of this same question when the caller started it early (chunk-index/query.ts
   * planSearch, e.g. while the question is embedded); planned by retrieve() otherwise.
   */
  plan?: Promise<QueryPlan | null>;
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
  plan: Promise<QueryPlan | null> | null;
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
  if (value !== undefined && value !== null && value !== '') toNumber(name, value, fallback);
  const count = parseCount(name, value, fallback);
  if (!count.ok) throw new RetrievalParamError(count.message);
  return count.value;
}

function toFraction(name: string, value: unknown, fallback: number): number {
  const n = toNumber(name, value, fallback);
  if (n < 0 || n > 1) throw new RetrievalParamError(`\`${name}\` must be between 0 and 1.`);
  return n;
}

/**
 * `retrieve()`'s input checked; absent values take `defaults` (the engine's own are the
 * retrieval_test row — callers pass parsed values, see `parseRetrievalParams`).
 */
export function checkParams(
  p: RetrieveParams,
  defaults: RetrievalDefaults = RETRIEVAL_DEFAULTS.retrieval_test,
): CheckedParams {
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
    page: toInteger('page', p.page, defaults.page),
    size: toInteger('size', p.size, defaults.size),
    similarityThreshold: toFraction(
      'similarity_threshold',
      p.similarityThreshold,
      defaults.similarityThreshold,
    ),
    vectorSimilarityWeight: toFraction(
      'vector_similarity_weight',
      p.vectorSimilarityWeight,
      defaults.vectorSimilarityWeight,
    ),
    topK: toInteger('top_k', p.topK, defaults.topK),
    queryVector,
    rerank: p.rerank ?? null,
    highlight: p.highlight === true,
    tagWeights: p.tagWeights && typeof p.tagWeights === 'object' ? p.tagWeights : null,
    keywordOnlyScoring: p.keywordOnlyScoring === 'term' ? 'term' : 'text+term',
    plan: p.plan ?? null,
  };
}

/** Retrieval parameters as a request (or a stored configuration) gives them, wire names. */
export interface RawRetrievalParams {
  question: unknown;
  kbIds: string[];
  docIds?: string[] | null;
  page?: unknown;
  /** Results per page (`size`, `page_size`, or a stored `top_n`). */
  size?: unknown;
  similarity_threshold?: unknown;
  vector_similarity_weight?: unknown;
  top_k?: unknown;
  /** Rerank model id; empty or absent = none. */
  rerank_id?: unknown;
  /** Append LLM-extracted keywords to the question first (§19.5). */
  keyword?: unknown;
  /** Translate the question into these languages first (§19.5). */
  cross_languages?: unknown;
  /** Prepend the knowledge-graph chunk (§19.10; used once the graph module exists). */
  use_kg?: unknown;
  /** Add the chunks of the documents' table-of-contents entries the model finds relevant (toc-enhance.ts). */
  toc_enhance?: unknown;
  /** Add `<em>` highlights to each hit. */
  highlight?: unknown;
}

/** What a caller's retrieval runs with: every value present, typed and within its bounds. */
export interface RetrievalSettings {
  question: string;
  kbIds: string[];
  docIds: string[];
  page: number;
  size: number;
  similarityThreshold: number;
  vectorSimilarityWeight: number;
  topK: number;
  rerankId: string;
  keyword: boolean;
  crossLanguages: string[];
  useKg: boolean;
  tocEnhance: boolean;
  highlight: boolean;
}

/** An optional flag: absent/null → the default; anything but a boolean → 100. */
function flag(name: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'boolean') throw new RetrievalParamError(`\`${name}\` must be a boolean.`);
  return value;
}

function optionalString(name: string, value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') throw new RetrievalParamError(`\`${name}\` must be a string.`);
  return value;
}

function stringList(name: string, value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string'))
    throw new RetrievalParamError(`\`${name}\` must be a list of strings.`);
  return value as string[];
}

/**
 * Parses, checks and defaults (the caller's row of §19.12) the parameters of one retrieval. Order of
 * answers: a question that is not a string, then any numeric field that is neither a number nor a
 * string, then the rules of `checkParams` (empty question, no KB, doc_ids, integers and bounds),
 * then the flags and the rerank id.
 */
export function parseRetrievalParams(raw: RawRetrievalParams, caller: RetrievalCaller): RetrievalSettings {
  if (typeof raw.question !== 'string') throw new RetrievalParamError('`question` must be a string.');
  const numeric: Array<[string, unknown]> = [
    ['page', raw.page],
    ['size', raw.size],
    ['similarity_threshold', raw.similarity_threshold],
    ['vector_similarity_weight', raw.vector_similarity_weight],
    ['top_k', raw.top_k],
  ];
  for (const [name, value] of numeric) {
    if (value !== undefined && value !== null && typeof value !== 'number' && typeof value !== 'string') {
      throw new RetrievalParamError(`\`${name}\` must be a number.`);
    }
  }
  const p = checkParams(
    {
      question: raw.question,
      kbIds: raw.kbIds,
      docIds: raw.docIds ?? [],
      page: raw.page as number | string | undefined,
      size: raw.size as number | string | undefined,
      similarityThreshold: raw.similarity_threshold as number | string | undefined,
      vectorSimilarityWeight: raw.vector_similarity_weight as number | string | undefined,
      topK: raw.top_k as number | string | undefined,
    },
    RETRIEVAL_DEFAULTS[caller],
  );
  const row = RETRIEVAL_DEFAULTS[caller];
  return {
    question: p.question,
    kbIds: p.kbIds,
    docIds: p.docIds,
    page: p.page,
    size: p.size,
    similarityThreshold: p.similarityThreshold,
    vectorSimilarityWeight: p.vectorSimilarityWeight,
    topK: p.topK,
    rerankId: optionalString('rerank_id', raw.rerank_id),
    keyword: flag('keyword', raw.keyword, false),
    crossLanguages: stringList('cross_languages', raw.cross_languages),
    useKg: flag('use_kg', raw.use_kg, false),
    tocEnhance: flag('toc_enhance', raw.toc_enhance, false),
    highlight: flag('highlight', raw.highlight, row.highlight),
  };
}
