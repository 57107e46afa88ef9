import Graph from 'graphology';
import louvain from 'graphology-communities-louvain';
import type { GraphEdgeData, GraphNodeData } from '@lectern/shared';

/**
 * The knowledge graph tab's data side (pure, no DOM): the node-link JSON of
 * `GET /v1/kb/<id>/knowledge_graph?full=1` as a graphology graph ready for sigma — sizes by PageRank,
 * colours by community (the server's Leiden communities, else Louvain computed here), a seeded
 * layout that puts each community in its own disc — and the entity search.
 */

export interface NodeAttributes {
  label: string;
  x: number;
  y: number;
  size: number;
  color: string;
  entityType: string;
  description: string;
  sourceIds: string[];
  pagerank: number;
  community: number;
}

export interface EdgeAttributes {
  size: number;
  color: string;
  weight: number;
  description: string;
  keywords: string[];
}

export type KnowledgeGraph = Graph<NodeAttributes, EdgeAttributes>;

/** Twelve distinguishable colours (Tableau 10 plus two), community i gets colour i mod 12. */
export const PALETTE = [
  '#4e79a7',
  '#f28e2b',
  '#e15759',
  '#76b7b2',
  '#59a14f',
  '#edc948',
  '#b07aa1',
  '#ff9da7',
  '#9c755f',
  '#8c8c8c',
  '#1f77b4',
  '#d62728',
] as const;

export const EDGE_COLOR = '#c8ccd2';

export function communityColor(community: number): string {
  if (!Number.isInteger(community) || community < 0) return PALETTE[9];
  return PALETTE[community % PALETTE.length];
}

const finite = (v: unknown, fallback = 0) => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);

/**
 * Community per node: the server's when every node has one; else Louvain over the graph (seeded, so
 * the same graph always gets the same colours). Communities are renumbered by size, largest first,
 * so the common colours go to the big ones.
 */
export function assignCommunities(graph: Graph, given: Map<string, number | undefined>): Map<string, number> {
  const raw = new Map<string, number>();
  const allGiven = graph.order > 0 && graph.everyNode((n) => given.get(n) !== undefined);
  if (allGiven) {
    graph.forEachNode((n) => raw.set(n, given.get(n) as number));
  } else if (graph.size > 0) {
    const found = louvain(graph, { getEdgeWeight: 'weight', rng: seededRandom(42) });
    for (const [n, c] of Object.entries(found)) raw.set(n, c);
  } else {
    graph.forEachNode((n) => raw.set(n, 0));
  }
  const sizes = new Map<number, number>();
  for (const c of raw.values()) sizes.set(c, (sizes.get(c) ?? 0) + 1);
  const order = [...sizes.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([c]) => c);
  const renumber = new Map(order.map((c, i) => [c, i]));
  const out = new Map<string, number>();
  for (const [n, c] of raw) out.set(n, renumber.get(c) as number);
  return out;
}

/** A small deterministic PRNG (mulberry32). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const GOLDEN_ANGLE = Math.PI * (3 - Math.sqrt(5));

/**
 * Initial positions: communities (largest first) on a golden-angle spiral, each a phyllotaxis disc
 * whose area grows with its size, its members placed by PageRank from the centre out. Good enough to
 * read at once; a force layout refines it afterwards.
 */
export function seedLayout(graph: KnowledgeGraph): void {
  const members = new Map<number, string[]>();
  graph.forEachNode((n, a) => {
    const list = members.get(a.community) ?? [];
    list.push(n);
    members.set(a.community, list);
  });
  const communities = [...members.entries()].sort((a, b) => b[1].length - a[1].length || a[0] - b[0]);
  let placedArea = 0;
  communities.forEach(([, nodes], i) => {
    const radius = Math.sqrt(nodes.length) * 10;
    // The spiral's distance grows with the area already placed, so discs rarely overlap.
    const distance = i === 0 ? 0 : Math.sqrt(placedArea) * 1.15 + radius;
    placedArea += (2 * radius + 10) ** 2;
    const cx = Math.cos(i * GOLDEN_ANGLE) * distance;
    const cy = Math.sin(i * GOLDEN_ANGLE) * distance;
    nodes.sort((a, b) => graph.getNodeAttribute(b, 'pagerank') - graph.getNodeAttribute(a, 'pagerank'));
    nodes.forEach((n, k) => {
      const r = 10 * Math.sqrt(k + 0.5);
      graph.mergeNodeAttributes(n, {
        x: cx + Math.cos(k * GOLDEN_ANGLE) * r,
        y: cy + Math.sin(k * GOLDEN_ANGLE) * r,
      });
    });
  });
}

