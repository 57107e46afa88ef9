/**
 * The model ports the graph and RAPTOR cores need, as the smallest shapes they use. They are copies
 * (not imports) of the server's model ports (`models/ports.ts`) so these cores stay free of the rest of
 * the server: a `ChatModel` or `EmbeddingModel` from the model registry satisfies them as it is.
 */

export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

export interface ChatTurn {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatCallOptions {
  signal?: AbortSignal;
  maxTokens?: number;
  temperature?: number;
}

export interface ChatAnswer {
  text: string;
  usage: TokenUsage;
}

/** Structural subset of `ChatModel.complete`. */
export interface GraphChatModel {
  complete(messages: ChatTurn[], options?: ChatCallOptions): Promise<ChatAnswer>;
}

/** Structural subset of `EmbeddingModel.embed`. */
export interface GraphEmbedder {
  embed(texts: string[], options?: { signal?: AbortSignal }): Promise<{ vectors: number[][] }>;
}

/** `(progress 0..1 or undefined to keep it, message)` — appended to the task's log by the caller. */
export type ProgressReporter = (progress: number | undefined, message: string) => void;

export function emptyUsage(): TokenUsage {
  return { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
}

/** Adds `b` into `a` (missing or non-numeric fields count 0). */
export function addUsage(a: TokenUsage, b: Partial<TokenUsage> | undefined): TokenUsage {
  if (!b) return a;
  a.promptTokens += Number(b.promptTokens) || 0;
  a.completionTokens += Number(b.completionTokens) || 0;
  a.totalTokens += Number(b.totalTokens) || 0;
  return a;
}
