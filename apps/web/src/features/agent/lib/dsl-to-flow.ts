import { catalogueEntry, type Dsl, type GraphNode } from '@lectern/agent-core/editor';
import {
  CONTAINER_LABELS,
  HANDLE,
  edgeId,
  type AgentEdge,
  type AgentNode,
  type FlowGraph,
} from './flow-types';

/**
 * DSL → React Flow graph. A DSL saved by the editor carries `graph` (AGENTS.md §2.4): its nodes and
 * edges are taken as they are, with the component params standing in for a missing form. A DSL
 * without a graph (written by hand or by an API client) gets one built from `components`: one node
 * per component laid out by depth from `begin`, one edge per downstream link, branch handles for
 * Categorize and Switch.
 */
export function dslToFlow(dsl: Dsl): FlowGraph {
  const graphNodes = dsl.graph?.nodes ?? [];
  if (graphNodes.length > 0) return fromGraph(dsl);
  return fromComponents(dsl);
}

function nodeTypeOf(label: string): string {
  return catalogueEntry(label)?.nodeType ?? 'ragNode';
}

function fromGraph(dsl: Dsl): FlowGraph {
  const nodes: AgentNode[] = (dsl.graph?.nodes ?? []).map((n: GraphNode) => {
    const component = dsl.components[n.id];
    const label = n.data?.label ?? component?.obj.component_name ?? 'Note';
    const form = n.data?.form ?? component?.obj.params ?? {};
    const {
      selected: _selected,
      dragging: _dragging,
      ...rest
    } = n as GraphNode & { selected?: unknown; dragging?: unknown };
    return {
      ...rest,
      type: n.type ?? nodeTypeOf(label),
      position: n.position ?? { x: 0, y: 0 },
      parentId: n.parentId ?? undefined,
      data: {
        ...n.data,
        label,
        name: n.data?.name ?? (n.id === 'begin' ? 'begin' : n.id),
        form: { ...form },
      },
    } as AgentNode;
  });
  const edges: AgentEdge[] = (dsl.graph?.edges ?? []).map((e) => ({
    ...e,
    id: e.id ?? edgeId(e.source, e.sourceHandle, e.target, e.targetHandle),
    sourceHandle: e.sourceHandle ?? HANDLE.source,
    targetHandle: e.targetHandle ?? HANDLE.target,
  })) as AgentEdge[];
  return { nodes: sortParentsFirst(nodes), edges };
}

/** React Flow needs a parent before its children in the node list. */
export function sortParentsFirst(nodes: AgentNode[]): AgentNode[] {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const depth = (n: AgentNode, seen = new Set<string>()): number => {
    if (!n.parentId || seen.has(n.id)) return 0;
    seen.add(n.id);
    const parent = byId.get(n.parentId);
    return parent ? 1 + depth(parent, seen) : 0;
  };
  return [...nodes].sort((a, b) => depth(a) - depth(b));
}

/** Categorize params `category_description` → the editor's `items` (uuid = the category name). */
function categorizeForm(params: Record<string, unknown>): Record<string, unknown> {
  const { category_description: cats, ...rest } = params;
  const items = Object.entries((cats ?? {}) as Record<string, Record<string, unknown>>).map(([name, c]) => ({
    name,
    description: c.description ?? '',
    examples: (Array.isArray(c.examples) ? c.examples : []).map((v) => ({ value: String(v) })),
    uuid: name,
    ...(c.index !== undefined ? { index: c.index } : {}),
  }));
  return { ...rest, items };
}

function fromComponents(dsl: Dsl): FlowGraph {
  const ids = Object.keys(dsl.components);
  const depth = new Map<string, number>();
  const queue = ids.includes('begin') ? ['begin'] : ids.slice(0, 1);
  for (const id of queue) depth.set(id, 0);
  while (queue.length) {
    const id = queue.shift() as string;
    for (const next of dsl.components[id]?.downstream ?? []) {
      if (!depth.has(next)) {
        depth.set(next, (depth.get(id) ?? 0) + 1);
        queue.push(next);
      }
    }
  }
  const rows = new Map<number, number>();
  const nodes: AgentNode[] = ids.map((id) => {
    const c = dsl.components[id];
    const label = c.obj.component_name;
    const d = c.parent_id ? 0 : (depth.get(id) ?? 0);
    const row = rows.get(d) ?? 0;
    rows.set(d, row + 1);
    const params = c.obj.params as Record<string, unknown>;
    return {
      id,
      type: nodeTypeOf(label),
      position: { x: 60 + d * 300, y: 80 + row * 140 },
      ...(c.parent_id ? { parentId: c.parent_id, extent: 'parent' as const } : {}),
      ...(CONTAINER_LABELS.has(label) ? { width: 520, height: 240 } : {}),
      data: {
        label,
        name: id === 'begin' ? 'begin' : id,
        form: label === 'Categorize' ? categorizeForm(params) : { ...params },
      },
    };
  });
  const edges: AgentEdge[] = [];
  const add = (source: string, handle: string, target: string) => {
    if (!dsl.components[target]) return;
    const id = edgeId(source, handle, target, HANDLE.target);
    if (!edges.some((e) => e.id === id))
      edges.push({ id, source, sourceHandle: handle, target, targetHandle: HANDLE.target });
  };
  for (const id of ids) {
    const c = dsl.components[id];
    const params = c.obj.params as Record<string, unknown>;
    const branched = new Set<string>();
    if (c.obj.component_name === 'Categorize') {
      for (const [name, cat] of Object.entries(
        (params.category_description ?? {}) as Record<string, { to?: unknown }>,
      )) {
        for (const t of toList(cat.to)) {
          add(id, name, t);
          branched.add(t);
        }
      }
    }
    if (c.obj.component_name === 'Switch') {
      (Array.isArray(params.conditions) ? params.conditions : []).forEach((cond, i) => {
        for (const t of toList((cond as { to?: unknown }).to)) {
          add(id, `Case ${i + 1}`, t);
          branched.add(t);
        }
      });
      for (const t of toList(params.end_cpn_ids)) {
        add(id, HANDLE.switchElse, t);
        branched.add(t);
      }
    }
    for (const t of c.downstream) if (!branched.has(t)) add(id, HANDLE.source, t);
  }
  return { nodes: sortParentsFirst(nodes), edges };
}

function toList(v: unknown): string[] {
  if (typeof v === 'string' && v) return [v];
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x.length > 0) : [];
}
