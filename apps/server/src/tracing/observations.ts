/**
 * A trace and its observations as Langfuse ingestion events (API.md §14): each span or generation
 * becomes one `span-create` / `generation-create` event when it ends (start and end times, input,
 * output, usage), and the trace one `trace-create` event when it ends. Inputs and outputs are
 * copied as JSON with long strings clipped, so a batch stays far below the host's size limit.
 */
import crypto from 'node:crypto';
import type { IngestionEvent } from './langfuse-api.js';
import type { Generation, GenerationStart, Observation, ObservationEnd, Trace, TraceStart } from './types.js';

export type EventSink = (event: IngestionEvent) => void;

/** Longest string kept in an input or output (characters). */
const MAX_STRING = 16_000;
const MAX_ITEMS = 200;

/** A JSON copy of `value` with long strings and lists clipped and bytes described. */
export function clip(value: unknown): unknown {
  if (value === undefined) return undefined;
  try {
    const text = JSON.stringify(value, (_key, v: unknown) => {
      if (typeof v === 'string' && v.length > MAX_STRING)
        return `${v.slice(0, MAX_STRING)}… (${v.length - MAX_STRING} more characters)`;
      if (v instanceof Uint8Array) return `(${v.byteLength} bytes)`;
      if (Array.isArray(v) && v.length > MAX_ITEMS)
        return [...v.slice(0, MAX_ITEMS), `(${v.length - MAX_ITEMS} more)`];
      if (typeof v === 'bigint') return Number(v);
      return v;
    });
    return text === undefined ? undefined : (JSON.parse(text) as unknown);
  } catch {
    return String(value);
  }
}

const iso = (d: Date) => d.toISOString();
const uuid = () => crypto.randomUUID();

function envelope(type: IngestionEvent['type'], body: Record<string, unknown>): IngestionEvent {
  return { id: uuid(), timestamp: iso(new Date()), type, body };
}

type ModelParameters = Record<string, string | number | boolean | null>;

function parametersOf(p: GenerationStart['modelParameters']): ModelParameters | undefined {
  if (!p) return undefined;
  const kept = Object.entries(p).filter(([, v]) => v !== undefined) as Array<
    [string, string | number | boolean | null]
  >;
  return kept.length > 0 ? Object.fromEntries(kept) : undefined;
}

class LangfuseObservation implements Generation {
  readonly id = uuid();
  private readonly startTime = new Date();
  private completionStart: Date | undefined;
  private ended = false;

  constructor(
    private readonly sink: EventSink,
    private readonly traceId: string,
    private readonly parentId: string | undefined,
    private readonly name: string,
    private readonly input: unknown,
    private readonly metadata: Record<string, unknown> | undefined,
    private readonly model?: { model: string; parameters: ModelParameters | undefined },
  ) {}

  span(name: string, input?: unknown, metadata?: Record<string, unknown>): Observation {
    return new LangfuseObservation(this.sink, this.traceId, this.id, name, clip(input), metadata);
  }

  generation(name: string, start: GenerationStart): Generation {
    return childGeneration(this.sink, this.traceId, this.id, name, start);
  }

  firstToken(): void {
    this.completionStart ??= new Date();
  }

  end(result: ObservationEnd = {}): void {
    if (this.ended) return;
    this.ended = true;
    const body: Record<string, unknown> = {
      id: this.id,
      traceId: this.traceId,
      parentObservationId: this.parentId,
      name: this.name,
      startTime: iso(this.startTime),
      endTime: iso(new Date()),
      input: this.input,
      output: clip(result.output),
      metadata: clip({ ...this.metadata, ...result.metadata }),
      level: result.error ? 'ERROR' : 'DEFAULT',
      statusMessage: result.error,
    };
    if (!this.model) return this.sink(envelope('span-create', body));
    const u = result.usage;
    this.sink(
      envelope('generation-create', {
        ...body,
        model: this.model.model,
        modelParameters: this.model.parameters,
        completionStartTime: this.completionStart ? iso(this.completionStart) : undefined,
        usage: u ? { input: u.input, output: u.output, total: u.total, unit: 'TOKENS' } : undefined,
        usageDetails: u ? { input: u.input, output: u.output, total: u.total } : undefined,
      }),
    );
  }
}

function childGeneration(
  sink: EventSink,
  traceId: string,
  parentId: string | undefined,
  name: string,
  start: GenerationStart,
): Generation {
  return new LangfuseObservation(sink, traceId, parentId, name, clip(start.input), start.metadata, {
    model: start.model,
    parameters: parametersOf(start.modelParameters),
  });
}

/** One request's trace; its observations and then the trace itself go to `sink` as they end. */
export class LangfuseTrace implements Trace {
  readonly id = uuid();
  private readonly timestamp = new Date();
  private ended = false;

  constructor(
    private readonly sink: EventSink,
    private readonly start: TraceStart,
  ) {}

  span(name: string, input?: unknown, metadata?: Record<string, unknown>): Observation {
    return new LangfuseObservation(this.sink, this.id, undefined, name, clip(input), metadata);
  }

  generation(name: string, start: GenerationStart): Generation {
    return childGeneration(this.sink, this.id, undefined, name, start);
  }

  end(result: ObservationEnd = {}): void {
    if (this.ended) return;
    this.ended = true;
    const s = this.start;
    const metadata = {
      ...s.metadata,
      ...result.metadata,
      ...(result.error ? { error: result.error } : {}),
      duration_ms: Date.now() - this.timestamp.getTime(),
    };
    this.sink(
      envelope('trace-create', {
        id: this.id,
        timestamp: iso(this.timestamp),
        name: s.name,
        userId: s.userId,
        sessionId: s.sessionId,
        input: clip(s.input),
        output: clip(result.output),
        metadata: clip(metadata),
        tags: [...(s.tags ?? []), ...(result.error ? ['error'] : [])],
      }),
    );
  }
}
