/**
 * The batch loop of AGENTS.md §3: run the frontier of `path` concurrently (≤ 5), post-process it in
 * path order (Message streaming, exception routes, node_finished, next-step selection), repeat;
 * pause at a UserFillUp; write the run's state back into the DSL.
 */
import type { Dsl } from '../dsl/schema.js';
import {
  resolvePorts,
  type AgentPorts,
  type ResolvedPorts,
  type TokenUsage,
  type UploadDescriptor,
} from '../ports.js';
import { errorMessage } from '../util/errors.js';
import { mapPool } from '../util/pool.js';
import type { RunServices } from './context.js';
import { EventQueue } from './event-queue.js';
import type { RunEvent, RunEventName, RunEventOf } from './events.js';
import { historyLine, nodeFinishedData, plainOutputs } from './finish.js';
import { invokeComponent, type InvokeLimits } from './invoke.js';
import { PostProcessor } from './post-process.js';
import { skipped } from './skip-rule.js';
import { CanvasState, type ComponentState } from './state.js';
import { writeBack } from './write-back.js';

export interface RunLimits extends InvokeLimits {
  /** components running at once in a batch (§3.5) */
  concurrency: number;
  /** rounds a Loop may run whatever its maximum_loop_count says */
  maxLoopRounds: number;
}

const RUN_ENDED = new Error('The run has ended');

export const DEFAULT_LIMITS: RunLimits = { concurrency: 5, loopLimit: 50, maxLoopRounds: 1000 };

export interface RunRequest {
  query?: string;
  files?: (UploadDescriptor | string)[];
  inputs?: Record<string, unknown>;
  userId?: string;
  taskId: string;
  signal?: AbortSignal;
  isCancelled?: () => boolean | Promise<boolean>;
  limits?: Partial<RunLimits>;
}

export type RunStatus = 'running' | 'finished' | 'paused' | 'error' | 'cancelled';

export interface RunOutcome {
  status: Exclude<RunStatus, 'running'>;
  /** the error text for 'error' / 'cancelled' */
  error?: string;
  /** the component whose error ended the run */
  errorComponentId?: string;
  usage: TokenUsage;
}

/** A paused run: the path starts with a UserFillUp and the last turn has no assistant answer yet. */
export function isPaused(dsl: Dsl): boolean {
  const first = dsl.path[0];
  const last = dsl.history[dsl.history.length - 1];
  return Boolean(
    first && dsl.components[first]?.obj.component_name === 'UserFillUp' && last && last[0] === 'user',
  );
}

export class RunEngine implements RunServices {
  readonly state: CanvasState;
  readonly ports: ResolvedPorts;
  readonly events = new EventQueue<RunEvent>();
  readonly limits: RunLimits;
  readonly debug = false;
  readonly controller = new AbortController();
  readonly messageId: string;
  createdAt = 0;
  status: RunStatus = 'running';
  runError: { componentId: string | null; message: string; cancel: boolean } | null = null;
  usage: TokenUsage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
  private readonly post: PostProcessor;
  private detachOuter: (() => void) | null = null;

  constructor(
    readonly dsl: Dsl,
    ports: AgentPorts,
    readonly request: RunRequest,
  ) {
    this.ports = resolvePorts(ports);
    this.limits = { ...DEFAULT_LIMITS, ...request.limits };
    this.state = new CanvasState(dsl);
    this.messageId = this.ports.ids.uuid();
    this.post = new PostProcessor(this);
    if (request.signal) {
      const outer = request.signal;
      const onAbort = () => this.controller.abort();
      if (outer.aborted) this.controller.abort();
      else {
        outer.addEventListener('abort', onAbort, { once: true });
        this.detachOuter = () => outer.removeEventListener('abort', onAbort);
      }
    }
  }

  get loopRoundCap(): number {
    return this.limits.maxLoopRounds;
  }

  async isCancelled(): Promise<boolean> {
    if (this.controller.signal.aborted) return true;
    return this.request.isCancelled ? Boolean(await this.request.isCancelled()) : false;
  }

  addUsage(u: TokenUsage) {
    this.usage.promptTokens += u.promptTokens;
    this.usage.completionTokens += u.completionTokens;
    this.usage.totalTokens += u.totalTokens;
  }

  emit<E extends RunEventName>(event: E, data: RunEventOf<E>['data']) {
    this.events.push({
      event,
      message_id: this.messageId,
      created_at: this.createdAt,
      task_id: this.request.taskId,
      data,
    } as RunEvent);
  }

  emitError(message: string) {
    this.events.push({ code: 500, message, data: false });
  }

  emitStarted(c: ComponentState) {
    this.emit('node_started', {
      inputs: null,
      created_at: Math.floor(this.ports.clock.now() / 1000),
      component_id: c.id,
      component_name: c.displayName,
      component_type: c.type,
      thoughts: '',
    });
  }

  emitFinished(c: ComponentState) {
    this.emit('node_finished', nodeFinishedData(c, this.ports.clock.monotonic()));
  }

  async execute(): Promise<RunOutcome> {
    try {
      await this.run();
    } catch (e) {
      // Anything escaping the loop (a loop-condition error, a broken port) is an error event (§3.9).
      if (this.status === 'running') {
        this.status = 'error';
        this.runError = { componentId: null, message: errorMessage(e), cancel: false };
        this.emitError(errorMessage(e));
      }
    } finally {
      // Stops anything still running (an unread stream); a plain reason avoids building a DOMException.
      this.controller.abort(RUN_ENDED);
      this.detachOuter?.();
      writeBack(this.state, this.request.taskId);
      this.events.close();
    }
    const status = this.status === 'running' ? 'error' : this.status;
    return {
      status,
      error: this.runError?.message,
      errorComponentId: this.runError?.componentId ?? undefined,
      usage: this.usage,
    };
  }

