/**
 * `resetDsl` (§3.13): what `POST /v1/canvas/reset` saves — path, history, retrieval and memory
 * emptied, every output and input value null, `sys.*` globals emptied by their type, `env.*` and
 * `variables[*].value` back to their type's default. `graph` and `messages` are kept.
 */
import { isPlainObject } from '../util/pyjson.js';
import { defaultOfType } from './load.js';
import type { Dsl } from './schema.js';

function emptyLike(v: unknown): unknown {
  if (typeof v === 'string') return '';
  if (typeof v === 'number') return 0;
  if (Array.isArray(v)) return [];
  if (isPlainObject(v)) return {};
  return null;
}

export function resetDsl(input: Dsl): Dsl {
  const dsl = structuredClone(input);
  dsl.path = [];
  dsl.history = [];
  dsl.retrieval = [];
  dsl.memory = [];
  for (const c of Object.values(dsl.components)) {
    for (const key of ['outputs', 'inputs'] as const) {
      const decl = c.obj.params[key];
      if (isPlainObject(decl))
        for (const v of Object.values(decl)) if (isPlainObject(v) && 'value' in v) v.value = null;
    }
  }
  const g = (dsl.globals ??= {});
  for (const k of Object.keys(g)) {
    if (k.startsWith('sys.')) g[k] = emptyLike(g[k]);
    else if (k.startsWith('env.')) g[k] = defaultOfType(dsl.variables?.[k.slice(4)]?.type);
  }
  for (const v of Object.values(dsl.variables ?? {})) v.value = defaultOfType(v.type);
  return dsl;
}
