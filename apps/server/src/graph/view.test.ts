import { describe, expect, it } from 'vitest';
import { assignPageRank } from './communities.js';
import {
  communityReportRecord,
  documentGraph,
  entityRecord,
  graphRecord,
  relationRecord,
} from './index-records.js';
import {
  buildDocumentSubgraph,
  createKbGraph,
  exportKbGraph,
  mergeSubgraph,
  relationKey,
} from './kb-graph.js';
import { computeNHopPaths, graphView, toNodeLink } from './view.js';

describe('graphView (GET /v1/kb/<id>/knowledge_graph)', () => {
  it('keeps the first 256 nodes by PageRank and 128 edges by weight, no self-loops, only between kept nodes', () => {
    const nodes = Array.from({ length: 300 }, (_, i) => ({
      id: `N${i}`,
      pagerank: i,
      entity_type: 'PERSON',
    }));
    const edges = [
      ...Array.from({ length: 200 }, (_, i) => ({ source: `N${299 - i}`, target: `N${298 - i}`, weight: i })),
      { source: 'N299', target: 'N299', weight: 1e6 },
      { source: 'N299', target: 'N0', weight: 1e6 },
    ];
    const view = graphView({ nodes, edges }) as {
      nodes: Array<{ id: string }>;
      edges: Array<{ source: string; target: string; weight: number }>;
    };
    expect(view.nodes).toHaveLength(256);
    expect(view.nodes[0].id).toBe('N299');
    expect(view.nodes[255].id).toBe('N44');
    expect(view.edges).toHaveLength(128);
    expect(view.edges.every((e) => e.source !== e.target)).toBe(true);
    const kept = new Set(view.nodes.map((n) => n.id));
    expect(view.edges.every((e) => kept.has(e.source) && kept.has(e.target))).toBe(true);
    expect(view.edges.map((e) => e.weight)).toEqual(
      [...view.edges.map((e) => e.weight)].sort((a, b) => b - a),
    );
  });

  it('serves every node and edge (still no self-loops) when the limits are lifted (full=1)', () => {
    const nodes = Array.from({ length: 300 }, (_, i) => ({ id: `N${i}`, pagerank: i }));
    const edges = [
      ...Array.from({ length: 200 }, (_, i) => ({ source: `N${i}`, target: `N${i + 1}`, weight: i })),
      { source: 'N5', target: 'N5', weight: 1 },
    ];
    const view = graphView({ nodes, edges }, { maxNodes: Infinity, maxEdges: Infinity }) as {
      nodes: unknown[];
      edges: unknown[];
    };
    expect(view.nodes).toHaveLength(300);
    expect(view.edges).toHaveLength(200);
  });

  it('reads the stored graphology export (as object or string) without bookkeeping; {} when there is none', () => {
    const kb = createKbGraph();
    mergeSubgraph(
      kb,
      buildDocumentSubgraph('d', [
        {
          chunkId: 'c1',
          docId: 'd',
          entities: [
            { name: 'A', type: 'PERSON', description: 'a' },
            { name: 'B', type: 'PERSON', description: 'b' },
          ],
          relations: [{ source: 'A', target: 'B', description: 'ab', keywords: ['k'], strength: 3 }],
        },
      ]).graph,
    );
    assignPageRank(kb);
    for (const stored of [exportKbGraph(kb), JSON.stringify(exportKbGraph(kb)), toNodeLink(kb)]) {
      const view = graphView(stored) as {
        nodes: Array<Record<string, unknown>>;
        edges: Array<Record<string, unknown>>;
      };
      expect(view.nodes.map((n) => n.id).sort()).toEqual(['A', 'B']);
      expect(view.nodes[0]).toMatchObject({ entity_type: 'PERSON', source_id: ['c1'] });
      expect(view.nodes[0].pagerank).toBeCloseTo(0.5);
      expect(view.nodes[0]).not.toHaveProperty('contributions');
      expect(view.edges).toEqual([
        expect.objectContaining({ source: 'A', target: 'B', weight: 3, description: 'ab', keywords: ['k'] }),
      ]);
    }
    expect(graphView(null)).toEqual({});
    expect(graphView('not json')).toEqual({});
    expect(graphView({})).toEqual({});
  });
});

