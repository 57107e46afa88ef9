/**
 * Writes a KB graph's searchable records into the chunk index (API.md §19.1, §19.10): one `entity`
 * record per node (embedded by name), one `relation` record per edge (embedded as "from->to:
 * description") and one `community_report` record per report. Record ids are derived from the KB and
 * the record's key, so a re-run overwrites in place; a record whose text to embed did not change keeps
 * its stored vector (a run re-embeds only what changed). Records of entities, relations and reports
 * that are gone are deleted. Works with every chunk-index adapter (it only uses the port).
 */
import crypto from 'node:crypto';
import type { ChunkIndex, ChunkRecord } from '../../chunk-index/chunk-index.js';
import {
  communityReportRecord,
  entityRecord,
  relationRecord,
  type GraphRecordDraft,
} from '../index-records.js';
import type { KbGraph } from '../kb-graph.js';
import type { GraphEmbedder } from '../ports.js';
import type { CommunityReport } from '../reports.js';

export const INDEXED_GRAPH_KINDS = ['entity', 'relation', 'community_report'];
/**
 * `doc_id` of graph records: they stem from many documents (listed in `extra.doc_ids`), and the index
 * needs one; no real document has this id (ids are 32-hex), so deleting a document never takes them.
 */
export const GRAPH_RECORD_DOC_ID = 'knowledge_graph';
const EMBED_BATCH = 16;
const UPSERT_BATCH = 256;

export function graphRecordId(kbId: string, kind: string, key: string): string {
  return crypto.createHash('sha256').update(`${kbId}\u0000${kind}\u0000${key}`).digest('hex').slice(0, 16);
}

export interface GraphKb {
  id: string;
  tenant_id: string;
}

function toChunk(kb: GraphKb, id: string, d: GraphRecordDraft, now: number): ChunkRecord {
  const names =
    d.knowledge_graph_kwd === 'entity'
      ? [d.entity_kwd ?? '']
      : d.knowledge_graph_kwd === 'relation'
        ? [d.from_entity_kwd ?? '', d.to_entity_kwd ?? '']
        : (d.entities_kwd ?? []).slice(0, 32);
  const extra: Record<string, unknown> = { source_id: d.source_id, doc_ids: d.doc_ids };
  if (d.entity_type_kwd !== undefined) extra.entity_type_kwd = d.entity_type_kwd;
  if (d.rank_flt !== undefined) extra.rank_flt = d.rank_flt;
  if (d.weight_int !== undefined) extra.weight_int = d.weight_int;
  if (d.weight_flt !== undefined) extra.weight_flt = d.weight_flt;
  if (d.n_hop_with_weight !== undefined) extra.n_hop_with_weight = d.n_hop_with_weight;
  if (d.entities_kwd !== undefined) extra.entities_kwd = d.entities_kwd;
  // Every record of a vector search needs a vector: reports are embedded by title and summary.
  const embedText =
    d.embedText ??
    (d.knowledge_graph_kwd === 'community_report'
      ? `${d.docnm_kwd ?? ''}\n${d.content}`.slice(0, 2000)
      : undefined);
  if (embedText !== undefined) extra.embed_text = embedText;
  return {
    id,
    doc_id: d.doc_id ?? GRAPH_RECORD_DOC_ID,
    kb_id: kb.id,
    tenant_id: kb.tenant_id,
    docnm_kwd: d.docnm_kwd ?? names.join(' '),
    content_with_weight: d.content_with_weight,
    search_text: `${names.join(' ')}\n${d.content}`,
    important_kwd: names.filter(Boolean),
    question_kwd: [],
    tag_kwd: [],
    tag_feas: {},
    img_id: '',
    positions: [],
    available_int: 1,
    create_time: now,
    doc_type_kwd: null,
    mom_id: null,
    pagerank_fea: 0,
    knowledge_graph_kwd: d.knowledge_graph_kwd,
    entity_kwd: d.entity_kwd ?? null,
    from_entity_kwd: d.from_entity_kwd ?? null,
    to_entity_kwd: d.to_entity_kwd ?? null,
    token_num: 0,
    vector: null,
    extra,
  };
}