  private async run() {
    const { clock } = this.ports;
    const startMono = clock.monotonic();
    this.createdAt = Math.floor(clock.now() / 1000);
    const { state } = this;
    const g = state.globals;
    const query = this.request.query ?? '';
    const resumed = isPaused(this.dsl);

    state.history.push(['user', query]);
    g['sys.history'] = [
      ...(Array.isArray(g['sys.history']) ? g['sys.history'] : []),
      historyLine('user', query),
    ];
    if (resumed) for (const c of state.components.values()) c.restoreOutputs();
    if (query) g['sys.query'] = query;
    if (this.request.userId) g['sys.user_id'] = this.request.userId;
    if (this.request.files?.length) g['sys.files'] = await this.convertFiles(this.request.files);
    g['sys.conversation_turns'] = (Number(g['sys.conversation_turns']) || 0) + 1;
    if (!resumed) {
      state.path.push('begin');
      this.dsl.retrieval.push({ chunks: [], doc_aggs: [] });
    }
    if (await this.isCancelled()) {
      this.status = 'cancelled';
      this.runError = {
        componentId: null,
        message: `Task ${this.request.taskId} has been canceled before starting.`,
        cancel: true,
      };
      this.emitError(this.runError.message);
      return;
    }
    const inputs = this.request.inputs ?? {};
    this.emit('workflow_started', { inputs });
    this.dsl.retrieval.push({ chunks: {}, doc_aggs: {} });

    let idx = resumed ? 0 : state.path.length - 1;
    while (idx < state.path.length) {
      if (await this.isCancelled()) {
        this.status = 'cancelled';
        this.runError = {
          componentId: null,
          message: `Task ${this.request.taskId} has been canceled during batch execution.`,
          cancel: true,
        };
        this.emitError(this.runError.message);
        return;
      }
      const end = await this.runBatch(idx, resumed, inputs);
      if (this.runError) break;
      idx = end;
      const frontier = state.path.slice(idx);
      if (frontier.some((id) => state.get(id).type === 'UserFillUp')) {
        await this.pause(frontier);
        return;
      }
    }
    await this.post.finishDeferred();
    if (this.runError) {
      if (this.runError.cancel) {
        this.status = 'cancelled';
        this.emit('workflow_finished', {
          inputs,
          outputs: 'Task has been canceled',
          elapsed_time: (clock.monotonic() - startMono) / 1000,
          created_at: this.createdAt,
        });
      } else {
        this.status = 'error';
        this.emitError(this.runError.message);
      }
      return;
    }
    const last = state.path[state.path.length - 1];
    const outputs = last ? plainOutputs(state.get(last)) : {};
    this.emit('workflow_finished', {
      inputs,
      outputs,
      elapsed_time: (clock.monotonic() - startMono) / 1000,
      created_at: this.createdAt,
    });
    state.history.push(['assistant', outputs]);
    g['sys.history'] = [...(g['sys.history'] as unknown[]), historyLine('assistant', outputs)];
    this.status = 'finished';
  }

  /** One batch: node_started for each, run concurrently (skip rule first), post-process in order. */
  private async runBatch(idx: number, resumed: boolean, inputs: Record<string, unknown>): Promise<number> {
    const { state } = this;
    const to = state.path.length;
    const batch = state.path.slice(idx, to);
    for (const id of batch) this.emitStarted(state.get(id));
    const drop = new Set<number>();
    await mapPool(batch, this.limits.concurrency, async (id, i) => {
      const pos = idx + i;
      const c = state.get(id);
      // The same id twice in one batch runs once.
      if (batch.indexOf(id) !== i || (!resumed && skipped(c, state.path.slice(0, pos)))) {
        drop.add(pos);
        return;
      }
      const withInputs = c.type === 'Begin' || c.type === 'UserFillUp' ? inputs : null;
      const ctx = await invokeComponent(this, c, withInputs, this.controller.signal, this.limits);
      this.post.plans.set(id, ctx.messagePlan);
    });
    if (drop.size) {
      const kept = state.path.filter((_, p) => !drop.has(p));
      state.path.length = 0;
      state.path.push(...kept);
    }
    const end = to - drop.size;
    for (let p = idx; p < end; p++) {
      await this.post.process(state.path[p]);
      if (this.runError) break;
    }
    return end;
  }

  /** §3.8: the UserFillUps first, then the rest of the frontier; tips rendered; `user_inputs`. */
  private async pause(frontier: string[]) {
    const { state } = this;
    const ufs = frontier.filter((id) => state.get(id).type === 'UserFillUp');
    const others = frontier.filter((id) => state.get(id).type !== 'UserFillUp');
    await this.post.finishDeferred();
    state.path.length = 0;
    state.path.push(...ufs, ...others);
    const forms: Record<string, unknown> = {};
    let tips = '';
    for (const id of ufs) {
      const c = state.get(id);
      await invokeComponent(this, c, null, this.controller.signal, this.limits);
      Object.assign(forms, c.params.inputs as Record<string, unknown>);
      if (c.params.enable_tips) tips = typeof c.outputs.tips === 'string' ? c.outputs.tips : '';
    }
    this.emit('user_inputs', { inputs: forms, tips });
    this.status = 'paused';
  }

  private async convertFiles(files: (UploadDescriptor | string)[]): Promise<string[]> {
    const out: string[] = [];
    for (const f of files) {
      if (typeof f === 'string') out.push(f);
      else {
        if (!this.ports.storage) throw new Error('File inputs need a storage port');
        out.push(await this.ports.storage.fileToText(f, { signal: this.controller.signal }));
      }
    }
    return out;
  }
}
