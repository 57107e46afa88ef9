/**
 * Writes of the PostgreSQL chunk index. Every write of a chunk touches its row, its vector row and the
 * index totals in one transaction. Row ids follow the SQLite index's rules (search/sqlite-rids.ts): a
 * rewritten chunk keeps its rid while it stays in its KB partition (slot × kind), and takes the next
 * one of its new partition when it moves (availability, graph kind, KB) — so ties order the same.
 * Partition counters are taken before the transaction (autocommit) so that writers of one KB in
 * several processes do not queue on the counter row for a whole batch; unused ids are harmless gaps.
 */
import type pg from 'pg';
import type { ChunkRecord } from './chunk-index.js';
import { kindOf, MAX_SLOT, ridBase, ROW_COLUMNS, rowValues, SEQ_BITS, SLOT_SPAN } from './sqlite-schema.js';
import { TOTAL_SHARDS, vecTableName } from './pg-schema.js';
import type { PgStats } from './pg-stats.js';
import type { StoredText } from './pg-text.js';
import { float4ArrayParam, unitVector } from './pg-vectors.js';
import { addDfOfRids, dfDeltaSql } from './pg-df.js';

/** What runs a statement: a pool client in a transaction, or the caller's transaction. */
export interface Exec {
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(
    text: string,
    values?: unknown[],
  ): Promise<{ rows: R[]; rowCount: number | null }>;
}

export interface WriteEnv {
  pool: pg.Pool;
  stats: PgStats;
  /** KB → slot (created on first write). */
  slots: Map<string, number>;
}

export interface PreparedRow {
  record: ChunkRecord;
  values: unknown[];
  kind: number;
  text: StoredText;
  vector: Float32Array | null;
  vecDim: number;
}

const COLUMN_TYPES: Record<(typeof ROW_COLUMNS)[number], string> = {
  id: 'text',
  kb_id: 'text',
  doc_id: 'text',
  tenant_id: 'text',
  docnm_kwd: 'text',
  content_with_weight: 'text',
  search_text: 'text',
  important_kwd: 'text',
  question_kwd: 'text',
  tag_kwd: 'text',
  tag_feas: 'text',
  tag_norm: 'float8',
  img_id: 'text',
  positions: 'text',
  page0: 'float8',
  top0: 'float8',
  available_int: 'int2',
  create_time: 'int8',
  doc_type_kwd: 'text',
  mom_id: 'text',
  pagerank_fea: 'float8',
  knowledge_graph_kwd: 'text',
  entity_kwd: 'text',
  from_entity_kwd: 'text',
  to_entity_kwd: 'text',
  token_num: 'int8',
  vec_dim: 'int4',
  extra: 'text',
};

const INSERT_COLUMNS: Array<[string, string]> = [
  ['rid', 'int8'],
  ...ROW_COLUMNS.map((c) => [c, COLUMN_TYPES[c]] as [string, string]),
  ['kind', 'int2'],
  ['dl', 'int4'],
  ['tsv', 'text'],
  ['tsv_sm', 'text'],
];
const INSERT_SQL =
  `INSERT INTO lectern_chunk (${INSERT_COLUMNS.map(([c]) => c).join(', ')}) SELECT ` +
  INSERT_COLUMNS.map(([c]) => (c === 'tsv' || c === 'tsv_sm' ? `u.${c}::tsvector` : `u.${c}`)).join(', ') +
  ` FROM unnest(${INSERT_COLUMNS.map(([, t], i) => `$${i + 1}::${t}[]`).join(', ')}) AS u(${INSERT_COLUMNS.map(([c]) => c).join(', ')})`;

/** PostgreSQL text cannot hold NUL characters (SQLite can): they are dropped. */
function pgText(v: unknown): unknown {
  return typeof v === 'string' && v.includes('\u0000') ? v.replaceAll('\u0000', '') : v;
}

/** A record ready to write, its full text computed (pg-text.ts `storedText`, maybe on a worker thread). */
export function prepareRow(record: ChunkRecord, text: StoredText): PreparedRow {
  const vecDim = record.vector ? record.vector.length : 0;
  return {
    record,
    values: rowValues(record, vecDim).map(pgText),
    kind: kindOf(record),
    text,
    vector: record.vector && vecDim > 0 ? unitVector(record.vector) : null,
    vecDim,
  };
}

export const slotOfRid = (rid: number) => Math.floor(rid / SLOT_SPAN);
export const kindOfRid = (rid: number) => Math.floor((rid % SLOT_SPAN) / SEQ_BITS);

