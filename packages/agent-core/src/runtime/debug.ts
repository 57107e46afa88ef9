/**
 * `debugComponent` (`POST /v1/canvas/debug`): run one component of a reset canvas with given values
 * for its input elements (`{<ref>: {value}}` override what those references resolve to) and return
 * its outputs, streams collected to text.
 */
import { loadDsl } from '../dsl/load.js';
import { resetDsl } from '../dsl/reset.js';
import { resolvePorts, type AgentPorts, type TokenUsage } from '../ports.js';
import { cleanRef } from '../variables/refs.js';
import type { RunServices } from './context.js';
import { plainOutputs } from './finish.js';
import { invokeComponent } from './invoke.js';
import { CanvasState } from './state.js';

export interface DebugRequest {
  dsl: unknown;
  componentId: string;
  /** `{<name>: {value}}`: a reference (or a param name for LLM prompts) and the value to use */
  params: Record<string, { value?: unknown } | unknown>;
  ports: AgentPorts;
  signal?: AbortSignal;
}

export async function debugComponent(req: DebugRequest): Promise<Record<string, unknown>> {
  const dsl = resetDsl(loadDsl(req.dsl));
  const state = new CanvasState(dsl);
  const c = state.get(req.componentId);
  state.overrides = new Map();
  for (const [name, entry] of Object.entries(req.params)) {
    const value =
      entry && typeof entry === 'object' && 'value' in (entry as object)
        ? (entry as { value: unknown }).value
        : entry;
    state.overrides.set(cleanRef(name), value);
    // `/debug` gives StringTransform split its input as `line`.
    if (name === 'line' && typeof c.params.split_ref === 'string' && c.params.split_ref)
      state.overrides.set(cleanRef(c.params.split_ref), value);
  }
  const usage: TokenUsage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
  const controller = new AbortController();
  req.signal?.addEventListener('abort', () => controller.abort(), { once: true });
  const services: RunServices = {
    state,
    ports: resolvePorts(req.ports),
    isCancelled: async () => controller.signal.aborted,
    addUsage: (u) => {
      usage.totalTokens += u.totalTokens;
    },
    debug: true,
    loopRoundCap: 1000,
  };
  const inputs = c.type === 'Begin' || c.type === 'UserFillUp' ? {} : null;
  const ctx = await invokeComponent(services, c, inputs, controller.signal, { loopLimit: 1 });
  if (ctx.messagePlan) for await (const _ of ctx.messagePlan.pieces());
  for (const [name, s] of c.streams) c.outputs[name] = await s.text().catch(() => null);
  return plainOutputs(c);
}