describe('computeNHopPaths', () => {
  it('lists paths of up to two relations, heaviest first, without revisiting nodes', () => {
    const kb = createKbGraph();
    const ents = ['A', 'B', 'C', 'D'].map((name) => ({ name, type: 'PERSON', description: name }));
    const rel = (source: string, target: string, strength: number) => ({
      source,
      target,
      description: 'r',
      keywords: [],
      strength,
    });
    mergeSubgraph(
      kb,
      buildDocumentSubgraph('d', [
        {
          chunkId: 'c',
          docId: 'd',
          entities: ents,
          relations: [rel('A', 'B', 5), rel('A', 'C', 2), rel('B', 'D', 7), rel('B', 'C', 1)],
        },
      ]).graph,
    );
    expect(computeNHopPaths(kb, 'A')).toEqual([
      { path: ['A', 'B'], weights: [5] },
      { path: ['A', 'B', 'D'], weights: [5, 7] },
      { path: ['A', 'B', 'C'], weights: [5, 1] },
      { path: ['A', 'C'], weights: [2] },
      { path: ['A', 'C', 'B'], weights: [2, 1] },
    ]);
    expect(computeNHopPaths(kb, 'A', 1)).toHaveLength(2);
    expect(computeNHopPaths(kb, 'NOPE')).toEqual([]);
  });
});

describe('index record drafts', () => {
  it('describes graph, entity, relation, community report and per-document graph records', () => {
    const kb = createKbGraph();
    const e = (name: string) => ({ name, type: 'ORGANIZATION', description: `${name} d` });
    mergeSubgraph(
      kb,
      buildDocumentSubgraph('d1', [
        {
          chunkId: 'c1',
          docId: 'd1',
          entities: [e('A'), e('B')],
          relations: [{ source: 'A', target: 'B', description: 'ab', keywords: ['x'], strength: 2.6 }],
        },
      ]).graph,
    );
    mergeSubgraph(
      kb,
      buildDocumentSubgraph('d2', [
        {
          chunkId: 'c2',
          docId: 'd2',
          entities: [e('B'), e('C')],
          relations: [{ source: 'B', target: 'C', description: 'bc', keywords: [], strength: 1 }],
        },
      ]).graph,
    );
    assignPageRank(kb);

    const g = graphRecord(kb);
    expect(g).toMatchObject({ knowledge_graph_kwd: 'graph', doc_ids: ['d1', 'd2'] });
    expect(JSON.parse(g.content_with_weight).nodes).toHaveLength(3);

    const ent = entityRecord(kb, 'B');
    expect(ent).toMatchObject({
      knowledge_graph_kwd: 'entity',
      entity_kwd: 'B',
      entity_type_kwd: 'ORGANIZATION',
      embedText: 'B',
      doc_ids: ['d1', 'd2'],
      source_id: ['c1', 'c2'],
    });
    expect(JSON.parse(ent.content_with_weight)).toEqual({
      entity_name: 'B',
      entity_type: 'ORGANIZATION',
      description: 'B d',
      source_id: ['c1', 'c2'],
    });
    expect(JSON.parse(ent.n_hop_with_weight ?? '[]')).toEqual([
      { path: ['B', 'A'], weights: [2.6] },
      { path: ['B', 'C'], weights: [1] },
    ]);
    expect(ent.rank_flt).toBeGreaterThan(0);

    const rel = relationRecord(kb, relationKey('A', 'B'));
    expect(rel).toMatchObject({
      knowledge_graph_kwd: 'relation',
      from_entity_kwd: 'A',
      to_entity_kwd: 'B',
      weight_int: 3,
      embedText: 'A->B: ab',
    });

    const report = communityReportRecord(kb, {
      community: 0,
      title: 'T',
      summary: 'S',
      rating: 5,
      rating_explanation: '',
      findings: [{ summary: 'f', explanation: 'because' }],
      entities: ['A', 'B'],
      weight: 1,
    });
    expect(report).toMatchObject({
      knowledge_graph_kwd: 'community_report',
      docnm_kwd: 'T',
      entities_kwd: ['A', 'B'],
      weight_flt: 1,
      doc_ids: ['d1', 'd2'],
    });
    expect(JSON.parse(report.content_with_weight)).toEqual({
      report: '# T\n\nS\n\n## f\n\nbecause',
      evidences: 'because',
    });

    const doc2 = documentGraph(kb, 'd2');
    expect(doc2.nodes.map((n) => n.id)).toEqual(['B', 'C']);
    expect(doc2.edges.map((x) => [x.source, x.target])).toEqual([['B', 'C']]);
  });
});
