/**
 * Reference resolution (AGENTS.md §4 "Resolution") against a run's globals and component outputs.
 */
import { parseJsonLoose } from '../util/literal.js';
import { isPlainObject } from '../util/pyjson.js';
import { isTextStream } from '../runtime/text-stream.js';
import { cleanRef, parseRef } from './refs.js';

export interface OutputSource {
  /** output names the component declares */
  declared: ReadonlySet<string>;
  /** values produced so far */
  outputs: Readonly<Record<string, unknown>>;
}

export interface VariableScope {
  globals: Record<string, unknown>;
  component(id: string): OutputSource | undefined;
  /** values forced by a debug run, by cleaned reference */
  overrides?: ReadonlyMap<string, unknown>;
}

/**
 * The value of a reference. The root output is its value, `null` when declared but not produced yet,
 * `""` when not declared; a path walks objects by key and lists by index (JSON-decoding a string met
 * on the way), a miss giving `null`. A streamed output is returned as the stream unless a path
 * needs its text.
 */
export async function resolveRef(scope: VariableScope, ref: string): Promise<unknown> {
  const clean = cleanRef(ref);
  if (scope.overrides?.has(clean)) return scope.overrides.get(clean);
  const r = parseRef(clean);
  if (r.global !== undefined) {
    if (!(r.global in scope.globals)) throw new Error(`Can't find variable: '${r.global}'`);
    return scope.globals[r.global];
  }
  const source = scope.component(r.componentId!);
  if (!source) throw new Error(`Can't find variable: '${clean}'`);
  const name = r.output!;
  let value: unknown;
  if (name in source.outputs) value = source.outputs[name];
  else value = source.declared.has(name) ? null : '';
  if (!r.path?.length) return value;
  return walk(value, r.path);
}

async function walk(root: unknown, path: string[]): Promise<unknown> {
  let cur: unknown = root;
  for (const key of path) {
    if (isTextStream(cur)) cur = await cur.text();
    if (typeof cur === 'string') {
      const j = parseJsonLoose(cur);
      if (!j.ok) return null;
      cur = j.value;
    }
    if (Array.isArray(cur)) {
      const i = Number(key);
      if (!Number.isInteger(i)) return null;
      cur = cur[i < 0 ? cur.length + i : i];
    } else if (isPlainObject(cur)) {
      cur = cur[key];
    } else return null;
    if (cur === undefined) return null;
  }
  return cur;
}

/** Writing (VariableAssigner §4): `sys.x`/`env.x` → globals; `cpn@var[.path]` → that output, creating objects. */
export function writeRef(
  scope: {
    globals: Record<string, unknown>;
    componentOutputs(id: string): Record<string, unknown> | undefined;
  },
  ref: string,
  value: unknown,
): void {
  const r = parseRef(cleanRef(ref));
  if (r.global !== undefined) {
    scope.globals[r.global] = value;
    return;
  }
  const outputs = scope.componentOutputs(r.componentId!);
  if (!outputs) throw new Error(`Can't find variable: '${cleanRef(ref)}'`);
  if (!r.path?.length) {
    outputs[r.output!] = value;
    return;
  }
  if (!isPlainObject(outputs[r.output!])) outputs[r.output!] = {};
  let cur = outputs[r.output!] as Record<string, unknown>;
  for (const key of r.path.slice(0, -1)) {
    if (!isPlainObject(cur[key])) cur[key] = {};
    cur = cur[key] as Record<string, unknown>;
  }
  cur[r.path[r.path.length - 1]] = value;
}

/** §4 "Reference test" (tool params): a globals key without `@`, or one `@` and an existing component. */
export function isReference(scope: VariableScope, text: string): boolean {
  const t = cleanRef(text);
  const at = t.split('@');
  if (at.length === 1) return t in scope.globals;
  return at.length === 2 && scope.component(at[0]) !== undefined;
}
