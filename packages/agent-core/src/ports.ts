/**
 * What the runtime needs from its host, injected per run. The server implements these with its model
 * registry, hybrid retrieval, tool components, MCP client and object storage; tests use fakes.
 * Nothing here imports server code.
 */

// ---------- chat models ----------

export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

/** A function the model may call (OpenAI-style tool schema). */
export interface FunctionTool {
  name: string;
  description: string;
  /** JSON schema of the arguments object */
  parameters: Record<string, unknown>;
}

export interface ToolCall {
  /** id the model gave the call; echoed on the tool result message */
  id: string;
  name: string;
  /** parsed arguments, or the raw JSON text when the adapter does not parse it */
  arguments: Record<string, unknown> | string;
}

export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string; /** data: URLs of images (vision) */ images?: string[] }
  | { role: 'assistant'; content: string; toolCalls?: ToolCall[] }
  | { role: 'tool'; toolCallId: string; name: string; content: string };

/** Generation settings actually sent (only those enabled and > 0, AGENTS.md §6.1). */
export interface GenerationOptions {
  temperature?: number;
  topP?: number;
  maxTokens?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
}

export interface ChatRequest {
  messages: ChatMessage[];
  /** functions offered; absent = plain chat */
  tools?: FunctionTool[];
  options: GenerationOptions;
  /** ask for a JSON answer (structured output) */
  json?: boolean;
}

/** One streamed piece: answer text, reasoning text, a complete tool call, or the usage at the end. */
export type ChatChunk =
  | { type: 'text'; text: string }
  | { type: 'reasoning'; text: string }
  | { type: 'tool_call'; call: ToolCall }
  | { type: 'usage'; usage: TokenUsage };

export interface AgentChatModel {
  /** "<model>@<factory>" actually used */
  readonly id: string;
  /** context window in tokens; prompts are fitted to 97 % of it */
  readonly maxContextTokens?: number;
  /** Stream one completion. Throws on failure (the runtime retries per `max_retries`). */
  stream(request: ChatRequest, options: { signal: AbortSignal }): AsyncIterable<ChatChunk>;
}

export interface ChatModelPort {
  /**
   * The model for a component's `llm_id` ("<model>@<factory>"). `role` is `image2text` when images
   * are sent. A host may fall back to the tenant's default chat model and say so in `note`, which the
   * node's `node_finished` carries (API.md §13.2).
   */
  get(
    llmId: string,
    role: 'chat' | 'image2text',
    options: { signal: AbortSignal },
  ): Promise<{ model: AgentChatModel; note?: string }>;
}

// ---------- retrieval ----------

/** A retrieved chunk in the retriever's raw shape (RAGFlow field names). */
export interface RetrievedChunk {
  chunk_id: string;
  content_with_weight: string;
  doc_id: string;
  docnm_kwd: string;
  kb_id: string;
  similarity: number;
  vector_similarity?: number;
  term_similarity?: number;
  important_kwd?: string[];
  image_id?: string;
  positions?: unknown[];
  doc_type_kwd?: string;
  url?: string | null;
  /** document metadata, printed one line per field in the prompt text */
  meta?: Record<string, unknown>;
  [k: string]: unknown;
}

export interface DocAggregate {
  doc_name: string;
  doc_id: string;
  count: number;
  url?: string | null;
  [k: string]: unknown;
}

/** Agent Retrieval defaults (API.md §19.12): threshold 0.2, keyword weight 0.5, top_n 8, top_k 1024. */
export interface RetrievalRequest {
  query: string;
  /** dataset ids or names (resolved references); the host resolves names and checks access */
  datasets: string[];
  memoryIds: string[];
  from: 'dataset' | 'memory';
  similarityThreshold: number;
  /** 1 - keywords_similarity_weight */
  vectorSimilarityWeight: number;
  topN: number;
  topK: number;
  rerankId: string;
  useKg: boolean;
  crossLanguages: string[];
  tocEnhance: boolean;
  metaDataFilter: Record<string, unknown>;
}

export interface RetrievalResult {
  chunks: RetrievedChunk[];
  docAggs: DocAggregate[];
  /** memory mode: the recalled messages as text */
  text?: string;
}

export interface RetrievalPort {
  /** Throws with the user-facing reason ("No dataset is selected.", "Dataset(x) does not exist."…). */
  retrieve(request: RetrievalRequest, options: { signal: AbortSignal }): Promise<RetrievalResult>;
}

// ---------- tools (components the host implements) ----------

