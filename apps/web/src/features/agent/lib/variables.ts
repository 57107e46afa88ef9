import { SYS_GLOBALS, outputNamesOf } from '@lectern/agent-core/editor';
import { inputsObject } from './flow-to-dsl';
import { EDITOR_ONLY_LABELS, type AgentEdge, type AgentNode } from './flow-types';

/**
 * What the variable picker offers a node (AGENTS.md §9.4): the `sys.*` globals, conversation
 * variables `env.<name>`, and the outputs of every node upstream of it as `<id>@<output>`. Inside an
 * Iteration/Loop, the container's upstream and the start node (item, index) count as upstream too.
 */
export interface VariableOption {
  /** the reference as it goes between braces: `sys.query`, `Agent:X@content` */
  value: string;
  /** the group it is shown under: 'system', 'env', or the node's display name */
  group: string;
  label: string;
  nodeId?: string;
}

export function upstreamIds(nodeId: string, nodes: AgentNode[], edges: AgentEdge[]): string[] {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const seen = new Set<string>();
  const order: string[] = [];
  const visit = (id: string) => {
    for (const e of edges) {
      if (e.target !== id || seen.has(e.source)) continue;
      seen.add(e.source);
      order.push(e.source);
      visit(e.source);
    }
    const parent = byId.get(id)?.parentId;
    if (parent && !seen.has(parent)) {
      seen.add(parent);
      // the container itself has no outputs for its children, but its upstream does
      visit(parent);
    }
  };
  visit(nodeId);
  // the start node of the container a node sits in
  const parent = byId.get(nodeId)?.parentId;
  if (parent)
    for (const n of nodes)
      if (
        n.parentId === parent &&
        (n.data.label === 'IterationItem' || n.data.label === 'LoopItem') &&
        !seen.has(n.id)
      )
        order.push(n.id);
  return order.filter((id) => id !== nodeId);
}

function paramsForOutputs(node: AgentNode): Record<string, unknown> {
  const form = node.data.form ?? {};
  if (node.data.label === 'Begin' || node.data.label === 'UserFillUp')
    return { ...form, inputs: inputsObject(form.inputs) };
  return form;
}

export function variableOptions(
  nodeId: string,
  nodes: AgentNode[],
  edges: AgentEdge[],
  conversationVariables: Record<string, unknown> = {},
): VariableOption[] {
  const options: VariableOption[] = SYS_GLOBALS.map((g) => ({ value: g, group: 'system', label: g }));
  for (const name of Object.keys(conversationVariables))
    options.push({ value: `env.${name}`, group: 'env', label: `env.${name}` });
  const byId = new Map(nodes.map((n) => [n.id, n]));
  for (const id of upstreamIds(nodeId, nodes, edges)) {
    const node = byId.get(id);
    if (!node || EDITOR_ONLY_LABELS.has(node.data.label)) continue;
    const names = outputNamesOf(node.data.label, paramsForOutputs(node));
    if (names === 'open') continue;
    for (const out of names.filter((n) => !n.startsWith('_')))
      options.push({ value: `${id}@${out}`, group: node.data.name || id, label: out, nodeId: id });
  }
  return options;
}
