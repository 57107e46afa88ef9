/**
 * Post-processing of one component after its batch ran (§3.2 step 3), in path order: Message
 * streaming and `message_end`, exception handling (§3.9), `node_finished` (deferred for a streamed
 * producer until the Message consumed it), and choosing what runs next (§3.3).
 */
import type { MessagePlan } from '../components/types.js';
import { insideLoop } from '../dsl/validate.js';
import { CancelledError, errorMessage } from '../util/errors.js';
import type { Dsl } from '../dsl/schema.js';
import type { ResolvedPorts } from '../ports.js';
import type { RunEventName, RunEventOf } from './events.js';
import { hasDefaultValue } from './invoke.js';
import type { CanvasState, ComponentState } from './state.js';

const CANCELLED = new CancelledError().message;

/** What post-processing needs from the run (the RunEngine). */
export interface PostProcessHost {
  readonly dsl: Dsl;
  readonly state: CanvasState;
  readonly ports: ResolvedPorts;
  runError: { componentId: string | null; message: string; cancel: boolean } | null;
  emit<E extends RunEventName>(event: E, data: RunEventOf<E>['data']): void;
  emitFinished(c: ComponentState): void;
}

export class PostProcessor {
  readonly plans = new Map<string, MessagePlan | null>();
  private deferred: ComponentState[] = [];

  constructor(private readonly engine: PostProcessHost) {}

  async process(id: string) {
    const e = this.engine;
    const c = e.state.get(id);
    const plan = this.plans.get(id);
    this.plans.delete(id);
    if (plan && !c.error) await this.streamMessage(c, plan);

    let routed: string[] | null = null;
    // A streamed producer's failure shows when its Message reads it (finishDeferred), as in RAGFlow
    // where the answer is a lazy generator; only errors raised before the stream count here.
    const streaming = c.streams.size > 0;
    const err = streaming ? null : c.error;
    if (err && c.fatal) e.runError = { componentId: c.id, message: `${c.label}: ${err}`, cancel: false };
    else if (err) {
      const method = c.params.exception_method;
      const gotos = (c.params.exception_goto as string[]) ?? [];
      if (err !== CANCELLED && method && gotos.length) routed = gotos;
      else if (err !== CANCELLED && method && hasDefaultValue(c)) {
        e.emit('message', { content: String(c.params.exception_default_value) });
        e.emit('message_end', {});
      } else
        e.runError = {
          componentId: c.id,
          message: err === CANCELLED ? err : `${c.label}: ${err}`,
          cancel: err === CANCELLED,
        };
    }

    if (streaming && !e.runError) this.deferred.push(c);
    else {
      if (streaming) for (const name of c.streams.keys()) c.outputs[name] = null;
      const container = c.type === 'Iteration' || c.type === 'Loop';
      if (!container || err) e.emitFinished(c);
    }
    if (e.runError) return;
    this.nextStep(c, routed);
  }

  private async streamMessage(c: ComponentState, plan: MessagePlan) {
    const e = this.engine;
    try {
      for await (const piece of plan.pieces()) e.emit('message', piece);
      e.emit('message_end', await plan.finish());
    } catch (err) {
      c.outputs._ERROR = errorMessage(err);
      e.emit('message_end', {});
    }
    await this.finishDeferred();
  }

  /** Finish streamed producers (after a `message_end`, or at the end of the run). */
  async finishDeferred() {
    const e = this.engine;
    const list = this.deferred;
    this.deferred = [];
    for (const c of list) {
      if (!e.runError) for (const s of c.streams.values()) await s.settled;
      for (const [name, s] of c.streams) c.outputs[name] = e.runError || s.error ? null : s.partialText;
      c.finishedMono = e.ports.clock.monotonic();
      e.emitFinished(c);
      const err = c.error;
      if (err && !e.runError)
        e.runError = {
          componentId: c.id,
          message: err === CANCELLED ? err : `${c.label}: ${err}`,
          cancel: err === CANCELLED,
        };
    }
  }

  /** §3.3. "Append X" adds X unless it is already the last element of `path`. */
  private nextStep(c: ComponentState, routed: string[] | null) {
    const { state } = this.engine;
    const path = state.path;
    const append = (ids: readonly string[]) => {
      for (const id of ids) if (path[path.length - 1] !== id) path.push(id);
    };
    if (routed) return append(routed);
    const type = c.type;
    if ((type === 'IterationItem' || type === 'LoopItem') && c.parentId && state.container(c.parentId).done) {
      return this.containerDone(state.get(c.parentId), append);
    }
    if (type === 'Categorize' || type === 'Switch') {
      const next = c.outputs._next;
      return append(Array.isArray(next) ? (next as string[]) : []);
    }
    if (type === 'Iteration' || type === 'Loop') {
      const start = state.startChildOf(c.id);
      return append(start ? [start.id] : []);
    }
    if (type === 'ExitLoop') {
      const loopId = insideLoop(this.engine.dsl, c.id);
      if (loopId) {
        const loop = state.get(loopId);
        state.container(loopId).done = true;
        // RAGFlow never finishes the Loop after an ExitLoop (a Quirk); Lectern does.
        return this.containerDone(loop, append);
      }
    }
    if (!c.downstream.length && c.parentId) {
      const start = state.startChildOf(c.parentId);
      return append(start ? [start.id] : []);
    }
    append(c.downstream);
  }

  /** A container finished its rounds: its node_finished, then what follows it (its own container's next round when nested). */
  private containerDone(container: ComponentState, append: (ids: readonly string[]) => void) {
    container.finishedMono = this.engine.ports.clock.monotonic();
    this.engine.emitFinished(container);
    if (container.downstream.length || !container.parentId) return append(container.downstream);
    const start = this.engine.state.startChildOf(container.parentId);
    append(start ? [start.id] : []);
  }
}
