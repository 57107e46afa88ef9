/**
 * Communities and PageRank of the knowledge-base graph.
 *
 * Communities use Louvain (graphology-communities-louvain). The spec names Leiden, but no maintained
 * Leiden implementation exists for graphology or elsewhere on the npm registry (there is no
 * `graphology-communities-leiden`); Louvain optimizes the same modularity objective, and Leiden's
 * refinement step (which guarantees connected communities) is approximated by splitting every
 * community into its connected components. The RNG is seeded so the same graph and seed give the same
 * communities.
 *
 * PageRank uses graphology-metrics, weighted by relation weight.
 */
import louvain from 'graphology-communities-louvain';
import pagerank from 'graphology-metrics/centrality/pagerank.js';
import { seededRandom } from '../raptor/random.js';
import type { KbGraph } from './kb-graph.js';

export interface Community {
  /** 0-based, ordered by decreasing weight. */
  id: number;
  /** Member entity names, by decreasing PageRank. */
  entities: string[];
  /** Sum of the members' PageRank, normalized so the heaviest community has 1. */
  weight: number;
}

/** Assigns `pagerank` to every node (0 for an empty graph); returns the mapping. */
export function assignPageRank(graph: KbGraph): Record<string, number> {
  if (graph.order === 0) return {};
  const ranks = pagerank(graph, {
    getEdgeWeight: 'weight',
    alpha: 0.85,
    maxIterations: 200,
    tolerance: 1e-9,
  });
  graph.forEachNode((n) => graph.setNodeAttribute(n, 'pagerank', ranks[n] ?? 0));
  return ranks;
}

export interface CommunityOptions {
  seed?: number;
  /** Louvain resolution (higher = smaller communities). */
  resolution?: number;
  /** Communities smaller than this are not reported (default 2). */
  minSize?: number;
}

function connectedParts(graph: KbGraph, members: string[]): string[][] {
  const inSet = new Set(members);
  const seen = new Set<string>();
  const parts: string[][] = [];
  for (const start of members) {
    if (seen.has(start)) continue;
    const part: string[] = [];
    const stack = [start];
    seen.add(start);
    while (stack.length) {
      const n = stack.pop() as string;
      part.push(n);
      graph.forEachNeighbor(n, (m) => {
        if (inSet.has(m) && !seen.has(m)) {
          seen.add(m);
          stack.push(m);
        }
      });
    }
    parts.push(part);
  }
  return parts;
}

/**
 * Detects communities, writes each node's `community` (−1 for nodes in no reported community) and
 * returns the communities. PageRank should be assigned first (it orders members and weights).
 */
export function detectCommunities(graph: KbGraph, opts: CommunityOptions = {}): Community[] {
  graph.forEachNode((n) => graph.setNodeAttribute(n, 'community', -1));
  if (graph.size === 0) return [];
  const mapping = louvain(graph, {
    getEdgeWeight: 'weight',
    resolution: opts.resolution ?? 1,
    rng: seededRandom(opts.seed ?? 0),
  });
  const byLabel = new Map<number, string[]>();
  // Iterate in the graph's node order so grouping does not depend on object key order.
  graph.forEachNode((n) => {
    const label = mapping[n];
    const list = byLabel.get(label);
    if (list) list.push(n);
    else byLabel.set(label, [n]);
  });
  const minSize = opts.minSize ?? 2;
  const rank = (n: string) => graph.getNodeAttribute(n, 'pagerank') || 0;
  const groups: Array<{ entities: string[]; weight: number }> = [];
  for (const members of byLabel.values()) {
    for (const part of connectedParts(graph, members)) {
      if (part.length < minSize) continue;
      part.sort((a, b) => rank(b) - rank(a) || (a < b ? -1 : 1));
      groups.push({ entities: part, weight: part.reduce((s, n) => s + rank(n), 0) });
    }
  }
  groups.sort((a, b) => b.weight - a.weight || (a.entities[0] < b.entities[0] ? -1 : 1));
  const top = groups[0]?.weight || 1;
  return groups.map((g, id) => {
    for (const n of g.entities) graph.setNodeAttribute(n, 'community', id);
    return { id, entities: g.entities, weight: g.weight / top };
  });
}
