/**
 * Storage layout of the SQLite chunk index (`<dataDir>/index.sqlite`, WAL):
 * - `chunk`: every record field (JSON text for arrays/maps/positions/extra), sort keys `page0`/`top0`
 *   for the position order. Its integer key `rid` is shared with the FTS row and the vector row and
 *   encodes the partition: rid = slot·2³⁰ + kind·2²⁸ + seq, where `slot` numbers the KB (`kb_slot`)
 *   and `kind` is 0 graph record disabled, 1 chunk disabled, 2 chunk enabled, 3 graph record enabled.
 *   Every filter of a read (KB, availability, graph records) is therefore one rowid range per KB,
 *   which FTS5 applies while walking its posting lists, before any scoring.
 * - `chunk_fts`: contentless FTS5 (deletable) over the weighted token fields, plus `flt` holding the
 *   document token `d<doc>` for document filters;
 * - `vec_<dim>`: one table per embedding dimension, unit-normalized float32 blobs, scored with
 *   sqlite-vec's distance functions (see sqlite-search.ts for why these are plain tables, not vec0).
 * rids stay below 2⁵³ (23 slot bits), so they are exact JavaScript numbers.
 */
import type { ChunkFilter, ChunkRecord, Position } from './chunk-index.js';
import type { TokenFields } from './fields.js';

export const SCHEMA_VERSION = 1;

export const SEQ_BITS = 2 ** 28;
export const SLOT_SPAN = 2 ** 30;
export const MAX_SLOT = 2 ** 23 - 1;

/** Partition kind of a record (see the layout above). */
export function kindOf(r: { available_int: number; knowledge_graph_kwd?: string | null }): number {
  const enabled = r.available_int ? 1 : 0;
  if (r.knowledge_graph_kwd) return enabled ? 3 : 0;
  return enabled ? 2 : 1;
}

/** Kinds a filter reads: a contiguous range [lo, hi]. */
export function kindRange(
  available: 0 | 1 | undefined,
  includeGraph: boolean | undefined,
  graphOnly = false,
): [number, number] {
  // Graph-only reads are of enabled graph records (disabled ones are never searched).
  if (graphOnly) return [3, 3];
  if (available === 1) return includeGraph ? [2, 3] : [2, 2];
  if (available === 0) return includeGraph ? [0, 1] : [1, 1];
  return includeGraph ? [0, 3] : [1, 2];
}

export function ridBase(slot: number, kind: number): number {
  return slot * SLOT_SPAN + kind * SEQ_BITS;
}

/** Inclusive rid range of a slot for a kind range. */
export function ridRange(slot: number, [lo, hi]: [number, number]): [number, number] {
  return [ridBase(slot, lo), ridBase(slot, hi) + SEQ_BITS - 1];
}

export const TEXT_COLUMNS = [
  'title_tks',
  'title_sm_tks',
  'important_kwd',
  'important_tks',
  'question_tks',
  'content_ltks',
  'content_sm_ltks',
] as const;