/** Runs `fn` in a transaction, again (up to 3 times) after a deadlock or a concurrent insert of the same id. */
export async function inTransaction<T>(pool: pg.Pool, fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const out = await fn(client);
      await client.query('COMMIT');
      return out;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      const code = (err as { code?: string }).code;
      if (attempt < 3 && (code === '40P01' || code === '40001' || code === '23505')) continue;
      throw err;
    } finally {
      client.release();
    }
  }
}

/** The slots of the KBs (created in first-write order, as the SQLite index numbers them). */
export async function ensureSlots(exec: Exec, slots: Map<string, number>, kbIds: string[]): Promise<void> {
  const missing = [...new Set(kbIds)].filter((k) => !slots.has(k));
  for (const kb of missing) {
    await exec.query(
      "INSERT INTO lectern_chunk_kb(kb_id, slot) VALUES ($1, nextval('lectern_chunk_kb_slot')) ON CONFLICT (kb_id) DO NOTHING",
      [kb],
    );
    const res = await exec.query<{ slot: number }>('SELECT slot FROM lectern_chunk_kb WHERE kb_id = $1', [
      kb,
    ]);
    const slot = Number(res.rows[0].slot);
    if (slot > MAX_SLOT) throw new Error('chunk index: no free knowledge-base slot');
    slots.set(kb, slot);
  }
}

/** Takes `n` new ids in each partition: partition key `slot·4 + kind` → ids in order. */
export async function allocate(exec: Exec, needs: Map<number, number>): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>();
  if (needs.size === 0) return out;
  const keys = [...needs.keys()];
  const res = await exec.query<{ slot: number; kind: number; next_seq: string | number }>(
    'INSERT INTO lectern_chunk_seq AS s (slot, kind, next_seq) SELECT * FROM unnest($1::int[], $2::int2[], $3::int8[]) ' +
      'ON CONFLICT (slot, kind) DO UPDATE SET next_seq = s.next_seq + EXCLUDED.next_seq RETURNING slot, kind, next_seq',
    [keys.map((k) => Math.floor(k / 4)), keys.map((k) => k % 4), keys.map((k) => needs.get(k)!)],
  );
  for (const r of res.rows) {
    const key = Number(r.slot) * 4 + Number(r.kind);
    const n = needs.get(key)!;
    const end = Number(r.next_seq);
    if (end > SEQ_BITS) throw new Error('chunk index: knowledge base partition is full');
    const base = ridBase(Number(r.slot), Number(r.kind));
    out.set(
      key,
      Array.from({ length: n }, (_, i) => base + end - n + i),
    );
  }
  return out;
}

interface Existing {
  id: string;
  rid: number;
  vec_dim: number;
  dl: number;
}

type Decision = { keep: number } | { take: number } | { same: number };

/**
 * Which id each record gets, in order (SQLite's sequential rule): the id it has when it stays in its
 * partition (an existing row's, or an earlier copy's in this batch), else a new one of its partition
 * (key `slot·4 + kind`). `needs` counts the new ids per partition.
 */
function plan(rows: PreparedRow[], existing: Map<string, number>, slots: Map<string, number>) {
  const current = new Map<string, { key: number; at: Decision }>();
  for (const [id, rid] of existing)
    current.set(id, { key: slotOfRid(rid) * 4 + kindOfRid(rid), at: { keep: rid } });
  const decisions: Decision[] = [];
  const needs = new Map<number, number>();
  rows.forEach((row, i) => {
    const key = slots.get(row.record.kb_id)! * 4 + row.kind;
    const cur = current.get(row.record.id);
    let d: Decision;
    if (cur && cur.key === key) d = cur.at;
    else {
      d = { take: key };
      needs.set(key, (needs.get(key) ?? 0) + 1);
    }
    decisions.push(d);
    if (!cur || cur.key !== key) current.set(row.record.id, { key, at: { same: i } });
  });
  return { decisions, needs };
}

/** Deletes the vector rows of deleted chunk rows (a row with vec_dim > 0 had its table created first). */
export async function deleteVectors(
  exec: Exec,
  rows: Array<{ rid: number; vec_dim: number }>,
): Promise<void> {
  const byDim = new Map<number, number[]>();
  // Pushed, not spread: copying the list per row made deleting a 123k-chunk KB run for minutes.
  for (const r of rows) {
    if (r.vec_dim <= 0) continue;
    const rids = byDim.get(r.vec_dim);
    if (rids) rids.push(r.rid);
    else byDim.set(r.vec_dim, [r.rid]);
  }
  for (const [dim, rids] of byDim)
    await exec.query(`DELETE FROM ${vecTableName(dim)} WHERE rid = ANY($1::int8[])`, [rids]);
}

