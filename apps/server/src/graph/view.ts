/**
 * What leaves the graph core: the node-link JSON of the `graph` record and of the `knowledge_graph`
 * routes (API.md §5: nodes `{id, entity_type, description, source_id[], pagerank}`, edges `{source, target,
 * weight, description, keywords}`), the view rule of `GET /v1/kb/<id>/knowledge_graph` (first 256 nodes
 * by PageRank, no self-loops, edges only between kept nodes, first 128 by weight), and the n-hop paths
 * stored with each entity record for `use_kg`.
 */
import type { KbGraph } from './kb-graph.js';
import type { NHopPath } from './use-kg.js';

export interface GraphViewNode {
  id: string;
  entity_name: string;
  entity_type: string;
  description: string;
  source_id: string[];
  pagerank: number;
  community?: number;
  /** Documents that contributed the entity. */
  doc_ids: string[];
}

export interface GraphViewEdge {
  source: string;
  target: string;
  weight: number;
  description: string;
  keywords: string[];
  source_id: string[];
}

export interface NodeLinkGraph {
  nodes: GraphViewNode[];
  edges: GraphViewEdge[];
}

export const VIEW_MAX_NODES = 256;
export const VIEW_MAX_EDGES = 128;

/** The whole graph as node-link JSON (no bookkeeping fields). */
export function toNodeLink(graph: KbGraph): NodeLinkGraph {
  const nodes: GraphViewNode[] = [];
  graph.forEachNode((id, a) => {
    nodes.push({
      id,
      entity_name: a.entity_name,
      entity_type: a.entity_type,
      description: a.description,
      source_id: a.source_id,
      pagerank: a.pagerank,
      ...(a.community !== undefined && a.community >= 0 ? { community: a.community } : {}),
      doc_ids: Object.keys(a.contributions),
    });
  });
  const edges: GraphViewEdge[] = [];
  graph.forEachEdge((_key, a) => {
    edges.push({
      source: a.src_id,
      target: a.tgt_id,
      weight: a.weight,
      description: a.description,
      keywords: a.keywords,
      source_id: a.source_id,
    });
  });
  return { nodes, edges };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

/** Reads node-link JSON or graphology's export format into node-link items (tolerant of either). */
function nodeLinkOf(
  stored: unknown,
): { nodes: Array<Record<string, unknown>>; edges: Array<Record<string, unknown>> } | null {
  const data = typeof stored === 'string' ? safeParse(stored) : stored;
  if (!isRecord(data) || !Array.isArray(data.nodes)) return null;
  const nodes = data.nodes.filter(isRecord).map((n) =>
    // graphology export: {key, attributes}
    'key' in n && isRecord(n.attributes) && !('id' in n)
      ? { id: n.key, ...omitBookkeeping(n.attributes) }
      : n,
  );
  const rawEdges = Array.isArray(data.edges) ? data.edges.filter(isRecord) : [];
  const edges = rawEdges.map((e) =>
    isRecord(e.attributes) ? { source: e.source, target: e.target, ...omitBookkeeping(e.attributes) } : e,
  );
  return { nodes, edges };
}

function omitBookkeeping(a: Record<string, unknown>): Record<string, unknown> {
  const { contributions: _c, summary_of: _s, ...rest } = a;
  return rest;
}

function safeParse(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return null;
  }
}

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/**
 * The `graph` member of the knowledge_graph routes from a stored graph (node-link JSON, graphology export,
 * or its string): `{}` when there is none, else at most 256 nodes by PageRank and 128 edges by weight
 * (`limits` lifts that for the web's graph tab, which draws the whole graph).
 */
export function graphView(
  stored: unknown,
  limits: { maxNodes: number; maxEdges: number } = { maxNodes: VIEW_MAX_NODES, maxEdges: VIEW_MAX_EDGES },
): { nodes: Array<Record<string, unknown>>; edges: Array<Record<string, unknown>> } | Record<string, never> {
  const data = nodeLinkOf(stored);
  if (!data) return {};
  const nodes = [...data.nodes].sort((a, b) => num(b.pagerank) - num(a.pagerank)).slice(0, limits.maxNodes);
  const kept = new Set(nodes.map((n) => n.id));
  const edges = data.edges
    .filter((e) => e.source !== e.target && kept.has(e.source) && kept.has(e.target))
    .sort((a, b) => num(b.weight) - num(a.weight))
    .slice(0, limits.maxEdges);
  return { nodes, edges };
}

/**
 * Paths of up to `hops` relations from `name` (no node repeated), each step's relation weight beside
 * it; at most `maxPaths`, heaviest first steps first. Stored as the entity record's n-hop list.
 */
export function computeNHopPaths(graph: KbGraph, name: string, hops = 2, maxPaths = 64): NHopPath[] {
  if (!graph.hasNode(name)) return [];
  const out: NHopPath[] = [];
  const heaviest = (node: string, exclude: Set<string>) =>
    graph
      .edges(node)
      .map((e) => ({ next: graph.opposite(node, e), weight: graph.getEdgeAttribute(e, 'weight') }))
      .filter((s) => !exclude.has(s.next))
      .sort((a, b) => b.weight - a.weight || (a.next < b.next ? -1 : 1));
  const walk = (path: string[], weights: number[]) => {
    if (out.length >= maxPaths) return;
    if (weights.length > 0) out.push({ path: [...path], weights: [...weights] });
    if (weights.length >= hops) return;
    for (const step of heaviest(path[path.length - 1], new Set(path))) {
      if (out.length >= maxPaths) return;
      walk([...path, step.next], [...weights, step.weight]);
    }
  };
  walk([name], []);
  return out;
}
