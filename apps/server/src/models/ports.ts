/**
 * Model ports (ARCHITECTURE.md): everything that calls a model goes through one of these. Adapters for
 * each provider protocol live in ./adapters; `modelFor` (./registry.ts) builds them from a tenant's
 * stored credentials and wraps them so that token usage lands in `tenant_llm.used_tokens`.
 */

export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

export interface ChatImage {
  /** Raw bytes or a data:/http(s): URL. */
  data: Uint8Array | string;
  mimeType?: string;
}

/** A function the model may call (function calling; `parameters` is a JSON schema). */
export interface FunctionTool {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** A function call the model made: arguments parsed from its JSON (the raw text when not JSON). */
export interface ToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown> | string;
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
  /** Images attached to a user message (vision models). */
  images?: ChatImage[];
  /** The calls an assistant turn made (function calling). */
  toolCalls?: ToolCall[];
  /** A `tool` message answers this call of the previous assistant turn… */
  toolCallId?: string;
  /** …of this function. */
  toolName?: string;
}

export interface CallOptions {
  /** Cancels the call (client went away, task cancelled). */
  signal?: AbortSignal;
  /** Overrides the configured time limit (ms). */
  timeoutMs?: number;
}

export interface ChatOptions extends CallOptions {
  temperature?: number;
  topP?: number;
  maxTokens?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  stop?: string[];
  /** Functions the model may call; a call arrives as a `tool_call` delta and ends the turn. */
  tools?: FunctionTool[];
}

export type ChatDelta =
  | { type: 'text'; text: string }
  | { type: 'reasoning'; text: string }
  | { type: 'tool_call'; call: ToolCall }
  | { type: 'done'; usage: TokenUsage; finishReason: string };

export interface ChatResult {
  text: string;
  reasoning: string;
  usage: TokenUsage;
  finishReason: string;
}

export interface ChatModel {
  readonly kind: 'chat';
  /** "<llm_name>@<factory>" */
  readonly id: string;
  /** Streams text deltas and (separately) reasoning deltas, then one `done` with the usage. */
  stream(messages: ChatMessage[], options?: ChatOptions): AsyncIterable<ChatDelta>;
  complete(messages: ChatMessage[], options?: ChatOptions): Promise<ChatResult>;
}

export interface EmbeddingResult {
  vectors: number[][];
  dimension: number;
  usage: { tokens: number };
}

export interface EmbeddingModel {
  readonly kind: 'embedding';
  readonly id: string;
  /** Texts sent per provider request; `embed` splits larger inputs into batches of this size. */
  readonly batchSize: number;
  embed(texts: string[], options?: CallOptions): Promise<EmbeddingResult>;
}

export interface RerankResult {
  /** One relevance score per input document, in input order. */
  scores: number[];
  usage: { tokens: number };
}

export interface RerankModel {
  readonly kind: 'rerank';
  readonly id: string;
  rerank(query: string, documents: string[], options?: CallOptions): Promise<RerankResult>;
}

export interface Image2TextModel {
  readonly kind: 'image2text';
  readonly id: string;
  describe(image: ChatImage, prompt?: string, options?: ChatOptions): Promise<ChatResult>;
  /** The chat face of a vision model (it can also answer text-only prompts). */
  chat(): ChatModel;
}

export interface Speech2TextModel {
  readonly kind: 'speech2text';
  readonly id: string;
  transcribe(
    audio: Uint8Array,
    options?: CallOptions & { mimeType?: string; language?: string },
  ): Promise<{ text: string; usage: { tokens: number } }>;
}

export interface TtsModel {
  readonly kind: 'tts';
  readonly id: string;
  speak(
    text: string,
    options?: CallOptions & { voice?: string; format?: string },
  ): Promise<{ audio: Uint8Array; mimeType: string; usage: { tokens: number } }>;
}

export type AnyModel =
  ChatModel | EmbeddingModel | RerankModel | Image2TextModel | Speech2TextModel | TtsModel;

export interface PortOf {
  chat: ChatModel;
  embedding: EmbeddingModel;
  rerank: RerankModel;
  image2text: Image2TextModel;
  speech2text: Speech2TextModel;
  tts: TtsModel;
}

export const EMPTY_USAGE: TokenUsage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
