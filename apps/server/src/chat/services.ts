/**
 * What the chat pipeline needs from the rest of the server, as one interface: models (through
 * the model ports), hybrid retrieval over knowledge bases, web search, the tokenizer and tracing.
 * `ctx.chat` (./bind.ts) binds it to the real modules; the pipeline never imports them.
 */
import type { ChatModel, EmbeddingModel, TtsModel } from '../models/ports.js';
import type { Observation, Trace, TraceStart } from '../tracing/types.js';
import type { NormalizedMetaFilter } from '../search/metadata-conditions.js';
import type { TableSchema } from '../search/table-sql/table-query.js';
import type { TableQueryOutcome } from '../search/table-sql/types.js';
import type { Knowledge, RefChunk } from './types.js';

export interface RetrieveParams {
  question: string;
  tenantId: string;
  kbIds: string[];
  docIds?: string[];
  topN: number;
  topK: number;
  similarityThreshold: number;
  vectorSimilarityWeight: number;
  rerankId?: string;
  /** Put the knowledge-graph chunk first (dialog `prompt_config.use_kg`, API.md §19.10). */
  useKg?: boolean;
  /** Add the chunks of relevant table-of-contents entries (dialog `prompt_config.toc_enhance`). */
  tocEnhance?: boolean;
  /** Metadata filters (the assistant's `meta_data_filter`, a request's `metadata_condition`); all apply. */
  metaFilters?: ReadonlyArray<NormalizedMetaFilter | null>;
  /** The chat model an automatic metadata filter asks (the assistant's; empty = the tenant default). */
  metaLlmId?: string;
  signal?: AbortSignal;
  /** The span of a traced request this retrieval reports its model calls under. */
  trace?: Observation;
}

/** One model-written statement run over table KBs (API.md §19.7). */
export interface TableQueryResult {
  /** The statement as run (cleaned of reasoning, code fences and a trailing `;`). */
  sql: string;
  outcome: TableQueryOutcome;
  /** The row chunks of the result rows that carry one (by chunk id), for citations. */
  chunks: Map<string, RefChunk>;
}

export interface ResolvedChatModel {
  model: ChatModel;
  /** The model's context window in tokens (tenant_llm.max_tokens, else the catalogue's). */
  contextTokens: number;
}

export interface ChatServices {
  /** The chat model `modelId` of the tenant (its default chat model when empty); throws a readable error. */
  chatModel(tenantId: string, modelId: string): Promise<ResolvedChatModel>;
  /** The embedding model shared by these KBs, or null when keyword-only. */
  embeddingModel(tenantId: string, kbIds: string[]): Promise<EmbeddingModel | null>;
  /** The tenant's default TTS model, or null when none is set. */
  ttsModel(tenantId: string): Promise<TtsModel | null>;
  /** Hybrid retrieval (API.md §19) with the caller's settings; chunks carry tokens and vectors. */
  retrieve(params: RetrieveParams): Promise<Knowledge>;
  /** Web search (Tavily). */
  webSearch(apiKey: string, query: string, signal?: AbortSignal): Promise<Knowledge>;
  /** The merged field map when every KB is `table`-parsed with one (structured queries), else null. */
  tableSchema(tenantId: string, kbIds: string[]): Promise<TableSchema | null>;
  /**
   * Runs a model's answer as one SELECT over the KBs' rows in a throwaway database (never ours);
   * null when the rows cannot be queried (none, or too many).
   */
  queryTable(
    schema: TableSchema,
    table: string,
    modelAnswer: string,
    signal?: AbortSignal,
  ): Promise<TableQueryResult | null>;
  /** The search tokenizer (for citation insertion). */
  tokenize(text: string): string[];
  /** The trace of one answer (the no-op trace when the tenant has no tracing keys). Never throws. */
  startTrace(tenantId: string, start: TraceStart): Promise<Trace>;
}
