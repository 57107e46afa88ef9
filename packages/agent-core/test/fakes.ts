/**
 * Fakes of the ports for tests and the benchmark: a scripted chat model (text deltas, reasoning,
 * tool calls, errors, fixed latency), retrieval with canned chunks, a host tool registry, MCP,
 * storage, a stepping clock and counting ids. No network anywhere.
 */
import type {
  AgentChatModel,
  AgentPorts,
  ChatChunk,
  ChatModelPort,
  ChatRequest,
  ClockPort,
  IdsPort,
  McpPort,
  RetrievalPort,
  RetrievalRequest,
  RetrievedChunk,
  StoragePort,
  ToolCall,
  ToolComponent,
  ToolPort,
} from '../src/ports.js';

/** One scripted model answer. */
export interface Turn {
  /** answer deltas (a string is one delta) */
  text?: string | string[];
  reasoning?: string[];
  toolCalls?: (Omit<ToolCall, 'id'> & { id?: string })[];
  /** throw this error instead of answering (after `failAfter` text deltas) */
  error?: string;
  failAfter?: number;
  /** latency before the first chunk, in ms (real time) */
  delayMs?: number;
}

export type Script = Turn[] | ((request: ChatRequest, call: number, llmId: string) => Turn);

export class FakeChatModel implements AgentChatModel {
  readonly requests: ChatRequest[] = [];
  constructor(
    readonly id: string,
    private readonly next: (request: ChatRequest) => Turn,
    readonly maxContextTokens?: number,
  ) {}

  async *stream(request: ChatRequest, options: { signal: AbortSignal }): AsyncIterable<ChatChunk> {
    // The tool loop keeps appending to one messages array: keep this call's view of it.
    this.requests.push({ ...request, messages: [...request.messages] });
    const turn = this.next(request);
    if (turn.delayMs) await abortableDelay(turn.delayMs, options.signal);
    for (const r of turn.reasoning ?? []) yield { type: 'reasoning', text: r };
    const deltas = turn.text === undefined ? [] : Array.isArray(turn.text) ? turn.text : [turn.text];
    let sent = 0;
    for (const d of deltas) {
      if (turn.error && turn.failAfter !== undefined && sent >= turn.failAfter) throw new Error(turn.error);
      if (options.signal.aborted) throw Object.assign(new Error('aborted'), { name: 'AbortError' });
      yield { type: 'text', text: d };
      sent++;
    }
    if (turn.error) throw new Error(turn.error);
    let n = 0;
    for (const c of turn.toolCalls ?? [])
      yield {
        type: 'tool_call',
        call: { id: c.id ?? `call_${this.requests.length}_${n++}`, name: c.name, arguments: c.arguments },
      };
    yield {
      type: 'usage',
      usage: { promptTokens: 10, completionTokens: deltas.length, totalTokens: 10 + deltas.length },
    };
  }
}

function abortableDelay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => (clearTimeout(t), reject(Object.assign(new Error('aborted'), { name: 'AbortError' }))),
      { once: true },
    );
  });
}

/** A model port over one script shared by every `llm_id`; `calls` lists the llm_ids asked for. */
export class FakeModels implements ChatModelPort {
  readonly calls: { llmId: string; role: string }[] = [];
  readonly models = new Map<string, FakeChatModel>();
  private count = 0;
  constructor(
    private readonly script: Script,
    private readonly options: { fallbackNote?: string; maxContextTokens?: number } = {},
  ) {}

  async get(llmId: string, role: 'chat' | 'image2text') {
    this.calls.push({ llmId, role });
    let model = this.models.get(llmId);
    if (!model) {
      model = new FakeChatModel(llmId, (req) => this.turn(req, llmId), this.options.maxContextTokens);
      this.models.set(llmId, model);
    }
    return { model, note: this.options.fallbackNote };
  }

  private turn(req: ChatRequest, llmId: string): Turn {
    const i = this.count++;
    if (typeof this.script === 'function') return this.script(req, i, llmId);
    const t = this.script[i];
    if (!t) throw new Error(`The fake model has no scripted answer for call ${i + 1}`);
    return t;
  }

  /** Every request any model got, in order. */
  get requests(): ChatRequest[] {
    return [...this.models.values()].flatMap((m) => m.requests);
  }
}

