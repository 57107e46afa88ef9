/**
 * References to unknown components or outputs (issue 14 "Bad input"): every `{cpn@output}` in a text
 * param and every bare reference in a variable-picking field must name an existing component and
 * one of its outputs; `sys.*`/`env.*` references must name a global.
 */
import { outputNamesOf } from '../catalogue/index.js';
import { cleanRef, findRefs, parseRef } from '../variables/refs.js';
import { isPlainObject } from '../util/pyjson.js';
import type { DslIssue } from './errors.js';
import { labelOf } from './graph.js';
import { SYS_GLOBALS } from './load.js';
import type { Dsl } from './schema.js';

/** Keys never scanned for text references: form definitions and stored run values. */
const SKIP_KEYS = new Set(['outputs', 'inputs', 'debug_inputs', 'custom_header', 'operators']);

function collectTextRefs(value: unknown, out: string[], key = '') {
  if (SKIP_KEYS.has(key)) return;
  if (typeof value === 'string') out.push(...findRefs(value));
  else if (Array.isArray(value)) for (const v of value) collectTextRefs(v, out);
  else if (isPlainObject(value)) for (const [k, v] of Object.entries(value)) collectTextRefs(v, out, k);
}

/** Bare references stored without braces (§4 "Bare references"). */
function bareRefs(type: string, p: Record<string, unknown>): string[] {
  const refs: string[] = [];
  const push = (v: unknown) => {
    if (typeof v === 'string' && v.trim()) refs.push(v);
  };
  const arr = (v: unknown) => (Array.isArray(v) ? (v as Record<string, unknown>[]) : []);
  switch (type) {
    case 'Categorize':
    case 'KeywordExtract':
    case 'ListOperations':
      push(p.query);
      break;
    case 'Switch':
      for (const c of arr(p.conditions)) for (const i of arr(c.items)) push(i.cpn_id);
      break;
    case 'Iteration':
      push(p.items_ref);
      if (isPlainObject(p.outputs))
        for (const o of Object.values(p.outputs)) if (isPlainObject(o)) push(o.ref);
      break;
    case 'StringTransform':
      if (p.method === 'split') push(p.split_ref);
      break;
    case 'Loop':
      for (const c of arr(p.loop_termination_condition)) {
        push(c.variable);
        if (c.input_mode === 'variable') push(c.value);
      }
      for (const v of arr(p.loop_variables)) if (v.input_mode === 'variable') push(v.value);
      break;
    case 'VariableAssigner':
      for (const v of arr(p.variables)) {
        push(v.variable);
        if (['overwrite', 'append', 'extend'].includes(String(v.operator))) push(v.parameter);
      }
      break;
    case 'VariableAggregator':
      for (const g of arr(p.groups)) for (const v of arr(g.variables)) push(v.value);
      break;
    case 'DataOperations':
      for (const q of (p.query as unknown[]) ?? []) push(q);
      break;
    case 'LLM':
    case 'Agent':
      push(p.visual_files_var);
      break;
    case 'Retrieval':
      for (const k of (p.kb_ids as unknown[]) ?? [])
        if (typeof k === 'string' && (k.includes('@') || k.startsWith('sys.') || k.startsWith('env.')))
          push(k);
      break;
  }
  return refs;
}

export function referenceIssues(dsl: Dsl, parsed: Map<string, Record<string, unknown>>): DslIssue[] {
  const issues: DslIssue[] = [];
  const globals = dsl.globals ?? {};
  const knownGlobal = (k: string) =>
    k in globals ||
    (SYS_GLOBALS as readonly string[]).includes(k) ||
    (k.startsWith('env.') && k.slice(4) in (dsl.variables ?? {}));
  for (const [id, params] of parsed) {
    const type = dsl.components[id].obj.component_name;
    const refs: string[] = [];
    collectTextRefs(params, refs);
    refs.push(...bareRefs(type, params));
    const seen = new Set<string>();
    for (const raw of refs) {
      const ref = cleanRef(raw);
      if (seen.has(ref)) continue;
      seen.add(ref);
      const message = checkRef(dsl, parsed, ref, knownGlobal);
      if (message) issues.push({ componentId: id, componentName: labelOf(dsl, id), message });
    }
  }
  return issues;
}

function checkRef(
  dsl: Dsl,
  parsed: Map<string, Record<string, unknown>>,
  ref: string,
  knownGlobal: (k: string) => boolean,
): string | null {
  let r;
  try {
    r = parseRef(ref);
  } catch (e) {
    return (e as Error).message;
  }
  if (r.global !== undefined) {
    if (!r.global.startsWith('sys.') && !r.global.startsWith('env.')) return null;
    return knownGlobal(r.global) ? null : `refers to {${ref}}, but there is no such variable`;
  }
  const target = dsl.components[r.componentId ?? ''];
  if (!target) return `refers to {${ref}}, but component '${r.componentId}' does not exist`;
  const params = parsed.get(r.componentId!) ?? target.obj.params;
  if (target.obj.component_name === 'Begin' && params.mode === 'Webhook') return null;
  const names = outputNamesOf(target.obj.component_name, params);
  if (names === 'open' || names.includes(r.output ?? '')) return null;
  return `refers to {${ref}}, but ${labelOf(dsl, r.componentId!)} has no output '${r.output}'`;
}
