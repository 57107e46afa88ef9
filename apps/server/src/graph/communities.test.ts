import { describe, expect, it } from 'vitest';
import { assignPageRank, detectCommunities } from './communities.js';
import { createKbGraph, relationKey, type KbGraph } from './kb-graph.js';

function addNode(g: KbGraph, name: string): void {
  g.addNode(name, {
    entity_name: name,
    entity_type: 'PERSON',
    description: name,
    source_id: [],
    pagerank: 0,
    summary_of: '',
    contributions: { d: { entity_type: 'PERSON', descriptions: [name], source_id: [] } },
  });
}

function addEdge(g: KbGraph, a: string, b: string, weight: number): void {
  const [s, t] = a < b ? [a, b] : [b, a];
  g.addEdgeWithKey(relationKey(a, b), s, t, {
    src_id: s,
    tgt_id: t,
    description: `${a}-${b}`,
    keywords: [],
    weight,
    source_id: [],
    summary_of: '',
    contributions: { d: { descriptions: [], keywords: [], weight, source_id: [] } },
  });
}

/** Two dense cliques of 5 joined by one weak bridge, plus an isolated node. */
function twoCliques(): KbGraph {
  const g = createKbGraph();
  const left = ['A1', 'A2', 'A3', 'A4', 'A5'];
  const right = ['B1', 'B2', 'B3', 'B4', 'B5'];
  for (const n of [...left, ...right, 'LONER']) addNode(g, n);
  for (const group of [left, right]) {
    for (let i = 0; i < group.length; i++)
      for (let j = i + 1; j < group.length; j++) addEdge(g, group[i], group[j], 5);
  }
  addEdge(g, 'A1', 'B1', 1);
  return g;
}

describe('PageRank', () => {
  it('ranks a hub above its leaves, sums to 1, and is written on the nodes', () => {
    const g = createKbGraph();
    for (const n of ['HUB', 'L1', 'L2', 'L3', 'L4']) addNode(g, n);
    for (const l of ['L1', 'L2', 'L3', 'L4']) addEdge(g, 'HUB', l, 1);
    const ranks = assignPageRank(g);
    expect(ranks.HUB).toBeGreaterThan(ranks.L1 * 2);
    expect(ranks.L1).toBeCloseTo(ranks.L4, 10);
    expect(Object.values(ranks).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 6);
    expect(g.getNodeAttribute('HUB', 'pagerank')).toBe(ranks.HUB);
  });

  it('follows relation weights', () => {
    const g = createKbGraph();
    for (const n of ['X', 'HEAVY', 'LIGHT']) addNode(g, n);
    addEdge(g, 'X', 'HEAVY', 9);
    addEdge(g, 'X', 'LIGHT', 1);
    const ranks = assignPageRank(g);
    expect(ranks.HEAVY).toBeGreaterThan(ranks.LIGHT);
  });

  it('handles an empty graph', () => {
    expect(assignPageRank(createKbGraph())).toEqual({});
  });
});

describe('detectCommunities (Louvain)', () => {
  it('finds the two cliques, skips the loner, labels nodes, orders members by PageRank', () => {
    const g = twoCliques();
    assignPageRank(g);
    const communities = detectCommunities(g, { seed: 7 });
    expect(communities).toHaveLength(2);
    const sets = communities.map((c) => [...c.entities].sort().join(','));
    expect(sets.sort()).toEqual(['A1,A2,A3,A4,A5', 'B1,B2,B3,B4,B5']);
    expect(communities[0].weight).toBe(1);
    for (const c of communities) {
      const ranks = c.entities.map((e) => g.getNodeAttribute(e, 'pagerank'));
      expect([...ranks].sort((a, b) => b - a)).toEqual(ranks);
      for (const e of c.entities) expect(g.getNodeAttribute(e, 'community')).toBe(c.id);
    }
    expect(g.getNodeAttribute('LONER', 'community')).toBe(-1);
  });

  it('is deterministic for a seed', () => {
    const run = (seed: number) => {
      const g = twoCliques();
      assignPageRank(g);
      return detectCommunities(g, { seed });
    };
    expect(run(3)).toEqual(run(3));
  });

  it('never returns a disconnected community', () => {
    const g = twoCliques();
    // Remove the bridge: every community must be one connected piece.
    g.dropEdge(relationKey('A1', 'B1'));
    assignPageRank(g);
    for (const c of detectCommunities(g, { seed: 1, resolution: 0.01 })) {
      const prefix = c.entities[0][0];
      expect(c.entities.every((e) => e[0] === prefix)).toBe(true);
    }
  });
});
