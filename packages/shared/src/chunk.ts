/**
 * Chunks and retrieval testing (API.md §7, §19): payload shapes shared by the server and the web client.
 */
import type { DocumentInfo } from './kb.js';

/** `[page, x0, x1, top, bottom]` of a chunk on a PDF page (pages 1-based, points). */
export type ChunkPosition = [number, number, number, number, number];

/** A `POST /v1/chunk/list` row. */
export interface ChunkRow {
  chunk_id: string;
  /** With `<em>…</em>` highlights when the list was searched by keywords. */
  content_with_weight: string;
  doc_id: string;
  docnm_kwd: string;
  important_kwd: string[];
  question_kwd: string[];
  image_id: string;
  available_int: number;
  positions: ChunkPosition[];
  doc_type_kwd: string | null;
  tag_kwd: string[];
  tag_feas: Record<string, number>;
}

export interface ChunkListAnswer {
  total: number;
  chunks: ChunkRow[];
  doc: DocumentInfo;
}

/** `GET /v1/chunk/get`: the stored chunk (absent keys omitted). */
export interface StoredChunk {
  id: string;
  doc_id: string;
  kb_id: string;
  docnm_kwd: string;
  content_with_weight: string;
  important_kwd: string[];
  question_kwd: string[];
  tag_kwd: string[];
  tag_feas: Record<string, number>;
  img_id: string;
  position_int: ChunkPosition[];
  available_int: number;
  create_time?: string;
  doc_type_kwd?: string;
}

/** Body of `POST /v1/chunk/create` and `/v1/chunk/set` (set adds `chunk_id`). */
export interface ChunkEditBody {
  doc_id: string;
  chunk_id?: string;
  content_with_weight: string;
  important_kwd: string[];
  question_kwd: string[];
  tag_kwd?: string[];
  tag_feas?: Record<string, number>;
}

/** Body of `POST /v1/chunk/retrieval_test`. */
export interface RetrievalTestBody {
  kb_id: string | string[];
  question: string;
  page?: number;
  size?: number;
  doc_ids?: string[];
  similarity_threshold?: number;
  vector_similarity_weight?: number;
  top_k?: number;
  rerank_id?: string;
  keyword?: boolean;
  highlight?: boolean;
}

/** A retrieval_test hit. Similarities are 0..1 (plus rank features when tags or page rank apply). */
export interface RetrievalHit {
  chunk_id: string;
  content_ltks: string;
  content_with_weight: string;
  doc_id: string;
  docnm_kwd: string;
  kb_id: string;
  important_kwd: string[];
  image_id: string;
  similarity: number;
  vector_similarity: number;
  term_similarity: number;
  positions: ChunkPosition[];
  doc_type_kwd: string | null;
  mom_id: string | null;
  /** Content with `<em>` marks on the question's keywords. */
  highlight?: string;
}

export interface RetrievalAnswer {
  total: number;
  chunks: RetrievalHit[];
  doc_aggs: Array<{ doc_name: string; doc_id: string; count: number }>;
  /** Tag weights inferred for the question, or null. */
  labels: Record<string, number> | null;
  /** True when no embedding model could be used: candidates and scores come from the text alone. */
  keyword_only: boolean;
  /** A readable sentence explaining keyword-only retrieval, else null. */
  notice: string | null;
}

/** Retrieval-testing defaults of the UI (SPEC §9, API.md §19.12): the server's own default threshold is 0.0. */
export const RETRIEVAL_UI_DEFAULTS = {
  similarity_threshold: 0.2,
  vector_similarity_weight: 0.3,
  top_k: 1024,
  size: 10,
} as const;