export const SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS kb_slot (kb_id TEXT PRIMARY KEY, slot INTEGER NOT NULL UNIQUE);
CREATE TABLE IF NOT EXISTS chunk (
  rid INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  kb_id TEXT NOT NULL,
  doc_id TEXT NOT NULL,
  tenant_id TEXT NOT NULL,
  docnm_kwd TEXT NOT NULL DEFAULT '',
  content_with_weight TEXT NOT NULL DEFAULT '',
  search_text TEXT,
  important_kwd TEXT NOT NULL DEFAULT '[]',
  question_kwd TEXT NOT NULL DEFAULT '[]',
  tag_kwd TEXT NOT NULL DEFAULT '[]',
  tag_feas TEXT NOT NULL DEFAULT '{}',
  tag_norm REAL NOT NULL DEFAULT 0,
  img_id TEXT NOT NULL DEFAULT '',
  positions TEXT NOT NULL DEFAULT '[]',
  page0 INTEGER NOT NULL DEFAULT 0,
  top0 REAL NOT NULL DEFAULT 0,
  available_int INTEGER NOT NULL DEFAULT 1,
  create_time INTEGER NOT NULL,
  doc_type_kwd TEXT,
  mom_id TEXT,
  pagerank_fea REAL NOT NULL DEFAULT 0,
  knowledge_graph_kwd TEXT,
  entity_kwd TEXT,
  from_entity_kwd TEXT,
  to_entity_kwd TEXT,
  token_num INTEGER NOT NULL DEFAULT 0,
  vec_dim INTEGER NOT NULL DEFAULT 0,
  extra TEXT
);
CREATE INDEX IF NOT EXISTS chunk_doc_pos ON chunk(doc_id, page0, top0, create_time DESC);
CREATE INDEX IF NOT EXISTS chunk_kb_rank ON chunk(kb_id, pagerank_fea);
CREATE VIRTUAL TABLE IF NOT EXISTS chunk_fts USING fts5(
  flt, ${TEXT_COLUMNS.join(', ')},
  content='', contentless_delete=1,
  tokenize="unicode61 remove_diacritics 0 tokenchars '._'"
);
`;

/** An id as one FTS token: [a-z0-9] kept, anything else as `_<hex>_` (injective). */
export function idToken(prefix: string, id: string): string {
  return prefix + id.replace(/[^a-z0-9]/g, (c) => `_${c.codePointAt(0)!.toString(16)}_`);
}

/** The FTS text of each TEXT_COLUMNS field (tokens joined by spaces). */
export function columnTexts(f: TokenFields): string[] {
  return TEXT_COLUMNS.map((c) => f[c].join(' '));
}

/** Values of an FTS row after its rowid: the document token, then `columnTexts`. */
export function ftsValues(r: ChunkRecord, texts: string[]): string[] {
  return [idToken('d', r.doc_id), ...texts];
}

/** Row shape of `chunk` as better-sqlite3 returns it. */
export interface ChunkRow {
  rid: number;
  id: string;
  kb_id: string;
  doc_id: string;
  tenant_id: string;
  docnm_kwd: string;
  content_with_weight: string;
  search_text: string | null;
  important_kwd: string;
  question_kwd: string;
  tag_kwd: string;
  tag_feas: string;
  tag_norm: number;
  img_id: string;
  positions: string;
  page0: number;
  top0: number;
  available_int: number;
  create_time: number;
  doc_type_kwd: string | null;
  mom_id: string | null;
  pagerank_fea: number;
  knowledge_graph_kwd: string | null;
  entity_kwd: string | null;
  from_entity_kwd: string | null;
  to_entity_kwd: string | null;
  token_num: number;
  vec_dim: number;
  extra: string | null;
}

export const ROW_COLUMNS = [
  'id',
  'kb_id',
  'doc_id',
  'tenant_id',
  'docnm_kwd',
  'content_with_weight',
  'search_text',
  'important_kwd',
  'question_kwd',
  'tag_kwd',
  'tag_feas',
  'tag_norm',
  'img_id',
  'positions',
  'page0',
  'top0',
  'available_int',
  'create_time',
  'doc_type_kwd',
  'mom_id',
  'pagerank_fea',
  'knowledge_graph_kwd',
  'entity_kwd',
  'from_entity_kwd',
  'to_entity_kwd',
  'token_num',
  'vec_dim',
  'extra',
] as const;

function parse<T>(text: string | null, fallback: T): T {
  if (text === null || text === '') return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

export function tagNorm(tagFeas: Record<string, number>): number {
  let s = 0;
  for (const v of Object.values(tagFeas)) if (Number.isFinite(v)) s += v * v;
  return Math.sqrt(s);
}

/** Column values of a record, in ROW_COLUMNS order. */
export function rowValues(r: ChunkRecord, vecDim: number): unknown[] {
  const positions = (r.positions ?? []) as Position[];
  const first = positions[0];
  const tagFeas = r.tag_feas ?? {};
  return [
    r.id,
    r.kb_id,
    r.doc_id,
    r.tenant_id,
    r.docnm_kwd ?? '',
    r.content_with_weight ?? '',
    r.search_text ?? null,
    JSON.stringify(r.important_kwd ?? []),
    JSON.stringify(r.question_kwd ?? []),
    JSON.stringify(r.tag_kwd ?? []),
    JSON.stringify(tagFeas),
    tagNorm(tagFeas),
    r.img_id ?? '',
    JSON.stringify(positions),
    first ? Math.trunc(first[0]) : 0,
    first ? first[3] : 0,
    r.available_int ? 1 : 0,
    Math.trunc(r.create_time ?? Date.now()),
    r.doc_type_kwd ?? null,
    r.mom_id ?? null,
    r.pagerank_fea ?? 0,
    r.knowledge_graph_kwd ?? null,
    r.entity_kwd ?? null,
    r.from_entity_kwd ?? null,
    r.to_entity_kwd ?? null,
    Math.trunc(r.token_num ?? 0),
    vecDim,
    r.extra && Object.keys(r.extra).length > 0 ? JSON.stringify(r.extra) : null,
  ];
}

export function rowToRecord(row: ChunkRow, vector: number[] | null = null): ChunkRecord {
  const rec: ChunkRecord = {
    id: row.id,
    doc_id: row.doc_id,
    kb_id: row.kb_id,
    tenant_id: row.tenant_id,
    docnm_kwd: row.docnm_kwd,
    content_with_weight: row.content_with_weight,
    important_kwd: parse<string[]>(row.important_kwd, []),
    question_kwd: parse<string[]>(row.question_kwd, []),
    tag_kwd: parse<string[]>(row.tag_kwd, []),
    tag_feas: parse<Record<string, number>>(row.tag_feas, {}),
    img_id: row.img_id,
    positions: parse<Position[]>(row.positions, []),
    available_int: row.available_int,
    create_time: row.create_time,
    doc_type_kwd: row.doc_type_kwd,
    mom_id: row.mom_id,
    pagerank_fea: row.pagerank_fea,
    token_num: row.token_num,
    vector,
  };
  if (row.search_text !== null) rec.search_text = row.search_text;
  if (row.knowledge_graph_kwd !== null) rec.knowledge_graph_kwd = row.knowledge_graph_kwd;
  if (row.entity_kwd !== null) rec.entity_kwd = row.entity_kwd;
  if (row.from_entity_kwd !== null) rec.from_entity_kwd = row.from_entity_kwd;
  if (row.to_entity_kwd !== null) rec.to_entity_kwd = row.to_entity_kwd;
  if (row.extra !== null) rec.extra = parse<Record<string, unknown>>(row.extra, {});
  return rec;
}

/** Unit-normalized float32 blob of a vector (cosine only needs the direction). */
export function vectorBlob(v: number[]): Buffer {
  let n = 0;
  for (const x of v) {
    if (!Number.isFinite(x)) throw new Error('vector contains a non-finite number');
    n += x * x;
  }
  const norm = Math.sqrt(n) || 1;
  const f = new Float32Array(v.length);
  for (let i = 0; i < v.length; i++) f[i] = v[i] / norm;
  return Buffer.from(f.buffer, f.byteOffset, f.byteLength);
}

export function blobVector(b: Buffer): number[] {
  const copy = new Uint8Array(b.byteLength);
  copy.set(b);
  return Array.from(new Float32Array(copy.buffer));
}

/** WHERE clause (on `chunk`) of a listing filter. */
export function filterWhere(f: ChunkFilter): { sql: string; params: unknown[] } {
  const clauses = ['kb_id IN (SELECT value FROM json_each(?))'];
  const params: unknown[] = [JSON.stringify(f.kbIds)];
  if (f.docIds && f.docIds.length > 0) {
    clauses.push('doc_id IN (SELECT value FROM json_each(?))');
    params.push(JSON.stringify(f.docIds));
  }
  if (f.available === 0 || f.available === 1) {
    clauses.push('available_int = ?');
    params.push(f.available);
  }
  if (f.graphKinds) {
    clauses.push('knowledge_graph_kwd IN (SELECT value FROM json_each(?))');
    params.push(JSON.stringify(f.graphKinds));
  } else if (!f.includeGraph) clauses.push('knowledge_graph_kwd IS NULL');
  if (!f.withChildren) clauses.push('mom_id IS NULL');
  return { sql: clauses.join(' AND '), params };
}
