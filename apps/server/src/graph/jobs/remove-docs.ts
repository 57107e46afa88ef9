/**
 * Deleting documents takes their contributions out of the KB graph at once (API.md §19.9): what only
 * they contributed goes, shared entities and relations keep the other documents' descriptions and
 * weights. No model is called (changed records keep their vectors until the next graph run).
 */
import type { AppContext } from '../../context.js';
import { removeDocuments } from '../kb-graph.js';
import { writeGraphRecords } from './index-write.js';
import { extractedDocs, loadKbGraph, saveKbGraph } from './store.js';

export async function removeDocsFromGraph(
  ctx: AppContext,
  kb: { id: string; tenant_id: string },
  docIds: readonly string[],
): Promise<void> {
  const extracted = await extractedDocs(ctx.db.kysely, kb.id);
  const gone = docIds.filter((d) => extracted.has(d));
  if (gone.length === 0) return;
  const stored = await loadKbGraph(ctx.db.kysely, kb.id);
  if (!stored.graph) return;
  removeDocuments(stored.graph, gone);
  const reports = stored.reports
    .map((r) => ({ ...r, entities: r.entities.filter((e) => stored.graph!.hasNode(e)) }))
    .filter((r) => r.entities.length > 0);
  await writeGraphRecords(ctx.chunkIndex, kb, stored.graph, reports, { embedder: null });
  await saveKbGraph(ctx.db.kysely, kb.id, {
    graph: stored.graph,
    reports,
    communities: new Set(reports.map((r) => r.community)).size,
    added: [],
    removed: gone,
  });
}
