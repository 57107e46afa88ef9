import { describe, expect, it } from 'vitest';
import {
  PALETTE,
  buildGraph,
  communityColor,
  communityLegend,
  relationsOf,
  searchEntities,
  seededRandom,
} from './graph-data';

const node = (id: string, pagerank: number, community?: number) => ({
  id,
  entity_type: 'PERSON',
  description: `${id} described`,
  source_id: [`chunk-${id}`],
  pagerank,
  ...(community === undefined ? {} : { community }),
});

describe('buildGraph (knowledge_graph route → graphology)', () => {
  it('keeps nodes with their description and source chunks, drops self-loops and unknown endpoints, merges parallel relations', () => {
    const g = buildGraph({
      nodes: [node('ADA LOVELACE', 0.5), node('CHARLES BABBAGE', 0.3), node('ADA LOVELACE', 0.1)],
      edges: [
        {
          source: 'ADA LOVELACE',
          target: 'CHARLES BABBAGE',
          weight: 2,
          description: 'worked with',
          keywords: ['k'],
        },
        {
          source: 'CHARLES BABBAGE',
          target: 'ADA LOVELACE',
          weight: 5,
          description: 'heavier',
          keywords: [],
        },
        { source: 'ADA LOVELACE', target: 'ADA LOVELACE', weight: 9 },
        { source: 'ADA LOVELACE', target: 'NOBODY', weight: 9 },
      ],
    });
    expect(g.order).toBe(2);
    expect(g.size).toBe(1);
    const ada = g.getNodeAttributes('ADA LOVELACE');
    expect(ada).toMatchObject({
      label: 'ADA LOVELACE',
      entityType: 'PERSON',
      description: 'ADA LOVELACE described',
      sourceIds: ['chunk-ADA LOVELACE'],
      pagerank: 0.5,
    });
    expect(relationsOf(g, 'ADA LOVELACE')).toEqual([
      { other: 'CHARLES BABBAGE', description: 'heavier', keywords: [], weight: 5 },
    ]);
    expect(relationsOf(g, 'NOBODY')).toEqual([]);
  });

  it('sizes nodes 3–15 by PageRank and gives every node finite, distinct positions', () => {
    const g = buildGraph({ nodes: [node('A', 1), node('B', 0.25), node('C', 0)], edges: [] });
    expect(g.getNodeAttribute('A', 'size')).toBeCloseTo(15);
    expect(g.getNodeAttribute('B', 'size')).toBeCloseTo(9);
    expect(g.getNodeAttribute('C', 'size')).toBeCloseTo(3);
    const spots = new Set(g.mapNodes((_n, a) => `${a.x.toFixed(3)},${a.y.toFixed(3)}`));
    expect(spots.size).toBe(3);
    g.forEachNode((_n, a) => expect(Number.isFinite(a.x) && Number.isFinite(a.y)).toBe(true));
  });

  it('tolerates an empty graph ({} from the route)', () => {
    const g = buildGraph({});
    expect(g.order).toBe(0);
    expect(communityLegend(g)).toEqual([]);
  });
});

describe('community colouring', () => {
  it("uses the server's communities, renumbered largest first, one palette colour each", () => {
    const g = buildGraph({
      nodes: [
        node('A', 1, 7),
        node('B', 1, 3),
        node('C', 1, 3),
        node('D', 1, 3),
        node('E', 1, 7),
        node('F', 1, 9),
      ],
      edges: [],
    });
    // community 3 has three members → 0; 7 has two → 1; 9 has one → 2.
    expect(['B', 'C', 'D'].map((n) => g.getNodeAttribute(n, 'community'))).toEqual([0, 0, 0]);
    expect(g.getNodeAttribute('A', 'community')).toBe(1);
    expect(g.getNodeAttribute('F', 'community')).toBe(2);
    expect(g.getNodeAttribute('B', 'color')).toBe(PALETTE[0]);
    expect(g.getNodeAttribute('E', 'color')).toBe(PALETTE[1]);
    expect(communityLegend(g)).toEqual([
      { community: 0, color: PALETTE[0], count: 3 },
      { community: 1, color: PALETTE[1], count: 2 },
      { community: 2, color: PALETTE[2], count: 1 },
    ]);
  });

  it('finds communities itself (Louvain, deterministic) when the server sent none: two cliques, two colours', () => {
    const clique = (prefix: string) =>
      ['1', '2', '3', '4'].flatMap((a) =>
        ['1', '2', '3', '4']
          .filter((b) => a < b)
          .map((b) => ({ source: prefix + a, target: prefix + b, weight: 1 })),
      );
    const data = {
      nodes: ['a1', 'a2', 'a3', 'a4', 'b1', 'b2', 'b3', 'b4'].map((id) => node(id, 1)),
      edges: [...clique('a'), ...clique('b'), { source: 'a1', target: 'b1', weight: 1 }],
    };
    const g = buildGraph(data);
    const of = (n: string) => g.getNodeAttribute(n, 'community');
    expect(new Set(['a1', 'a2', 'a3', 'a4'].map(of)).size).toBe(1);
    expect(new Set(['b1', 'b2', 'b3', 'b4'].map(of)).size).toBe(1);
    expect(of('a1')).not.toBe(of('b1'));
    const again = buildGraph(data);
    expect(again.mapNodes((n, a) => [n, a.community])).toEqual(g.mapNodes((n, a) => [n, a.community]));
  });

  it('wraps around the palette and greys out unknown communities', () => {
    expect(communityColor(0)).toBe(PALETTE[0]);
    expect(communityColor(PALETTE.length + 2)).toBe(PALETTE[2]);
    expect(communityColor(-1)).toBe(PALETTE[9]);
  });
});

describe('searchEntities', () => {
  const g = buildGraph({
    nodes: [
      node('ANALYTICAL ENGINE', 0.2),
      node('DIFFERENCE ENGINE', 0.9),
      node('ADA LOVELACE', 0.1),
      node('ENGINEER', 0.05),
    ],
    edges: [],
  });
  it('matches case-insensitively, names starting with the query first, then by PageRank', () => {
    expect(searchEntities(g, 'engine').map((m) => m.id)).toEqual([
      'ENGINEER',
      'DIFFERENCE ENGINE',
      'ANALYTICAL ENGINE',
    ]);
    expect(searchEntities(g, '  ada ')).toEqual([
      { id: 'ADA LOVELACE', label: 'ADA LOVELACE', entityType: 'PERSON' },
    ]);
  });
  it('answers nothing for an empty query and respects the limit', () => {
    expect(searchEntities(g, '  ')).toEqual([]);
    expect(searchEntities(g, 'e', 2)).toHaveLength(2);
  });
});

describe('seededRandom', () => {
  it('repeats for a seed and stays in [0, 1)', () => {
    const a = seededRandom(1);
    const b = seededRandom(1);
    const xs = Array.from({ length: 100 }, () => a());
    expect(xs).toEqual(Array.from({ length: 100 }, () => b()));
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
  });
});
