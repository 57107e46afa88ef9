/**
 * `runCanvas`: run one turn of an agent DSL and stream its events (API.md §13.2).
 *
 *   const run = runCanvas({ dsl, query, inputs, taskId, ports });
 *   for await (const event of run) send(`data:${JSON.stringify(event)}\n\n`);
 *   const outcome = await run.outcome;      // finished | paused | error | cancelled
 *   if (outcome.status !== 'error') save(run.dsl);
 *
 * The DSL is loaded (legacy names mapped) and validated first: a malformed DSL throws `DslError`
 * synchronously, before any event, so the caller answers with an ordinary JSON error. The run
 * starts at once and keeps going if the consumer stops reading (a browser disconnect does not kill
 * it); events are buffered for the single consumer.
 */
import { loadDsl } from '../dsl/load.js';
import { inParseScope } from '../dsl/params-cache.js';
import type { Dsl } from '../dsl/schema.js';
import { assertValidDsl } from '../dsl/validate.js';
import type { AgentPorts } from '../ports.js';
import { RunEngine, type RunOutcome, type RunRequest } from './engine.js';
import type { RunEvent } from './events.js';
import type { TraceEntry } from './state.js';

export interface RunCanvasOptions extends RunRequest {
  /** the saved DSL (object or JSON text); it is copied, never modified */
  dsl: unknown;
  ports: AgentPorts;
  /** skip validation (the caller validated already); loading still happens */
  validate?: boolean;
}

export interface CanvasRun extends AsyncIterable<RunEvent> {
  /** the run's message id (every event carries it) */
  readonly messageId: string;
  /** the DSL with this run's state (history, path, globals, retrieval, outputs); final once `outcome` settles */
  readonly dsl: Dsl;
  /** tool calls and internal steps per component, for `GET /v1/canvas/trace` */
  readonly trace: { component_id: string; trace: TraceEntry[] }[];
  /** settles when the run ended; never rejects */
  readonly outcome: Promise<RunOutcome>;
  /** stop the run (same as aborting `signal`) */
  cancel(): void;
}

export function runCanvas(options: RunCanvasOptions): CanvasRun {
  const { dsl, engine } = inParseScope(() => {
    const loaded = loadDsl(options.dsl);
    if (options.validate !== false) assertValidDsl(loaded, { names: false, tools: options.ports.tools });
    return { dsl: loaded, engine: new RunEngine(loaded, options.ports, options) };
  });
  const outcome = engine.execute();
  return {
    messageId: engine.messageId,
    dsl,
    trace: engine.state.trace,
    outcome,
    cancel: () => engine.controller.abort(),
    [Symbol.asyncIterator]: () => engine.events[Symbol.asyncIterator](),
  };
}
