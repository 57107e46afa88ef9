import { newNodeId, newNodeName } from './node-factory';
import { edgeId, type AgentEdge, type AgentNode, type FlowGraph } from './flow-types';

/**
 * Copy/paste of a selection. The copy holds the selected nodes (a container brings its children), and
 * the edges between them. Pasting gives every node a new id and a name unique in the canvas, moves it
 * by `offset`, and rewires the copied edges; Begin is never copied (a canvas has one).
 */
export interface ClipboardContent {
  nodes: AgentNode[];
  edges: AgentEdge[];
}

export function copySelection(graph: FlowGraph, selectedIds: string[]): ClipboardContent | null {
  const ids = new Set(selectedIds.filter((id) => id !== 'begin'));
  for (const n of graph.nodes) if (n.parentId && ids.has(n.parentId)) ids.add(n.id);
  if (ids.size === 0) return null;
  return structuredClone({
    nodes: graph.nodes.filter((n) => ids.has(n.id)),
    edges: graph.edges.filter((e) => ids.has(e.source) && ids.has(e.target)),
  });
}

export function pasteContent(
  graph: FlowGraph,
  content: ClipboardContent,
  offset = 40,
  random?: () => number,
): FlowGraph & { pastedIds: string[] } {
  const taken = new Set(graph.nodes.map((n) => n.id));
  const names = new Set(graph.nodes.map((n) => n.data.name));
  const idMap = new Map<string, string>();
  for (const n of content.nodes) {
    const id = newNodeId(n.data.label, taken, random);
    taken.add(id);
    idMap.set(n.id, id);
  }
  const nodes = content.nodes.map((n) => {
    const name = names.has(n.data.name) ? newNodeName(n.data.label, names) : n.data.name;
    names.add(name);
    const inside = n.parentId && idMap.has(n.parentId);
    const copy: AgentNode = {
      ...structuredClone(n),
      id: idMap.get(n.id) as string,
      selected: true,
      position: inside ? n.position : { x: n.position.x + offset, y: n.position.y + offset },
      data: { ...structuredClone(n.data), name },
    };
    if (inside) copy.parentId = idMap.get(n.parentId as string);
    else {
      delete copy.parentId;
      delete copy.extent;
    }
    return copy;
  });
  const edges = content.edges.map((e) => {
    const source = idMap.get(e.source) as string;
    const target = idMap.get(e.target) as string;
    return {
      ...e,
      id: edgeId(source, e.sourceHandle, target, e.targetHandle),
      source,
      target,
      selected: false,
    };
  });
  return {
    nodes: [...graph.nodes.map((n) => ({ ...n, selected: false })), ...nodes],
    edges: [...graph.edges, ...edges],
    pastedIds: nodes.map((n) => n.id),
  };
}
