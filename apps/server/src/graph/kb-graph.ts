/**
 * The knowledge-base graph (API.md §19.10): an undirected graphology graph whose nodes are entities
 * (key = upper-cased entity name) and whose edges are relations. Every node and edge remembers what each
 * document contributed (`contributions[docId]`), so that
 *  - adding a document merges its subgraph (same-name entities become one node; descriptions joined,
 *    relation strengths summed, chunk and document ids tracked), and
 *  - removing a document takes away exactly what only it contributed (a node or edge that other
 *    documents also mention stays, with their descriptions and weights).
 * The visible fields (`description`, `entity_type`, `source_id`, `weight`, `keywords`) are derived from
 * the contributions by `refreshNode`/`refreshEdge`; a long merged description is later replaced by a
 * model-written summary (./summarize.ts), recorded in `summary_of` so a change invalidates it.
 */
import Graph from 'graphology';
import type { SerializedGraph } from 'graphology-types';
import type { ChunkExtraction } from './extractor.js';

export interface EntityContribution {
  entity_type: string;
  descriptions: string[];
  source_id: string[];
}

export interface EntityAttributes {
  entity_name: string;
  entity_type: string;
  description: string;
  /** Chunk ids the entity was extracted from. */
  source_id: string[];
  pagerank: number;
  /** Community id from the last community detection, when run. */
  community?: number;
  /** Joined raw descriptions a summary in `description` stands for ("" when not summarized). */
  summary_of: string;
  contributions: Record<string, EntityContribution>;
}

export interface RelationContribution {
  descriptions: string[];
  keywords: string[];
  weight: number;
  source_id: string[];
}

export interface RelationAttributes {
  src_id: string;
  tgt_id: string;
  description: string;
  keywords: string[];
  weight: number;
  source_id: string[];
  summary_of: string;
  contributions: Record<string, RelationContribution>;
}

export type KbGraph = Graph<EntityAttributes, RelationAttributes>;

export const DESCRIPTION_SEPARATOR = '\n';

export function createKbGraph(): KbGraph {
  return new Graph<EntityAttributes, RelationAttributes>({
    type: 'undirected',
    multi: false,
    allowSelfLoops: false,
  });
}

/** Stable key of the edge between `a` and `b`, whatever their order. */
export function relationKey(a: string, b: string): string {
  return a < b ? `${a}\u2194${b}` : `${b}\u2194${a}`;
}

function pushUnique(into: string[], values: Iterable<string>): void {
  const seen = new Set(into);
  for (const v of values) {
    if (!seen.has(v)) {
      seen.add(v);
      into.push(v);
    }
  }
}

function mostFrequent(values: string[]): string {
  const counts = new Map<string, number>();
  let best = '';
  let bestCount = 0;
  for (const v of values) {
    const c = (counts.get(v) ?? 0) + 1;
    counts.set(v, c);
    if (c > bestCount) {
      best = v;
      bestCount = c;
    }
  }
  return best;
}

/** Unique raw descriptions of a node or edge, in contribution order. */
export function rawDescriptions(contributions: Record<string, { descriptions: string[] }>): string[] {
  const out: string[] = [];
  for (const c of Object.values(contributions)) pushUnique(out, c.descriptions);
  return out;
}

/** Recomputes a node's visible fields from its contributions. */
export function refreshNode(graph: KbGraph, name: string): void {
  const a = graph.getNodeAttributes(name);
  const types: string[] = [];
  const sources: string[] = [];
  for (const c of Object.values(a.contributions)) {
    for (let i = 0; i < Math.max(1, c.descriptions.length); i++) types.push(c.entity_type);
    pushUnique(sources, c.source_id);
  }
  const joined = rawDescriptions(a.contributions).join(DESCRIPTION_SEPARATOR);
  graph.mergeNodeAttributes(name, {
    entity_type: mostFrequent(types) || a.entity_type,
    source_id: sources,
    // Keep a summary only while the descriptions it summarizes are unchanged.
    ...(a.summary_of && a.summary_of === joined ? {} : { description: joined, summary_of: '' }),
  });
}

/** Recomputes an edge's visible fields from its contributions. */
export function refreshEdge(graph: KbGraph, key: string): void {
  const a = graph.getEdgeAttributes(key);
  const keywords: string[] = [];
  const sources: string[] = [];
  let weight = 0;
  for (const c of Object.values(a.contributions)) {
    pushUnique(keywords, c.keywords);
    pushUnique(sources, c.source_id);
    weight += c.weight;
  }
  const joined = rawDescriptions(a.contributions).join(DESCRIPTION_SEPARATOR);
  graph.mergeEdgeAttributes(key, {
    keywords,
    source_id: sources,
    weight,
    ...(a.summary_of && a.summary_of === joined ? {} : { description: joined, summary_of: '' }),
  });
}

export interface SubgraphStats {
  entities: number;
  relations: number;
  /** Relations dropped because an end is not an extracted entity (e.g. its type was filtered out). */
  danglingRelations: number;
}

/**
 * Builds one document's subgraph from its chunks' extractions. Relations are kept only between
 * entities the document extracted, so an entity of a filtered-out type never enters through a relation.
 */