/** Ids of the KB's indexed graph records. */
export async function graphRecordIds(index: ChunkIndex, kbId: string): Promise<string[]> {
  const out: string[] = [];
  const page = 5000;
  for (let offset = 0; ; offset += page) {
    const { chunks } = await index.list(
      { kbIds: [kbId], graphKinds: INDEXED_GRAPH_KINDS },
      'newest',
      offset,
      page,
    );
    out.push(...chunks.map((c) => c.id));
    if (chunks.length < page) return out;
  }
}

export interface WriteGraphOptions {
  /** The KB's embedding model, or null for keyword-only records. */
  embedder: GraphEmbedder | null;
  signal?: AbortSignal;
  onProgress?: (done: number, total: number) => Promise<void>;
}

export interface WriteGraphResult {
  written: number;
  embedded: number;
  deleted: number;
}

/** Replaces the KB's graph records by those of `graph` and `reports`. */
export async function writeGraphRecords(
  index: ChunkIndex,
  kb: GraphKb,
  graph: KbGraph,
  reports: readonly CommunityReport[],
  opts: WriteGraphOptions,
): Promise<WriteGraphResult> {
  const now = Date.now();
  const records: ChunkRecord[] = [];
  graph.forEachNode((name) =>
    records.push(toChunk(kb, graphRecordId(kb.id, 'entity', name), entityRecord(graph, name), now)),
  );
  graph.forEachEdge((key) =>
    records.push(toChunk(kb, graphRecordId(kb.id, 'relation', key), relationRecord(graph, key), now)),
  );
  for (const r of reports) {
    const key = `${r.community}:${r.entities.join('\u0000')}`;
    records.push(
      toChunk(kb, graphRecordId(kb.id, 'community_report', key), communityReportRecord(graph, r), now),
    );
  }
  const before = new Set(await graphRecordIds(index, kb.id));
  let embedded = 0;
  // Keep the stored vector when the embedded text is unchanged (or when there is no embedder to
  // re-embed with: a document removal must not need a model call).
  const wanted = records.filter((r) => typeof r.extra?.embed_text === 'string');
  const stored = new Map<string, ChunkRecord>();
  const known = wanted.filter((r) => before.has(r.id)).map((r) => r.id);
  for (let i = 0; i < known.length; i += 1000) {
    for (const c of await index.getMany(known.slice(i, i + 1000))) stored.set(c.id, c);
  }
  const todo: ChunkRecord[] = [];
  for (const r of wanted) {
    const old = stored.get(r.id);
    if (old?.vector && (!opts.embedder || old.extra?.embed_text === r.extra?.embed_text))
      r.vector = old.vector;
    else todo.push(r);
  }
  if (opts.embedder) {
    for (let i = 0; i < todo.length; i += EMBED_BATCH) {
      opts.signal?.throwIfAborted();
      const batch = todo.slice(i, i + EMBED_BATCH);
      const { vectors } = await opts.embedder.embed(
        batch.map((r) => String(r.extra?.embed_text)),
        { signal: opts.signal },
      );
      batch.forEach((r, k) => (r.vector = vectors[k] ?? null));
      embedded += batch.length;
      await opts.onProgress?.(Math.min(i + EMBED_BATCH, todo.length), todo.length);
    }
  }
  for (let i = 0; i < records.length; i += UPSERT_BATCH) {
    await index.upsert(records.slice(i, i + UPSERT_BATCH));
    await new Promise<void>((r) => setImmediate(r));
  }
  const keep = new Set(records.map((r) => r.id));
  const gone = [...before].filter((id) => !keep.has(id));
  let deleted = 0;
  for (let i = 0; i < gone.length; i += 1000)
    deleted += await index.deleteByIds(kb.id, gone.slice(i, i + 1000));
  return { written: records.length, embedded, deleted };
}

/** Deletes every graph record of the KB from the index. */
export async function deleteGraphRecords(index: ChunkIndex, kbId: string): Promise<number> {
  const ids = await graphRecordIds(index, kbId);
  let n = 0;
  for (let i = 0; i < ids.length; i += 1000) n += await index.deleteByIds(kbId, ids.slice(i, i + 1000));
  return n;
}
