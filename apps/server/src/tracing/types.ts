/**
 * The tracing port: what the chat pipeline and agent runs report about one request, as a trace of
 * nested observations (spans, and generations for model calls). The composition root builds one
 * `Tracing` per process (./langfuse.ts sends to a tenant's Langfuse host when it has keys, API.md
 * §14). A caller never waits on the network and never sees a tracing failure: `start` answers the
 * no-op trace when the tenant has no keys or anything goes wrong.
 */

/** Token counts of one model call. */
export interface TraceUsage {
  input: number;
  output: number;
  total: number;
}

export interface ObservationEnd {
  output?: unknown;
  /** Model calls: the tokens used. */
  usage?: TraceUsage;
  /** Merged into the metadata given at the start. */
  metadata?: Record<string, unknown>;
  /** The step failed: its message. */
  error?: string;
}

export interface GenerationStart {
  /** The model id ("<llm_name>@<factory>"). */
  model: string;
  input: unknown;
  modelParameters?: Record<string, string | number | boolean | null | undefined>;
  metadata?: Record<string, unknown>;
}

/** A step of a trace. Ending one twice keeps the first end. */
export interface Observation {
  /** A child step (retrieval, rerank, a tool, a component). */
  span(name: string, input?: unknown, metadata?: Record<string, unknown>): Observation;
  /** A child model call. */
  generation(name: string, start: GenerationStart): Generation;
  end(result?: ObservationEnd): void;
}

export interface Generation extends Observation {
  /** When the first token arrived (streamed calls). */
  firstToken(): void;
}

export interface TraceStart {
  /** "chat", "search", "agent"… */
  name: string;
  input: unknown;
  /** The end user, when known. */
  userId?: string;
  /** The conversation or agent session. */
  sessionId?: string;
  metadata?: Record<string, unknown>;
  tags?: string[];
}

/** One request's trace; `end` queues it (with the output) for sending. */
export interface Trace extends Observation {
  /** Empty for the no-op trace. */
  readonly id: string;
}

/** What the tracing port has done since the process started. */
export interface TracingStats {
  /** Events accepted by a host (2xx answer). */
  sent: number;
  /** Events in batches a host refused or could not be reached for. */
  failed: number;
  /** Events dropped because a host's queue was full. */
  dropped: number;
  /** Events waiting to be sent. */
  queued: number;
}

export interface Tracing {
  /** The trace of one request of `tenantId`: the no-op trace when it has no tracing keys. Never throws. */
  start(tenantId: string, start: TraceStart): Promise<Trace>;
  /** Sends everything queued now (tests, shutdown). Never throws. */
  flush(): Promise<void>;
  stats(): TracingStats;
  /** Sends what is queued (bounded wait) and stops the timer. */
  close(): Promise<void>;
}

class NoopObservation implements Generation {
  span(): Observation {
    return this;
  }
  generation(): Generation {
    return this;
  }
  firstToken(): void {}
  end(): void {}
}

const noop = new NoopObservation();

/** The trace of a request that is not traced. */
export const NO_TRACE: Trace = {
  id: '',
  span: () => noop,
  generation: () => noop,
  end: () => undefined,
};

/** A process without tracing (tools, benchmarks): every trace is the no-op one. */
export const noTracing: Tracing = {
  start: () => Promise.resolve(NO_TRACE),
  flush: () => Promise.resolve(),
  stats: () => ({ sent: 0, failed: 0, dropped: 0, queued: 0 }),
  close: () => Promise.resolve(),
};