export function chunk(id: string, content: string, doc = 'manual.pdf'): RetrievedChunk {
  return {
    chunk_id: id,
    content_with_weight: content,
    doc_id: `doc-${doc}`,
    docnm_kwd: doc,
    kb_id: 'kb1',
    similarity: 0.9,
    vector_similarity: 0.8,
    term_similarity: 0.7,
    positions: [],
  };
}

export class FakeRetrieval implements RetrievalPort {
  readonly requests: RetrievalRequest[] = [];
  constructor(
    private readonly chunks: RetrievedChunk[] = [chunk('c1', 'Lectern stores chunks in SQLite.')],
  ) {}
  async retrieve(request: RetrievalRequest) {
    this.requests.push(request);
    if (request.datasets.includes('missing')) throw new Error('Dataset(missing) does not exist.');
    const docs = new Map<string, number>();
    for (const c of this.chunks) docs.set(c.docnm_kwd, (docs.get(c.docnm_kwd) ?? 0) + 1);
    return {
      chunks: this.chunks,
      docAggs: [...docs].map(([doc_name, count]) => ({ doc_name, doc_id: `doc-${doc_name}`, count })),
    };
  }
}

/** A host tool whose behaviour is a function of its arguments. */
export function fakeTool(
  componentName: string,
  name: string,
  run: (args: Record<string, unknown>, params: Record<string, unknown>) => unknown | Promise<unknown>,
  parameters: Record<string, { type: string; description: string; required?: boolean; default?: unknown }> = {
    query: { type: 'string', description: 'what to look for', required: true, default: '{sys.query}' },
  },
  outputName = 'formalized_content',
): ToolComponent & { calls: Record<string, unknown>[] } {
  const calls: Record<string, unknown>[] = [];
  return {
    componentName,
    calls,
    meta: () => ({ name, description: `${componentName} (fake)`, parameters }),
    async invoke(call) {
      calls.push(call.args);
      const result = await run(call.args, call.params);
      call.setOutput(outputName, result);
      return result;
    },
  };
}

export function toolPort(...tools: ToolComponent[]): ToolPort {
  return { get: (n) => tools.find((t) => t.componentName === n) };
}

export class FakeMcp implements McpPort {
  readonly calls: { mcpId: string; name: string; arguments: Record<string, unknown> }[] = [];
  constructor(private readonly answer: (name: string, args: Record<string, unknown>) => string) {}
  async callTool(req: { mcpId: string; name: string; arguments: Record<string, unknown> }) {
    this.calls.push({ mcpId: req.mcpId, name: req.name, arguments: req.arguments });
    return this.answer(req.name, req.arguments);
  }
}

export class FakeStorage implements StoragePort {
  readonly saved: { content: string; format: string }[] = [];
  async fileToText(file: { name: string; mime_type?: string }) {
    return file.mime_type?.startsWith('image/')
      ? `data:${file.mime_type};base64,AAAA`
      : `text of ${file.name}`;
  }
  async saveAttachment(req: { content: string; format: string }) {
    this.saved.push(req);
    return { doc_id: 'abcdef0123456789', format: req.format, file_name: `abcdef01.${req.format}` };
  }
}

/** Time advances 1 ms per reading; `sleep` returns at once and is recorded. */
export class FakeClock implements ClockPort {
  t = 1_700_000_000_000;
  readonly sleeps: number[] = [];
  now() {
    return (this.t += 1);
  }
  monotonic() {
    return this.now();
  }
  async sleep(ms: number, signal?: AbortSignal) {
    if (signal?.aborted) throw Object.assign(new Error('aborted'), { name: 'AbortError' });
    this.sleeps.push(ms);
  }
}

export class FakeIds implements IdsPort {
  n = 0;
  constructor(private readonly pick = 0) {}
  uuid() {
    return `id-${++this.n}`;
  }
  random() {
    return this.pick;
  }
}

export function fakePorts(
  script: Script,
  extra: Partial<AgentPorts> = {},
): AgentPorts & { models: FakeModels; clock: FakeClock } {
  return {
    models: new FakeModels(script),
    clock: new FakeClock(),
    ids: new FakeIds(),
    retrieval: new FakeRetrieval(),
    storage: new FakeStorage(),
    ...extra,
  } as AgentPorts & { models: FakeModels; clock: FakeClock };
}
