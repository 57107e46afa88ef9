import type { Edge, Node } from '@xyflow/react';

/**
 * The editor's node data, as the DSL's `graph.nodes[].data` stores it (AGENTS.md §2.4): `label` is the
 * operator (`component_name`, or `Note`), `name` the unique display name, `form` the params as edited.
 */
export type AgentNodeData = {
  label: string;
  name: string;
  form: Record<string, unknown>;
  [key: string]: unknown;
};

export type AgentNode = Node<AgentNodeData>;
export type AgentEdge = Edge;

export interface FlowGraph {
  nodes: AgentNode[];
  edges: AgentEdge[];
}

/** Handles with a meaning of their own (AGENTS.md §2.5). */
export const HANDLE = {
  source: 'start',
  target: 'end',
  switchElse: 'end_cpn_ids',
  tool: 'tool',
  agentBottom: 'agentBottom',
  agentTop: 'agentTop',
  agentException: 'agentException',
} as const;

/** Graph nodes that never become components. */
export const EDITOR_ONLY_LABELS = new Set(['Note', 'Tool', 'Placeholder']);

/** Containers whose children carry `parentId` (Iteration is a `group` node, Loop a `loopNode`). */
export const CONTAINER_LABELS = new Set(['Iteration', 'Loop']);

/** The start node created inside each container. */
export const CONTAINER_START: Record<string, string> = { Iteration: 'IterationItem', Loop: 'LoopItem' };

/** `xy-edge__` + source + sourceHandle + `-` + target + targetHandle, as the v0.24 editor names edges. */
export function edgeId(
  source: string,
  sourceHandle: string | null | undefined,
  target: string,
  targetHandle: string | null | undefined,
) {
  return `xy-edge__${source}${sourceHandle ?? ''}-${target}${targetHandle ?? ''}`;
}

/**
 * The out-handles a node offers, or null for "any": Switch has `Case n` and the else branch,
 * Categorize one per category. Edges from a handle that is gone (a removed case) are dropped.
 */
export function sourceHandlesOf(node: AgentNode): string[] | null {
  const form = node.data.form ?? {};
  if (node.data.label === 'Switch') {
    const n = Array.isArray(form.conditions) ? form.conditions.length : 0;
    return [...Array.from({ length: n }, (_x, i) => `Case ${i + 1}`), HANDLE.switchElse];
  }
  if (node.data.label === 'Categorize' && Array.isArray(form.items)) {
    return (form.items as { uuid?: unknown; name?: unknown }[]).map((i) => String(i.uuid ?? i.name ?? ''));
  }
  return null;
}

export function pruneDanglingEdges(nodes: AgentNode[], edges: AgentEdge[]): AgentEdge[] {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  return edges.filter((e) => {
    const source = byId.get(e.source);
    if (!source || !byId.has(e.target)) return false;
    const handles = sourceHandlesOf(source);
    return handles === null || handles.includes(e.sourceHandle ?? HANDLE.source);
  });
}
