import type { ComponentEntry, Dsl } from '@lectern/agent-core/editor';
import { EDITOR_ONLY_LABELS, HANDLE, type AgentEdge, type AgentNode, type FlowGraph } from './flow-types';

/**
 * React Flow graph → DSL, the way the v0.24 editor builds `components` from `graph` on every save
 * (AGENTS.md §2.6). Every other top-level key of `base` (history, path, globals, variables…) is kept.
 */
export function flowToDsl(base: Dsl, graph: FlowGraph): Dsl {
  const { nodes, edges } = graph;
  const subAgents = new Set(
    edges
      .filter((e) => e.sourceHandle === HANDLE.agentBottom || e.targetHandle === HANDLE.agentTop)
      .map((e) => e.target),
  );
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const components: Record<string, ComponentEntry> = {};
  for (const node of nodes) {
    if (EDITOR_ONLY_LABELS.has(node.data.label) || subAgents.has(node.id)) continue;
    const outgoing = edges.filter((e) => e.source === node.id);
    const flowOut = outgoing.filter((e) => !isSpecialEdge(e, byId));
    const entry: ComponentEntry = {
      obj: { component_name: node.data.label, params: paramsOf(node, edges, byId) },
      downstream: unique(flowOut.map((e) => e.target)),
      upstream: unique(
        edges.filter((e) => e.target === node.id && !isSpecialEdge(e, byId)).map((e) => e.source),
      ),
    };
    if (node.parentId) entry.parent_id = node.parentId;
    components[node.id] = entry;
  }
  return {
    ...base,
    components,
    graph: { nodes: nodes.map(cleanNode), edges: edges.map(cleanEdge) },
  };
}

/** Tool, sub-agent and exception edges do not drive the flow. */
function isSpecialEdge(e: AgentEdge, byId: Map<string, AgentNode>): boolean {
  if (
    e.sourceHandle === HANDLE.tool ||
    e.sourceHandle === HANDLE.agentBottom ||
    e.sourceHandle === HANDLE.agentException
  )
    return true;
  if (e.targetHandle === HANDLE.agentTop) return true;
  const target = byId.get(e.target);
  return Boolean(target && EDITOR_ONLY_LABELS.has(target.data.label));
}

function unique(ids: string[]): string[] {
  return [...new Set(ids)];
}

function targetsOf(edges: AgentEdge[], source: string, handle: string): string[] {
  return unique(edges.filter((e) => e.source === source && e.sourceHandle === handle).map((e) => e.target));
}

type Form = Record<string, unknown>;

function paramsOf(node: AgentNode, edges: AgentEdge[], byId: Map<string, AgentNode>): Form {
  const form: Form = structuredClone(node.data.form ?? {});
  switch (node.data.label) {
    case 'Agent':
      return agentParams(node, form, edges, byId);
    case 'Categorize':
      return categorizeParams(node.id, form, edges);
    case 'Switch': {
      const conditions = (Array.isArray(form.conditions) ? form.conditions : []) as Form[];
      form.conditions = conditions.map((c, i) => ({ ...c, to: targetsOf(edges, node.id, `Case ${i + 1}`) }));
      form.end_cpn_ids = targetsOf(edges, node.id, HANDLE.switchElse);
      return form;
    }
    case 'Begin':
      if ('inputs' in form) form.inputs = inputsObject(form.inputs);
      return form;
    case 'UserFillUp':
      form.inputs = inputsObject(form.inputs);
      form.outputs = structuredClone(form.inputs);
      return form;
    case 'DataOperations':
      if (Array.isArray(form.query)) form.query = form.query.map((q) => (isObj(q) ? (q.input ?? '') : q));
      for (const key of ['select_keys', 'remove_keys'])
        if (Array.isArray(form[key]))
          form[key] = (form[key] as unknown[]).map((k) => (isObj(k) ? (k.name ?? '') : k));
      return form;
    case 'Loop': {
      const vars = (Array.isArray(form.loop_variables) ? form.loop_variables : []) as Form[];
      form.outputs = Object.fromEntries(
        vars
          .filter((v) => typeof v.variable === 'string' && v.variable)
          .map((v) => [v.variable, { type: v.type ?? 'string', value: '' }]),
      );
      return form;
    }
    default:
      return form;
  }
}

function isObj(v: unknown): v is Form {
  return Boolean(v) && typeof v === 'object' && !Array.isArray(v);
}

/** `[{key, name, type, optional, options}]` → `{key: {name, type, optional, options}}`; an object stays. */
export function inputsObject(inputs: unknown): Form {
  if (!Array.isArray(inputs)) return isObj(inputs) ? inputs : {};
  return Object.fromEntries(
    inputs.filter(isObj).map((item) => {
      const { key, ...rest } = item;
      return [String(key ?? ''), rest];
    }),
  );
}

function agentParams(
  node: AgentNode,
  form: Form,
  edges: AgentEdge[],
  byId: Map<string, AgentNode>,
  seen = new Set<string>(),
): Form {
  seen.add(node.id);
  const tools = (Array.isArray(form.tools) ? form.tools : []).filter(
    (t) => !(isObj(t) && t.component_name === 'Agent' && typeof t.id === 'string' && byId.has(t.id)),
  );
  for (const e of edges) {
    if (e.source !== node.id || e.sourceHandle !== HANDLE.agentBottom) continue;
    const sub = byId.get(e.target);
    if (!sub || seen.has(sub.id)) continue;
    tools.push({
      component_name: 'Agent',
      id: sub.id,
      name: sub.data.name,
      params: agentParams(sub, structuredClone(sub.data.form ?? {}), edges, byId, seen),
    });
  }
  form.tools = tools;
  form.exception_goto = targetsOf(edges, node.id, HANDLE.agentException);
  return form;
}

function categorizeParams(id: string, form: Form, edges: AgentEdge[]): Form {
  const { items, ...rest } = form;
  const list = (Array.isArray(items) ? items : []).filter(isObj);
  if (list.length === 0 && isObj(form.category_description)) return form;
  const categories: Form = {};
  for (const item of list) {
    const examples = (Array.isArray(item.examples) ? item.examples : [])
      .map((x) => (isObj(x) ? x.value : x))
      .filter((x): x is string => typeof x === 'string' && x.length > 0);
    categories[String(item.name ?? '')] = {
      description: item.description ?? '',
      examples,
      to: targetsOf(edges, id, String(item.uuid ?? item.name ?? '')),
      ...(item.index !== undefined ? { index: item.index } : {}),
    };
  }
  return { ...rest, category_description: categories };
}

/** What React Flow adds while editing (selection, drag state) is not saved. */
function cleanNode(n: AgentNode) {
  const { selected: _s, dragging: _d, resizing: _r, ...rest } = n as AgentNode & { resizing?: boolean };
  return rest;
}

function cleanEdge(e: AgentEdge) {
  const { selected: _s, ...rest } = e;
  return rest;
}
