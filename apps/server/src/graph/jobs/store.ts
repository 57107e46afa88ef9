/**
 * Storage of a KB's knowledge graph (migration 0007): the graph itself (graphology export with every
 * document's contribution), its community reports and mind map in `kb_graph`; the documents whose
 * extraction it holds in `kb_graph_doc`. The chunk index holds the searchable records (./index-write.ts).
 */
import crypto from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/types.js';
import { parseJson, toJson } from '../../db/json.js';
import { creationStamps, updateStamps } from '../../util/time.js';
import { importKbGraph, type KbGraph } from '../kb-graph.js';
import type { MindMapNode } from '../mindmap.js';
import type { CommunityReport } from '../reports.js';

type Db = Kysely<Database> | Transaction<Database>;

export interface StoredKbGraph {
  graph: KbGraph | undefined;
  reports: CommunityReport[];
  mindMap: MindMapNode | null;
}

export async function loadKbGraph(db: Db, kbId: string): Promise<StoredKbGraph> {
  const row = await db.selectFrom('kb_graph').selectAll().where('kb_id', '=', kbId).executeTakeFirst();
  const data = row ? parseJson<unknown>(row.graph, null) : null;
  let graph: KbGraph | undefined;
  if (data && typeof data === 'object') {
    try {
      graph = importKbGraph(data as Parameters<typeof importKbGraph>[0]);
    } catch {
      // A graph that cannot be read back is rebuilt by the next run rather than breaking the KB.
      graph = undefined;
    }
  }
  return {
    graph,
    reports: row ? parseJson<CommunityReport[]>(row.reports, []) : [],
    mindMap: row ? parseJson<MindMapNode | null>(row.mind_map, null) : null,
  };
}

/** Digest of the chunk ids a document's extraction used. */
export function chunkDigest(chunkIds: readonly string[]): string {
  return crypto
    .createHash('sha256')
    .update([...chunkIds].sort().join(' '))
    .digest('hex')
    .slice(0, 32);
}

export async function extractedDocs(db: Db, kbId: string): Promise<Map<string, string>> {
  const rows = await db
    .selectFrom('kb_graph_doc')
    .select(['doc_id', 'digest'])
    .where('kb_id', '=', kbId)
    .execute();
  return new Map(rows.map((r) => [r.doc_id, r.digest]));
}

export interface SaveGraph {
  graph: KbGraph;
  reports?: CommunityReport[];
  communities?: number;
  /** Documents now in the graph, with the digest of their chunk ids. */
  added: Array<{ docId: string; digest: string; chunks: number }>;
  /** Documents whose contributions left the graph. */
  removed: string[];
}

const TYPE_INDEX_MAX = 256;

/** Entity names per type, most central first (at most TYPE_INDEX_MAX per type). */
export function typeIndex(graph: KbGraph): Record<string, Array<[string, number]>> {
  const out: Record<string, Array<[string, number]>> = {};
  graph.forEachNode((name, a) => {
    const type = (a.entity_type || '').toUpperCase();
    (out[type] ??= []).push([name, a.pagerank]);
  });
  for (const type of Object.keys(out)) {
    out[type] = out[type].sort((x, y) => y[1] - x[1]).slice(0, TYPE_INDEX_MAX);
  }
  return out;
}

/** Writes the graph row and the document list in one transaction. */
export async function saveKbGraph(db: Kysely<Database>, kbId: string, s: SaveGraph): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const values = {
      graph: toJson(s.graph.export()),
      type_index: toJson(typeIndex(s.graph)),
      entity_num: s.graph.order,
      relation_num: s.graph.size,
      ...(s.reports ? { reports: toJson(s.reports), community_num: s.communities ?? 0 } : {}),
    };
    const updated = await trx
      .updateTable('kb_graph')
      .set({ ...values, ...updateStamps() })
      .where('kb_id', '=', kbId)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) {
      await trx
        .insertInto('kb_graph')
        .values({
          kb_id: kbId,
          reports: toJson(s.reports ?? []),
          mind_map: null,
          community_num: s.communities ?? 0,
          ...values,
          ...creationStamps(),
        })
        .execute();
    }
    const gone = [...s.removed, ...s.added.map((a) => a.docId)];
    for (let i = 0; i < gone.length; i += 500) {
      await trx
        .deleteFrom('kb_graph_doc')
        .where('kb_id', '=', kbId)
        .where('doc_id', 'in', gone.slice(i, i + 500))
        .execute();
    }
    for (const a of s.added) {
      await trx
        .insertInto('kb_graph_doc')
        .values({
          kb_id: kbId,
          doc_id: a.docId,
          digest: a.digest,
          chunk_num: a.chunks,
          mind_map: null,
          ...creationStamps(),
        })
        .execute();
    }
  });
}

export async function saveMindMaps(
  db: Kysely<Database>,
  kbId: string,
  kbTree: MindMapNode,
  perDoc: Map<string, MindMapNode>,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable('kb_graph')
      .set({ mind_map: toJson(kbTree), ...updateStamps() })
      .where('kb_id', '=', kbId)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) {
      await trx
        .insertInto('kb_graph')
        .values({
          kb_id: kbId,
          graph: null,
          type_index: toJson({}),
          reports: toJson([]),
          mind_map: toJson(kbTree),
          entity_num: 0,
          relation_num: 0,
          community_num: 0,
          ...creationStamps(),
        })
        .execute();
    }
    for (const [docId, tree] of perDoc) {
      const res = await trx
        .updateTable('kb_graph_doc')
        .set({ mind_map: toJson(tree), ...updateStamps() })
        .where('kb_id', '=', kbId)
        .where('doc_id', '=', docId)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) === 0) {
        // A mind map of a document not (yet) in the graph: digest '' so a graph run still extracts it.
        await trx
          .insertInto('kb_graph_doc')
          .values({
            kb_id: kbId,
            doc_id: docId,
            digest: '',
            chunk_num: 0,
            mind_map: toJson(tree),
            ...creationStamps(),
          })
          .execute();
      }
    }
  });
}

export async function docMindMap(db: Db, docId: string): Promise<MindMapNode | null> {
  const row = await db
    .selectFrom('kb_graph_doc')
    .select('mind_map')
    .where('doc_id', '=', docId)
    .executeTakeFirst();
  return row ? parseJson<MindMapNode | null>(row.mind_map, null) : null;
}

/** Drops the graph (entities, relations, reports) but keeps the mind map. */
export async function clearKbGraph(db: Kysely<Database>, kbId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('kb_graph')
      .set({
        graph: null,
        type_index: toJson({}),
        reports: toJson([]),
        entity_num: 0,
        relation_num: 0,
        community_num: 0,
      })
      .where('kb_id', '=', kbId)
      .execute();
    await trx
      .updateTable('kb_graph_doc')
      .set({ digest: '', chunk_num: 0 })
      .where('kb_id', '=', kbId)
      .execute();
  });
}