export function buildDocumentSubgraph(
  docId: string,
  extractions: readonly ChunkExtraction[],
): { graph: KbGraph; stats: SubgraphStats } {
  const graph = createKbGraph();
  const stats: SubgraphStats = { entities: 0, relations: 0, danglingRelations: 0 };
  const typesSeen = new Map<string, string[]>();
  for (const ex of extractions) {
    for (const e of ex.entities) {
      if (!graph.hasNode(e.name)) {
        graph.addNode(e.name, {
          entity_name: e.name,
          entity_type: e.type,
          description: '',
          source_id: [],
          pagerank: 0,
          summary_of: '',
          contributions: { [docId]: { entity_type: e.type, descriptions: [], source_id: [] } },
        });
      }
      const c = graph.getNodeAttribute(e.name, 'contributions')[docId];
      pushUnique(c.descriptions, [e.description]);
      pushUnique(c.source_id, [ex.chunkId]);
      const types = typesSeen.get(e.name) ?? [];
      types.push(e.type);
      typesSeen.set(e.name, types);
    }
  }
  // The document's type for an entity is the one it gave most often.
  for (const [name, types] of typesSeen) {
    graph.getNodeAttribute(name, 'contributions')[docId].entity_type = mostFrequent(types);
  }
  for (const ex of extractions) {
    for (const r of ex.relations) {
      if (!graph.hasNode(r.source) || !graph.hasNode(r.target)) {
        stats.danglingRelations++;
        continue;
      }
      const key = relationKey(r.source, r.target);
      if (!graph.hasEdge(key)) {
        const [src, tgt] = r.source < r.target ? [r.source, r.target] : [r.target, r.source];
        graph.addEdgeWithKey(key, src, tgt, {
          src_id: src,
          tgt_id: tgt,
          description: '',
          keywords: [],
          weight: 0,
          source_id: [],
          summary_of: '',
          contributions: { [docId]: { descriptions: [], keywords: [], weight: 0, source_id: [] } },
        });
      }
      const c = graph.getEdgeAttribute(key, 'contributions')[docId];
      pushUnique(c.descriptions, [r.description]);
      pushUnique(c.keywords, r.keywords);
      pushUnique(c.source_id, [ex.chunkId]);
      c.weight += r.strength;
    }
  }
  graph.forEachNode((n) => refreshNode(graph, n));
  graph.forEachEdge((e) => refreshEdge(graph, e));
  stats.entities = graph.order;
  stats.relations = graph.size;
  return { graph, stats };
}

export interface GraphChange {
  /** Nodes added or whose contributions changed. */
  nodes: string[];
  /** Edges added or whose contributions changed. */
  edges: string[];
}

/**
 * Merges a subgraph into `target`. A document merged again replaces its earlier contribution (so
 * re-extracting a document is idempotent rather than doubling weights).
 */
export function mergeSubgraph(target: KbGraph, sub: KbGraph): GraphChange {
  const change: GraphChange = { nodes: [], edges: [] };
  sub.forEachNode((name, attrs) => {
    if (!target.hasNode(name)) {
      target.addNode(name, { ...attrs, contributions: {}, description: '', source_id: [], summary_of: '' });
    }
    const contributions = target.getNodeAttribute(name, 'contributions');
    for (const [docId, c] of Object.entries(attrs.contributions)) {
      contributions[docId] = structuredClone(c);
    }
    refreshNode(target, name);
    change.nodes.push(name);
  });
  sub.forEachEdge((key, attrs, source, targetNode) => {
    const k = relationKey(source, targetNode);
    if (!target.hasEdge(k)) {
      target.addEdgeWithKey(k, attrs.src_id, attrs.tgt_id, {
        ...attrs,
        contributions: {},
        description: '',
        keywords: [],
        source_id: [],
        weight: 0,
        summary_of: '',
      });
    }
    const contributions = target.getEdgeAttribute(k, 'contributions');
    for (const [docId, c] of Object.entries(attrs.contributions)) contributions[docId] = structuredClone(c);
    refreshEdge(target, k);
    change.edges.push(k);
  });
  return change;
}

/**
 * Removes what the given documents contributed: their contributions go; a node or edge left with no
 * contribution goes (a node's edges with it). Returns the nodes and edges that changed but remain.
 */
export function removeDocuments(
  graph: KbGraph,
  docIds: readonly string[],
): GraphChange & { removedNodes: string[]; removedEdges: string[] } {
  const gone = new Set(docIds);
  const out = {
    nodes: [] as string[],
    edges: [] as string[],
    removedNodes: [] as string[],
    removedEdges: [] as string[],
  };
  for (const key of graph.edges()) {
    const contributions = graph.getEdgeAttribute(key, 'contributions');
    if (!Object.keys(contributions).some((d) => gone.has(d))) continue;
    for (const d of gone) delete contributions[d];
    if (Object.keys(contributions).length === 0) {
      graph.dropEdge(key);
      out.removedEdges.push(key);
    } else {
      refreshEdge(graph, key);
      out.edges.push(key);
    }
  }
  for (const name of graph.nodes()) {
    const contributions = graph.getNodeAttribute(name, 'contributions');
    if (!Object.keys(contributions).some((d) => gone.has(d))) continue;
    for (const d of gone) delete contributions[d];
    if (Object.keys(contributions).length === 0) {
      out.removedEdges.push(...graph.edges(name));
      graph.dropNode(name);
      out.removedNodes.push(name);
    } else {
      refreshNode(graph, name);
      out.nodes.push(name);
    }
  }
  return out;
}

/** Document ids that contributed to a node. */
export function nodeDocIds(graph: KbGraph, name: string): string[] {
  return Object.keys(graph.getNodeAttribute(name, 'contributions'));
}

/** Lossless JSON form (graphology's export), contributions included: what the job stores and reloads. */
export function exportKbGraph(graph: KbGraph): SerializedGraph<EntityAttributes, RelationAttributes> {
  return graph.export();
}

export function importKbGraph(data: SerializedGraph<EntityAttributes, RelationAttributes> | string): KbGraph {
  const graph = createKbGraph();
  graph.import(typeof data === 'string' ? JSON.parse(data) : data);
  return graph;
}
