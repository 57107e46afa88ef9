/**
 * State written back into the DSL after a run (§3.12): history, path, retrieval and globals are the
 * DSL's own arrays (already updated); here the components' last output values go into
 * `params.outputs.*.value` and Begin/UserFillUp input values into `params.inputs.*.value`, and
 * `task_id` is set. Other params are left exactly as saved.
 */
import { isPlainObject } from '../util/pyjson.js';
import { plainValue } from './finish.js';
import type { CanvasState } from './state.js';

export function writeBack(state: CanvasState, taskId: string) {
  for (const c of state.components.values()) {
    const params = c.raw.obj.params;
    const produced = Object.entries(c.outputs).filter(([k]) => !k.startsWith('_'));
    const decl = isPlainObject(params.outputs) ? params.outputs : null;
    if (decl) for (const v of Object.values(decl)) if (isPlainObject(v) && 'value' in v) v.value = null;
    if (produced.length) {
      const outputs = decl ?? (params.outputs = {} as Record<string, unknown>);
      for (const [k, v] of produced) {
        const prev = outputs[k];
        outputs[k] = { ...(isPlainObject(prev) ? prev : {}), value: plainValue(v) ?? null };
      }
    }
    if ((c.type === 'Begin' || c.type === 'UserFillUp') && isPlainObject(params.inputs)) {
      for (const [k, v] of Object.entries(c.inputs)) {
        const def = params.inputs[k];
        if (isPlainObject(def)) def.value = v;
      }
    }
  }
  state.dsl.task_id = taskId;
}
