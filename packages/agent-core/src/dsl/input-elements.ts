/**
 * The variables a component reads (`GET /v1/canvas/input_elements` / `input_form`): every
 * reference in its params with a display name — `<node display name>@<var>`, or the plain
 * `sys.`/`env.` key (§4 "Display name of an input element").
 */
import { isPlainObject } from '../util/pyjson.js';
import { cleanRef, findRefs } from '../variables/refs.js';
import { labelOf } from './graph.js';
import type { Dsl } from './schema.js';

export interface InputElement {
  key: string;
  name: string;
  type: 'line';
}

function collect(value: unknown, out: string[], key = '') {
  if (key === 'outputs' || key === 'inputs') return;
  if (typeof value === 'string') {
    for (const r of findRefs(value)) if (!out.includes(r)) out.push(r);
  } else if (Array.isArray(value)) for (const v of value) collect(v, out);
  else if (isPlainObject(value)) for (const [k, v] of Object.entries(value)) collect(v, out, k);
}

export function inputElements(dsl: Dsl, componentId: string): InputElement[] {
  const c = dsl.components[componentId];
  if (!c) return [];
  const refs: string[] = [];
  collect(c.obj.params, refs);
  for (const bare of ['query', 'items_ref', 'split_ref']) {
    const v = c.obj.params[bare];
    if (
      typeof v === 'string' &&
      v &&
      !v.includes('{') &&
      (v.includes('@') || v.startsWith('sys.') || v.startsWith('env.')) &&
      !refs.includes(cleanRef(v))
    )
      refs.push(cleanRef(v));
  }
  return refs.map((key) => {
    const at = key.indexOf('@');
    return {
      key,
      name: at > 0 ? `${labelOf(dsl, key.slice(0, at))}@${key.slice(at + 1)}` : key,
      type: 'line',
    };
  });
}

/** `{<name>: {type, name}}` as `input_form` answers it. */
export function inputForm(dsl: Dsl, componentId: string): Record<string, { type: string; name: string }> {
  return Object.fromEntries(
    inputElements(dsl, componentId).map((e) => [e.key, { type: e.type, name: e.name }]),
  );
}
