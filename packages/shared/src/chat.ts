/** Payloads of the chat area (API.md §8 dialog, §9 conversation, §10 api) as the web client reads them. */

export interface PromptParameter {
  key: string;
  optional: boolean;
}

/** `dialog.prompt_config` (API.md §8). */
export interface PromptConfig {
  system: string;
  prologue: string;
  parameters: PromptParameter[];
  empty_response: string;
  quote: boolean;
  keyword: boolean;
  refine_multiturn: boolean;
  cross_languages?: string[];
  reasoning: boolean;
  toc_enhance?: boolean;
  tavily_api_key: string;
  use_kg: boolean;
  tts: boolean;
  self_rag?: boolean;
}

/** `dialog.llm_setting`: keys may be omitted to leave the provider default. */
export interface LlmSetting {
  temperature?: number;
  top_p?: number;
  presence_penalty?: number;
  frequency_penalty?: number;
  max_tokens?: number;
}

/** A dialog (chat assistant) as `dialog/get`, `dialog/list` and `dialog/set` answer it. */
export interface Dialog {
  id: string;
  tenant_id: string;
  name: string;
  description: string | null;
  icon: string | null;
  language: string;
  llm_id: string;
  llm_setting: LlmSetting;
  prompt_type: string;
  prompt_config: PromptConfig;
  similarity_threshold: number;
  vector_similarity_weight: number;
  top_n: number;
  top_k: number;
  do_refer: string;
  rerank_id: string;
  kb_ids: string[];
  kb_names?: string[];
  status: string;
  create_time: number;
  update_time: number;
}

/** The body of `POST /v1/dialog/set`. */
export interface DialogSetBody {
  dialog_id?: string;
  name: string;
  description: string;
  icon: string;
  language: string;
  kb_ids: string[];
  llm_id: string;
  llm_setting: LlmSetting;
  prompt_config: PromptConfig;
  similarity_threshold: number;
  vector_similarity_weight: number;
  top_n: number;
  top_k: number;
  rerank_id: string;
}

/** One chunk of a reference in the web format (API.md §9 "Reference chunk format"). */
export interface ReferenceChunk {
  id: string;
  content: string;
  document_id: string;
  document_name: string;
  dataset_id: string;
  image_id: string;
  positions: number[][];
  url: string | null;
  similarity: number;
  vector_similarity: number;
  term_similarity: number;
  doc_type: string;
}

export interface DocAgg {
  doc_name: string;
  doc_id: string;
  count: number;
  url?: string;
}

export interface Reference {
  total?: number;
  chunks: ReferenceChunk[];
  doc_aggs: DocAgg[];
}

export interface ChatMessage {
  role: 'user' | 'assistant' | 'system';
  content: string;
  id?: string;
  created_at?: number;
  doc_ids?: string[];
  thumbup?: boolean;
  feedback?: string;
}

export interface Conversation {
  id: string;
  dialog_id: string;
  name: string;
  message: ChatMessage[];
  /** One entry per answer after the first question; an entry may be empty (`{}`) or malformed. */
  reference: Array<Reference | Record<string, unknown> | null>;
  user_id: string;
  create_time: number;
  update_time: number;
  avatar?: string;
}

/** `data` of an answer event of the SSE stream (API.md §9). */
export interface AnswerEventData {
  answer: string;
  reference: Partial<Reference> | unknown[] | null;
  audio_binary?: string | null;
  prompt?: string;
  created_at?: number;
  final?: boolean;
  id?: string;
  session_id?: string;
  start_to_think?: boolean;
  end_to_think?: boolean;
}

/** `GET /v1/api/stats`: `[[date, value], …]` per day for each figure. */
export interface ChatStats {
  pv: Array<[string, number]>;
  uv: Array<[string, number]>;
  speed: Array<[string, number]>;
  tokens: Array<[string, number]>;
  round: Array<[string, number]>;
  thumb_up: Array<[string, number]>;
}

/** A node of `POST /v1/conversation/mindmap`. */
export interface MindMapNode {
  id: string;
  children?: MindMapNode[];
}
