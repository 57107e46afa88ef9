/**
 * Component params parsed with their catalogue defaults, cached by their JSON (output *values* left
 * out: runs write them back every turn): the same canvas runs turn after turn, and a full parse per
 * component per run dominated the runtime's overhead. Cached params are frozen: nothing may change them.
 */
import { catalogueEntry } from '../catalogue/index.js';
import { isPlainObject } from '../util/pyjson.js';

export type ParamsResult = { ok: true; params: Record<string, unknown> } | { ok: false; messages: string[] };

const cache = new Map<string, ParamsResult>();
const CACHE_LIMIT = 5000;

/**
 * Inside `inParseScope` the same raw params object is parsed once: a run validates its DSL and then
 * builds its state from the same objects, synchronously, so nothing can change them in between.
 */
let scope: WeakMap<object, { name: string; result: ParamsResult }> | null = null;

export function inParseScope<T>(fn: () => T): T {
  const previous = scope;
  scope = new WeakMap();
  try {
    return fn();
  } finally {
    scope = previous;
  }
}

function withoutOutputValues(params: Record<string, unknown>): Record<string, unknown> {
  const outputs = params.outputs;
  if (!isPlainObject(outputs)) return params;
  const stripped: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(outputs)) {
    if (isPlainObject(v) && 'value' in v) {
      const { value: _v, ...rest } = v;
      stripped[k] = rest;
    } else stripped[k] = v;
  }
  return { ...params, outputs: stripped };
}

function deepFreeze<T>(v: T): T {
  if (v && typeof v === 'object' && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const x of Object.values(v as object)) deepFreeze(x);
  }
  return v;
}

const ids = new WeakMap<object, number>();
let nextId = 1;

/** A number naming a parsed params object (cached results are shared, so equal params share it). */
export function paramsIdentity(params: object): number {
  let id = ids.get(params);
  if (id === undefined) {
    id = nextId++;
    ids.set(params, id);
  }
  return id;
}

/** Params parsed with catalogue defaults (read-only), or the zod issues. */
export function parseComponentParams(componentName: string, params: Record<string, unknown>): ParamsResult {
  const entry = catalogueEntry(componentName);
  if (!entry) return { ok: false, messages: [`unknown component '${componentName}'`] };
  const scoped = scope?.get(params);
  if (scoped && scoped.name === componentName) return scoped.result;
  const result = parseUncached(componentName, params, entry);
  scope?.set(params, { name: componentName, result });
  return result;
}

function parseUncached(
  componentName: string,
  params: Record<string, unknown>,
  entry: NonNullable<ReturnType<typeof catalogueEntry>>,
): ParamsResult {
  const input = withoutOutputValues(params);
  const key = `${componentName}\u0000${JSON.stringify(input)}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const r = entry.params.safeParse(input);
  const result: ParamsResult = r.success
    ? { ok: true, params: deepFreeze(r.data) }
    : { ok: false, messages: r.error.issues.map((i) => `${i.path.join('.') || 'params'}: ${i.message}`) };
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  cache.set(key, result);
  return result;
}