/**
 * The graph of the route's `{nodes, edges}`: unknown endpoints and self-loops dropped, parallel
 * relations merged (heaviest kept), sizes 3–15 by PageRank, edges 0.5–3 by weight.
 */
export function buildGraph(data: { nodes?: GraphNodeData[]; edges?: GraphEdgeData[] }): KnowledgeGraph {
  const graph: KnowledgeGraph = new Graph({ type: 'undirected', multi: false, allowSelfLoops: false });
  const nodes = data.nodes ?? [];
  const maxRank = nodes.reduce((m, n) => Math.max(m, finite(n.pagerank)), 1e-9);
  const given = new Map<string, number | undefined>();
  for (const n of nodes) {
    if (graph.hasNode(n.id)) continue;
    const pagerank = finite(n.pagerank);
    graph.addNode(n.id, {
      label: n.entity_name || n.id,
      x: 0,
      y: 0,
      size: 3 + 12 * Math.sqrt(Math.max(0, pagerank) / maxRank),
      color: PALETTE[0],
      entityType: n.entity_type ?? '',
      description: n.description ?? '',
      sourceIds: n.source_id ?? [],
      pagerank,
      community: 0,
    });
    given.set(n.id, typeof n.community === 'number' && n.community >= 0 ? n.community : undefined);
  }
  const edges = data.edges ?? [];
  const maxWeight = edges.reduce((m, e) => Math.max(m, finite(e.weight)), 1e-9);
  for (const e of edges) {
    if (e.source === e.target || !graph.hasNode(e.source) || !graph.hasNode(e.target)) continue;
    const weight = finite(e.weight, 1);
    const existing = graph.edge(e.source, e.target);
    if (existing !== undefined && graph.getEdgeAttribute(existing, 'weight') >= weight) continue;
    if (existing !== undefined) graph.dropEdge(existing);
    graph.addEdge(e.source, e.target, {
      size: 0.5 + 2.5 * (Math.max(0, weight) / maxWeight),
      color: EDGE_COLOR,
      weight,
      description: e.description ?? '',
      keywords: e.keywords ?? [],
    });
  }
  const communities = assignCommunities(graph, given);
  graph.forEachNode((n) => {
    const c = communities.get(n) ?? 0;
    graph.mergeNodeAttributes(n, { community: c, color: communityColor(c) });
  });
  seedLayout(graph);
  return graph;
}

export interface Relation {
  /** The entity at the other end. */
  other: string;
  description: string;
  keywords: string[];
  weight: number;
}

/** An entity's relations, heaviest first. */
export function relationsOf(graph: KnowledgeGraph, node: string): Relation[] {
  if (!graph.hasNode(node)) return [];
  return graph
    .edges(node)
    .map((e) => {
      const a = graph.getEdgeAttributes(e);
      return {
        other: graph.opposite(node, e),
        description: a.description,
        keywords: a.keywords,
        weight: a.weight,
      };
    })
    .sort((a, b) => b.weight - a.weight || (a.other < b.other ? -1 : 1));
}

export interface EntityMatch {
  id: string;
  label: string;
  entityType: string;
}

/**
 * Entities whose name contains `query` (case-insensitive): names starting with it first, then the
 * others, each group by PageRank; at most `limit`.
 */
export function searchEntities(graph: KnowledgeGraph, query: string, limit = 20): EntityMatch[] {
  const q = query.trim().toLowerCase();
  if (!q) return [];
  const hits: Array<{ id: string; a: NodeAttributes; prefix: boolean }> = [];
  graph.forEachNode((id, a) => {
    const name = a.label.toLowerCase();
    const at = name.indexOf(q);
    if (at >= 0) hits.push({ id, a, prefix: at === 0 });
  });
  return hits
    .sort(
      (x, y) => Number(y.prefix) - Number(x.prefix) || y.a.pagerank - x.a.pagerank || (x.id < y.id ? -1 : 1),
    )
    .slice(0, limit)
    .map(({ id, a }) => ({ id, label: a.label, entityType: a.entityType }));
}

/** Communities by size (index, colour, member count), for the legend. */
export function communityLegend(
  graph: KnowledgeGraph,
  max = 12,
): Array<{ community: number; color: string; count: number }> {
  const counts = new Map<number, number>();
  graph.forEachNode((_n, a) => counts.set(a.community, (counts.get(a.community) ?? 0) + 1));
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, max)
    .map(([community, count]) => ({ community, color: communityColor(community), count }));
}
