/** Read-only helpers over a loaded DSL's components and graph. */
import type { Dsl } from './schema.js';

/** Display name of a component: graph `data.name` (Begin's is "begin"), or "" when the graph has none. */
export function displayNameOf(dsl: Dsl, id: string): string {
  const node = dsl.graph?.nodes.find((n) => n.id === id);
  const name = node?.data?.name;
  if (typeof name === 'string' && name) return name;
  return id === 'begin' ? 'begin' : '';
}

/** Display name for messages: the graph name, else the id. */
export function labelOf(dsl: Dsl, id: string): string {
  return displayNameOf(dsl, id) || id;
}

export function componentType(dsl: Dsl, id: string): string | undefined {
  return dsl.components[id]?.obj.component_name;
}

/** Branch targets kept in params (Categorize `to`, Switch `to`/`end_cpn_ids`), which also drive execution. */
export function branchTargets(componentName: string, params: Record<string, unknown>): string[] {
  const out: string[] = [];
  const add = (v: unknown) => {
    if (typeof v === 'string' && v) out.push(v);
    else if (Array.isArray(v)) for (const x of v) if (typeof x === 'string' && x) out.push(x);
  };
  if (componentName === 'Categorize') {
    const cats = params.category_description;
    if (cats && typeof cats === 'object')
      for (const c of Object.values(cats)) add((c as { to?: unknown })?.to);
  }
  if (componentName === 'Switch') {
    const conds = params.conditions;
    if (Array.isArray(conds)) for (const c of conds) add((c as { to?: unknown })?.to);
    add(params.end_cpn_ids);
  }
  return out;
}

/** Ids a component may hand control to on a normal run: downstream plus branch targets. */
export function successorsOf(dsl: Dsl, id: string): string[] {
  const c = dsl.components[id];
  if (!c) return [];
  return [...new Set([...c.downstream, ...branchTargets(c.obj.component_name, c.obj.params)])];
}

export function childrenOf(dsl: Dsl, parentId: string): string[] {
  return Object.entries(dsl.components)
    .filter(([, c]) => c.parent_id === parentId)
    .map(([id]) => id);
}
