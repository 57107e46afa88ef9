/**
 * The fast path of `loadDsl`: the tolerance rules of `dslSchema` (missing keys and `null`s read as
 * empty) applied by hand, so a well-formed DSL does not pay for a full schema parse on every run.
 * Anything it does not recognise returns null and the zod schema decides — with its error messages.
 * `normalise.test.ts` checks both paths agree.
 */
import { isPlainObject } from '../util/pyjson.js';
import type { Dsl } from './schema.js';

const isStringArray = (v: unknown): v is string[] =>
  Array.isArray(v) && v.every((x) => typeof x === 'string');

function list(o: Record<string, unknown>, key: string): boolean {
  if (o[key] === undefined || o[key] === null) o[key] = [];
  return Array.isArray(o[key]);
}

function component(c: unknown): boolean {
  if (!isPlainObject(c) || !isPlainObject(c.obj)) return false;
  const obj = c.obj;
  if (typeof obj.component_name !== 'string' || !obj.component_name) return false;
  if (obj.params === undefined || obj.params === null) obj.params = {};
  if (!isPlainObject(obj.params)) return false;
  if (!list(c, 'downstream') || !isStringArray(c.downstream)) return false;
  if (!list(c, 'upstream') || !isStringArray(c.upstream)) return false;
  return c.parent_id === undefined || c.parent_id === null || typeof c.parent_id === 'string';
}

function graph(g: unknown): boolean {
  if (g === undefined) return true;
  if (!isPlainObject(g) || !list(g, 'nodes') || !list(g, 'edges')) return false;
  for (const n of g.nodes as unknown[]) {
    if (!isPlainObject(n) || typeof n.id !== 'string') return false;
    if (n.type !== undefined && typeof n.type !== 'string') return false;
    if (n.parentId !== undefined && n.parentId !== null && typeof n.parentId !== 'string') return false;
    if (n.data !== undefined) {
      const d = n.data;
      if (!isPlainObject(d)) return false;
      if (d.label !== undefined && typeof d.label !== 'string') return false;
      if (d.name !== undefined && typeof d.name !== 'string') return false;
      if (d.form !== undefined && d.form !== null && !isPlainObject(d.form)) return false;
    }
    if (n.position !== undefined) {
      const p = n.position;
      if (!isPlainObject(p) || typeof p.x !== 'number' || typeof p.y !== 'number') return false;
    }
  }
  for (const e of g.edges as unknown[]) {
    if (!isPlainObject(e) || typeof e.source !== 'string' || typeof e.target !== 'string') return false;
    if (e.id !== undefined && typeof e.id !== 'string') return false;
    for (const h of ['sourceHandle', 'targetHandle'])
      if (e[h] !== undefined && e[h] !== null && typeof e[h] !== 'string') return false;
  }
  return true;
}

/** Normalise in place; null when the schema must decide. */
export function fastNormalise(raw: Record<string, unknown>): Dsl | null {
  if (raw.components === undefined || raw.components === null) raw.components = {};
  if (!isPlainObject(raw.components)) return null;
  for (const c of Object.values(raw.components)) if (!component(c)) return null;
  if (!graph(raw.graph)) return null;
  if (raw.globals !== undefined && !isPlainObject(raw.globals)) return null;
  if (raw.variables !== undefined && raw.variables !== null) {
    if (!isPlainObject(raw.variables)) return null;
    for (const v of Object.values(raw.variables)) {
      if (!isPlainObject(v)) return null;
      if (v.name !== undefined && typeof v.name !== 'string') return null;
      if (v.type !== undefined && typeof v.type !== 'string') return null;
      if (v.description !== undefined && v.description !== null && typeof v.description !== 'string')
        return null;
    }
  }
  if (!list(raw, 'history')) return null;
  for (const h of raw.history as unknown[])
    if (!Array.isArray(h) || h.length < 2 || typeof h[0] !== 'string') return null;
  if (!list(raw, 'path') || !isStringArray(raw.path)) return null;
  if (!list(raw, 'retrieval')) return null;
  for (const k of ['memory', 'messages'])
    if (raw[k] !== undefined && raw[k] !== null && !Array.isArray(raw[k])) return null;
  if (raw.task_id !== undefined && raw.task_id !== null && typeof raw.task_id !== 'string') return null;
  return raw as Dsl;
}

/** Deep copy of JSON data (faster than a JSON round trip or structuredClone for DSL-sized objects). */
export function cloneJson<T>(v: T): T {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map(cloneJson) as T;
  const out: Record<string, unknown> = {};
  for (const k in v as Record<string, unknown>) {
    const x = (v as Record<string, unknown>)[k];
    if (x !== undefined) out[k] = cloneJson(x);
  }
  return out as T;
}

/** A copy that can be changed freely; the graph is shared, since nothing at run time changes it. */
export function copyForRun(raw: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const k in raw) if (raw[k] !== undefined) copy[k] = k === 'graph' ? raw[k] : cloneJson(raw[k]);
  return copy;
}
