/** Building `node_finished` / `workflow_finished` data from component state. */
import { pyJson } from '../util/pyjson.js';
import type { NodeFinishedData } from './events.js';
import type { ComponentState } from './state.js';
import { isTextStream } from './text-stream.js';

/** Output values as they leave the run: a settled stream becomes its text, a failed one null. */
export function plainValue(v: unknown): unknown {
  if (isTextStream(v)) return v.done && !v.error ? v.partialText : v.error ? null : v.partialText;
  return v;
}

export function plainOutputs(c: ComponentState): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(c.outputs)) out[k] = plainValue(v);
  return out;
}

export function nodeFinishedData(c: ComponentState, nowMono: number): NodeFinishedData {
  const elapsed = Math.max(0, ((c.finishedMono || nowMono) - c.startedMono) / 1000);
  c.outputs._elapsed_time = elapsed;
  const data: NodeFinishedData = {
    inputs: c.inputs,
    outputs: plainOutputs(c),
    component_id: c.id,
    component_name: c.displayName,
    component_type: c.type,
    error: c.error,
    elapsed_time: elapsed,
    created_at: c.startedAt / 1000,
  };
  if (c.note) data.note = c.note;
  return data;
}

/** "assistant: <outputs as text>" for `sys.history` (§3.2). */
export function historyLine(role: string, content: unknown): string {
  return `${role}: ${typeof content === 'string' ? content : pyJson(content)}`;
}
