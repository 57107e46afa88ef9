/**
 * What the knowledge-graph routes serve (API.md §5, §7) and how a graph is deleted: the KB's graph view
 * (first 256 entities by PageRank, 128 relations by weight) and mind map; a document's part of the
 * graph and its mind map (ids made unique); deleting the graph drops the stored graph and its index
 * records, keeping the mind map.
 */
import type { AppContext } from '../../context.js';
import { documentGraph } from '../index-records.js';
import { uniqueMindMapIds } from '../mindmap.js';
import { graphView, toNodeLink } from '../view.js';
import { deleteGraphRecords } from './index-write.js';
import { clearKbGraph, docMindMap, loadKbGraph } from './store.js';

type Json = Record<string, unknown>;

/** `full`: every node and edge (Lectern's graph tab), else the API.md view (256 nodes, 128 edges). */
export async function kbKnowledgeGraph(
  ctx: AppContext,
  kbId: string,
  full = false,
): Promise<{ graph: Json; mind_map: Json }> {
  const stored = await loadKbGraph(ctx.db.kysely, kbId);
  const limits = full ? { maxNodes: Infinity, maxEdges: Infinity } : undefined;
  return {
    graph:
      stored.graph && stored.graph.order > 0 ? (graphView(toNodeLink(stored.graph), limits) as Json) : {},
    mind_map: stored.mindMap ? (uniqueMindMapIds(stored.mindMap) as Json) : {},
  };
}

export async function docKnowledgeGraph(
  ctx: AppContext,
  kbId: string,
  docId: string,
): Promise<{ graph: Json; mind_map: Json }> {
  const stored = await loadKbGraph(ctx.db.kysely, kbId);
  const tree = await docMindMap(ctx.db.kysely, docId);
  let graph: Json = {};
  if (stored.graph) {
    const sub = documentGraph(stored.graph, docId);
    if (sub.nodes.length > 0) graph = graphView(sub) as Json;
  }
  return { graph, mind_map: tree ? (uniqueMindMapIds(tree) as Json) : {} };
}

export async function deleteKnowledgeGraph(ctx: AppContext, kbId: string): Promise<void> {
  await clearKbGraph(ctx.db.kysely, kbId);
  await deleteGraphRecords(ctx.chunkIndex, kbId);
}
