/**
 * Drafts of the chunk-index records a graph run writes (API.md §19.1, §19.10): `knowledge_graph_kwd` ∈
 * graph, subgraph, entity, relation, community_report, mind_map, with `entity_kwd`, `from_entity_kwd`,
 * `to_entity_kwd`. The caller adds ids, kb_id, tokenized fields and the embedding of `embedText`
 * (entities are embedded by name, relations by "from->to: description", as GraphRAG does), and keeps
 * graph records out of ordinary retrieval (`available_int` 0 / filtered by `knowledge_graph_kwd`).
 */
import { exportKbGraph, type KbGraph } from './kb-graph.js';
import type { MindMapNode } from './mindmap.js';
import { renderCommunityReport, type CommunityReport } from './reports.js';
import { computeNHopPaths, toNodeLink, type NodeLinkGraph } from './view.js';

export type GraphRecordKind = 'graph' | 'subgraph' | 'entity' | 'relation' | 'community_report' | 'mind_map';

export interface GraphRecordDraft {
  knowledge_graph_kwd: GraphRecordKind;
  /** Stored text (JSON for every kind). */
  content_with_weight: string;
  /** Text to tokenize into content fields ("" for none). */
  content: string;
  /** Text to embed, when the record is searched by vector. */
  embedText?: string;
  doc_id?: string;
  /** Documents the record stems from. */
  doc_ids: string[];
  /** Chunk ids the record stems from. */
  source_id: string[];
  docnm_kwd?: string;
  entity_kwd?: string;
  entity_type_kwd?: string;
  from_entity_kwd?: string;
  to_entity_kwd?: string;
  entities_kwd?: string[];
  /** Entity PageRank. */
  rank_flt?: number;
  /** Relation weight. */
  weight_int?: number;
  /** Community weight (0..1]. */
  weight_flt?: number;
  /** JSON of the entity's n-hop paths (use_kg). */
  n_hop_with_weight?: string;
}

/** The whole KB graph: lossless graphology export, read back with importKbGraph and shown with graphView. */
export function graphRecord(graph: KbGraph): GraphRecordDraft {
  const docIds = new Set<string>();
  graph.forEachNode((_n, a) => Object.keys(a.contributions).forEach((d) => docIds.add(d)));
  return {
    knowledge_graph_kwd: 'graph',
    content_with_weight: JSON.stringify(exportKbGraph(graph)),
    content: '',
    doc_ids: [...docIds],
    source_id: [],
  };
}

/** The part of the graph one document contributed (nodes it mentions and relations among them). */
export function documentGraph(graph: KbGraph, docId: string): NodeLinkGraph {
  const whole = toNodeLink(graph);
  const nodes = whole.nodes.filter((n) => n.doc_ids.includes(docId));
  const kept = new Set(nodes.map((n) => n.id));
  const edges = whole.edges.filter((e) => {
    if (!kept.has(e.source) || !kept.has(e.target)) return false;
    const key = graph.edge(e.source, e.target);
    return key !== undefined && docId in graph.getEdgeAttribute(key, 'contributions');
  });
  return { nodes, edges };
}

export function subgraphRecord(graph: KbGraph, docId: string): GraphRecordDraft {
  const sub = documentGraph(graph, docId);
  return {
    knowledge_graph_kwd: 'subgraph',
    content_with_weight: JSON.stringify(sub),
    content: '',
    doc_id: docId,
    doc_ids: [docId],
    source_id: [...new Set(sub.nodes.flatMap((n) => n.source_id))],
  };
}

export function entityRecord(graph: KbGraph, name: string): GraphRecordDraft {
  const a = graph.getNodeAttributes(name);
  return {
    knowledge_graph_kwd: 'entity',
    content_with_weight: JSON.stringify({
      entity_name: name,
      entity_type: a.entity_type,
      description: a.description,
      source_id: a.source_id,
    }),
    content: a.description,
    embedText: name,
    doc_ids: Object.keys(a.contributions),
    source_id: a.source_id,
    entity_kwd: name,
    entity_type_kwd: a.entity_type,
    rank_flt: a.pagerank,
    n_hop_with_weight: JSON.stringify(computeNHopPaths(graph, name)),
  };
}

export function relationRecord(graph: KbGraph, edgeKey: string): GraphRecordDraft {
  const a = graph.getEdgeAttributes(edgeKey);
  return {
    knowledge_graph_kwd: 'relation',
    content_with_weight: JSON.stringify({
      src_id: a.src_id,
      tgt_id: a.tgt_id,
      description: a.description,
      keywords: a.keywords,
      weight: a.weight,
      source_id: a.source_id,
    }),
    content: `${a.description} ${a.keywords.join(' ')}`.trim(),
    embedText: `${a.src_id}->${a.tgt_id}: ${a.description}`,
    doc_ids: Object.keys(a.contributions),
    source_id: a.source_id,
    from_entity_kwd: a.src_id,
    to_entity_kwd: a.tgt_id,
    weight_int: Math.round(a.weight),
  };
}

export function communityReportRecord(graph: KbGraph, report: CommunityReport): GraphRecordDraft {
  const { title, content } = renderCommunityReport(report);
  const docIds = new Set<string>();
  const sources = new Set<string>();
  for (const n of report.entities) {
    if (!graph.hasNode(n)) continue;
    const a = graph.getNodeAttributes(n);
    Object.keys(a.contributions).forEach((d) => docIds.add(d));
    a.source_id.forEach((s) => sources.add(s));
  }
  return {
    knowledge_graph_kwd: 'community_report',
    content_with_weight: JSON.stringify(content),
    content: content.report,
    docnm_kwd: title,
    doc_ids: [...docIds],
    source_id: [...sources],
    entities_kwd: report.entities,
    weight_flt: report.weight,
  };
}

export function mindMapRecord(tree: MindMapNode, docIds: string[]): GraphRecordDraft {
  return {
    knowledge_graph_kwd: 'mind_map',
    content_with_weight: JSON.stringify(tree),
    content: '',
    doc_ids: docIds,
    source_id: [],
  };
}
