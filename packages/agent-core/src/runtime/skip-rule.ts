/**
 * Skip rule (§3.4): a component (other than Begin/UserFillUp) whose input elements refer to a
 * component that has not appeared in `path` before it is removed from `path` and never runs. This is
 * how alternative branches join: only VariableAggregator may read branches that might not have run.
 */
import { isPlainObject } from '../util/pyjson.js';
import { cleanRef, componentRefs } from '../variables/refs.js';
import type { ComponentState } from './state.js';

function collect(value: unknown, out: Set<string>) {
  if (typeof value === 'string') {
    for (const id of componentRefs(value)) out.add(id);
    // a whole-string bare reference (Categorize `query`)
    const bare = cleanRef(value);
    if (!/\s/.test(bare) && bare.split('@').length === 2 && !value.includes('{')) out.add(bare.split('@')[0]);
  } else if (Array.isArray(value)) for (const v of value) collect(v, out);
  else if (isPlainObject(value)) for (const v of Object.values(value)) collect(v, out);
}

/** Component ids a component's input elements refer to. */
/** Parsed params are shared across runs (cached, frozen), so their references are computed once. */
const byParams = new WeakMap<object, Set<string>>();

export function inputElementRefs(c: ComponentState): Set<string> {
  let refs = byParams.get(c.params);
  if (!refs) {
    refs = new Set<string>();
    for (const p of c.entry.inputElementParams) collect(c.params[p], refs);
    byParams.set(c.params, refs);
  }
  return refs;
}

export function skipped(c: ComponentState, pathBefore: string[]): boolean {
  if (c.type === 'Begin' || c.type === 'UserFillUp') return false;
  const refs = inputElementRefs(c);
  if (!refs.size) return false;
  const seen = new Set(pathBefore);
  for (const id of refs) if (id !== c.id && !seen.has(id)) return true;
  return false;
}