export interface ToolParamMeta {
  type: string;
  description: string;
  default?: unknown;
  enum?: unknown[];
  items?: unknown;
  required?: boolean;
}

/** A tool's function-calling description (RAGFlow `ToolMeta`, AGENTS.md §10.1). */
export interface ToolMeta {
  name: string;
  description: string;
  parameters: Record<string, ToolParamMeta>;
}

export interface ToolInvocation {
  /** the component's params, merged over its defaults */
  params: Record<string, unknown>;
  /** call arguments: from the model (Agent) or from the node's params with references resolved (canvas) */
  args: Record<string, unknown>;
  signal: AbortSignal;
  /** render `{refs}` inside a text (inline references of tool params) */
  render(text: string): Promise<string>;
  /** resolve one bare or braced reference */
  resolve(ref: string): Promise<unknown>;
  /** set one of the component's outputs */
  setOutput(name: string, value: unknown): void;
  /** add search hits to the run's references (citations) */
  addReferences(chunks: RetrievedChunk[], docAggs: DocAggregate[]): Promise<void>;
  /** wait, cancellable (retry back-off) */
  sleep(ms: number): Promise<void>;
  logger: LoggerPort;
}

export interface ToolComponent {
  componentName: string;
  /** function-calling description, given the component's params */
  meta(params: Record<string, unknown>): ToolMeta;
  /** load-time configuration check; reasons, empty when fine */
  check?(params: Record<string, unknown>): string[];
  /** run; the returned value is what an Agent observes (stringified when not a string) */
  invoke(call: ToolInvocation): Promise<unknown>;
}

export interface ToolPort {
  get(componentName: string): ToolComponent | undefined;
}

// ---------- MCP ----------

export interface McpPort {
  /** Call a tool of an MCP server (API.md §16); returns its text result. */
  callTool(
    request: {
      mcpId: string;
      name: string;
      arguments: Record<string, unknown>;
      headers: Record<string, unknown>;
    },
    options: { signal: AbortSignal; timeoutMs: number },
  ): Promise<string>;
}

// ---------- files and storage ----------

/** An upload descriptor from `POST /v1/canvas/upload/<id>` (AGENTS.md §5). */
export interface UploadDescriptor {
  id: string;
  name: string;
  size?: number;
  extension?: string;
  mime_type?: string;
  created_by?: string;
  created_at?: number;
  preview_url?: string | null;
  [k: string]: unknown;
}

export interface Attachment {
  doc_id: string;
  format: string;
  file_name: string;
}

export interface StoragePort {
  /** An image as `data:<mime>;base64,…`, any other file as its parsed text. */
  fileToText(file: UploadDescriptor, options: { signal: AbortSignal }): Promise<string>;
  /** Convert a Message's text to `format` (markdown/html/pdf/docx/xlsx) and store it. */
  saveAttachment(
    request: { content: string; format: string },
    options: { signal: AbortSignal },
  ): Promise<Attachment>;
}

// ---------- clock, ids, logger ----------

export interface ClockPort {
  /** epoch milliseconds */
  now(): number;
  /** a monotonic reading in milliseconds */
  monotonic(): number;
  /** resolves after `ms`, rejects when `signal` aborts */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export interface IdsPort {
  uuid(): string;
  /** a number in [0, 1) — which Message alternative is picked */
  random(): number;
}

export interface LoggerPort {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export interface AgentPorts {
  models: ChatModelPort;
  retrieval?: RetrievalPort;
  tools?: ToolPort;
  mcp?: McpPort;
  storage?: StoragePort;
  clock?: ClockPort;
  ids?: IdsPort;
  logger?: LoggerPort;
}

/** Ports with the optional infrastructure filled in. */
export interface ResolvedPorts extends AgentPorts {
  clock: ClockPort;
  ids: IdsPort;
  logger: LoggerPort;
}

export const systemClock: ClockPort = {
  now: () => Date.now(),
  monotonic: () => performance.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason ?? new Error('aborted'));
      const t = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        clearTimeout(t);
        reject(signal?.reason ?? new Error('aborted'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

export const randomIds: IdsPort = { uuid: () => globalThis.crypto.randomUUID(), random: () => Math.random() };

export const silentLogger: LoggerPort = { debug() {}, info() {}, warn() {}, error() {} };

export function resolvePorts(p: AgentPorts): ResolvedPorts {
  return { ...p, clock: p.clock ?? systemClock, ids: p.ids ?? randomIds, logger: p.logger ?? silentLogger };
}