/** Deletes rows by rid with their vector rows. */
async function deleteRows(exec: Exec, rows: Existing[]): Promise<void> {
  if (rows.length === 0) return;
  await exec.query(
    `WITH d AS (DELETE FROM lectern_chunk WHERE rid = ANY($1::int8[]) RETURNING tsv, tsv_sm) ${dfDeltaSql('d', -1)}`,
    [rows.map((r) => r.rid)],
  );
  await deleteVectors(exec, rows);
}

export async function addTotals(exec: Exec, rows: number, tokens: number): Promise<void> {
  if (rows === 0 && tokens === 0) return;
  await exec.query(
    'UPDATE lectern_chunk_totals SET rows = rows + $1, tokens = tokens + $2 WHERE shard = $3',
    [rows, tokens, Math.floor(Math.random() * TOTAL_SHARDS)],
  );
}

/** Pre-allocated ids of an upsert (taken before its transaction). */
export async function preallocate(env: WriteEnv, rows: PreparedRow[]): Promise<Map<number, number[]>> {
  const res = await env.pool.query<{ id: string; rid: number }>(
    'SELECT id, rid FROM lectern_chunk WHERE id = ANY($1::text[])',
    [[...new Set(rows.map((r) => r.record.id))]],
  );
  const { needs } = plan(rows, new Map(res.rows.map((r) => [r.id, Number(r.rid)])), env.slots);
  return allocate(env.pool, needs);
}

/** Writes prepared rows in the caller's transaction (slots and vector tables must exist). */
export async function writeRows(
  exec: Exec,
  env: WriteEnv,
  rows: PreparedRow[],
  reserved: Map<number, number[]> = new Map(),
): Promise<void> {
  const found = await exec.query<Existing>(
    'SELECT id, rid, vec_dim, dl FROM lectern_chunk WHERE id = ANY($1::text[]) ORDER BY id FOR UPDATE',
    [[...new Set(rows.map((r) => r.record.id))]],
  );
  const existing = found.rows.map((r) => ({
    ...r,
    rid: Number(r.rid),
    vec_dim: Number(r.vec_dim),
    dl: Number(r.dl),
  }));
  const { decisions, needs } = plan(rows, new Map(existing.map((e) => [e.id, e.rid])), env.slots);
  // Ids reserved before the transaction first, the shortfall (a concurrent change) taken now.
  const shortfall = new Map<number, number>();
  for (const [key, n] of needs) {
    const have = reserved.get(key)?.length ?? 0;
    if (have < n) shortfall.set(key, n - have);
  }
  const extra = await allocate(exec, shortfall);
  const pools = new Map<number, number[]>();
  for (const key of needs.keys()) pools.set(key, [...(reserved.get(key) ?? []), ...(extra.get(key) ?? [])]);
  const assigned: number[] = [];
  const finalById = new Map<string, { row: PreparedRow; rid: number }>();
  rows.forEach((row, i) => {
    const d = decisions[i];
    const rid = 'keep' in d ? d.keep : 'take' in d ? pools.get(d.take)!.shift()! : assigned[d.same];
    assigned.push(rid);
    finalById.set(row.record.id, { row, rid });
  });
  await deleteRows(exec, existing);
  const finals = [...finalById.values()];
  const columns: unknown[][] = INSERT_COLUMNS.map(() => []);
  for (const { row, rid } of finals) {
    const vals = [rid, ...row.values, row.kind, row.text.dl, row.text.tsv, row.text.tsvSm];
    vals.forEach((v, i) => columns[i].push(v));
  }
  await exec.query(INSERT_SQL, columns);
  await addDfOfRids(
    exec,
    finals.map((f) => f.rid),
    1,
  );
  const byDim = new Map<number, { rids: number[]; vectors: Float32Array[] }>();
  for (const { row, rid } of finals) {
    if (!row.vector) continue;
    const g = byDim.get(row.vecDim) ?? { rids: [], vectors: [] };
    g.rids.push(rid);
    g.vectors.push(row.vector);
    byDim.set(row.vecDim, g);
  }
  for (const [dim, g] of byDim) {
    await exec.query(
      `INSERT INTO ${vecTableName(dim)} (rid, embedding) SELECT u.rid, (v.a[(u.i - 1) * ${dim} + 1 : u.i * ${dim}])::vector ` +
        'FROM unnest($1::int8[]) WITH ORDINALITY AS u(rid, i), (SELECT $2::real[] AS a) v',
      [g.rids, float4ArrayParam(g.vectors)],
    );
  }
  const tokens = finals.reduce((s, f) => s + f.row.text.dl, 0) - existing.reduce((s, e) => s + e.dl, 0);
  await addTotals(exec, finals.length - existing.length, tokens);
}
