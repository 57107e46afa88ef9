/** Shapes shared by the chat pipeline, the conversation routes and the legacy chat API. */

/** One message as the client sends and we store it (API.md §18 conversation.message). */
export interface ChatMessage {
  role: 'user' | 'assistant' | 'system';
  content: string;
  id?: string;
  created_at?: number;
  doc_ids?: string[];
  files?: unknown[];
  thumbup?: boolean;
  feedback?: string;
  [key: string]: unknown;
}

/**
 * A retrieved chunk as the chat pipeline keeps it and as it is stored in `reference` (raw form;
 * presenters turn it into the reference-chunk format). Vectors and tokens never get stored.
 */
export interface RefChunk {
  chunk_id: string;
  content_with_weight: string;
  doc_id: string;
  docnm_kwd: string;
  kb_id: string;
  important_kwd: string[];
  image_id: string;
  positions: number[][];
  similarity: number;
  vector_similarity: number;
  term_similarity: number;
  doc_type_kwd: string;
  url?: string;
  /** Pipeline-only: the chunk's content tokens and vector for citation insertion. */
  tokens?: string[];
  vector?: number[] | null;
}

export interface DocAgg {
  doc_name: string;
  doc_id: string;
  count: number;
  url?: string;
}

/** What retrieval hands the chat pipeline. */
export interface Knowledge {
  total: number;
  chunks: RefChunk[];
  doc_aggs: DocAgg[];
}

/** One stored `reference` entry (API.md §18). */
export interface StoredReference {
  total?: number;
  chunks: RefChunk[];
  doc_aggs: DocAgg[];
}

/** An answer event before it is framed (API.md §9 delta/final shapes minus id/session_id). */
export interface AnswerEvent {
  answer: string;
  reference: Record<string, unknown>;
  audio_binary: string | null;
  prompt: string;
  created_at: number;
  final: boolean;
  start_to_think?: true;
  end_to_think?: true;
}

/** The outcome of one answered question, used to persist and to account. */
export interface AnswerResult {
  /** Stored assistant content: `<think>…</think>` (if any) + the answer with citations. */
  content: string;
  reference: StoredReference;
  prompt: string;
  tokens: number;
  durationS: number;
}

/** The dialog as the chat pipeline reads it (JSON columns parsed). */
export interface DialogConfig {
  id: string;
  tenant_id: string;
  llm_id: string;
  llm_setting: Record<string, unknown>;
  prompt_config: PromptConfig;
  kb_ids: string[];
  top_n: number;
  top_k: number;
  similarity_threshold: number;
  vector_similarity_weight: number;
  rerank_id: string;
  meta_data_filter: Record<string, unknown>;
}

export interface PromptParameter {
  key: string;
  optional: boolean;
}

export interface PromptConfig {
  system: string;
  prologue: string;
  parameters: PromptParameter[];
  empty_response: string;
  quote?: boolean;
  keyword?: boolean;
  refine_multiturn?: boolean;
  cross_languages?: string[];
  reasoning?: boolean;
  toc_enhance?: boolean;
  tavily_api_key?: string;
  use_kg?: boolean;
  tts?: boolean;
  self_rag?: boolean;
  [key: string]: unknown;
}
