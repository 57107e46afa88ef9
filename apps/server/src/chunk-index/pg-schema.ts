/**
 * Storage layout of the PostgreSQL chunk index (tables in the metadata database, prefix `lectern_chunk`):
 * - `lectern_chunk`: every record field as the SQLite index stores it (JSON as text, so a record reads
 *   back byte for byte the same), the same partitioned row id `rid` (slot·2³⁰ + kind·2²⁸ + seq, see
 *   search/sqlite-schema.ts: ties in every order break the same way in both engines), and the full text:
 *   - `tsv`: the coarse token fields, each term at its FTS5 position, fields apart by FIELD_GAP positions
 *     so no phrase or proximity crosses a field, the field's weight as the label (pg-text.ts);
 *   - `tsv_sm`: the fine-grained fields (CJK sub-words), likewise;
 *   - `dl`: the row's length as FTS5 counts it (every term of every column, plus the document term).
 *   Both tsvectors have a GIN index: a clause's candidates come from the index, its term frequency from
 *   `ts_rank_cd` over the labels, and BM25 is computed in SQL from those (pg-search.ts).
 * - `lectern_chunk_vec_<dim>`: unit-normalized pgvector vectors per embedding dimension, keyed by rid.
 * - `lectern_chunk_kb` / `lectern_chunk_seq`: KB slots (first-write order) and per-partition row counters.
 * - `lectern_chunk_df`: rows holding each term, as deltas per write (pg-df.ts).
 * - `lectern_chunk_totals`: rows and FTS5 tokens of the whole index (BM25's N and average length), split
 *   over shards so that concurrent writers do not queue on one row.
 */
import type pg from 'pg';
import { backfillDf, DF_TABLE_SQL } from './pg-df.js';

/** 2: `lectern_chunk_df` (filled from the rows when an index of version 1 is opened). */
export const SCHEMA_VERSION = '2';
export const TOTAL_SHARDS = 16;
/** pgvector stores at most 16,000 dimensions. */
export const MAX_VECTOR_DIM = 16_000;

/** Lock key of schema changes (any process may be the first to open the index). */
const SCHEMA_LOCK = 0x4c43_4958; // "LCIX"

export const SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS lectern_chunk_meta (key text PRIMARY KEY, value text NOT NULL);
CREATE TABLE IF NOT EXISTS lectern_chunk_kb (kb_id text PRIMARY KEY, slot integer NOT NULL UNIQUE);
CREATE SEQUENCE IF NOT EXISTS lectern_chunk_kb_slot;
CREATE TABLE IF NOT EXISTS lectern_chunk_seq (
  slot integer NOT NULL,
  kind smallint NOT NULL,
  next_seq bigint NOT NULL,
  PRIMARY KEY (slot, kind)
);
CREATE TABLE IF NOT EXISTS lectern_chunk_totals (
  shard smallint PRIMARY KEY,
  rows bigint NOT NULL DEFAULT 0,
  tokens bigint NOT NULL DEFAULT 0
);
INSERT INTO lectern_chunk_totals(shard) SELECT generate_series(0, ${TOTAL_SHARDS - 1}) ON CONFLICT DO NOTHING;
CREATE TABLE IF NOT EXISTS lectern_chunk (
  rid bigint PRIMARY KEY,
  id text NOT NULL UNIQUE,
  kb_id text NOT NULL,
  doc_id text NOT NULL,
  tenant_id text NOT NULL,
  kind smallint NOT NULL,
  docnm_kwd text NOT NULL DEFAULT '',
  content_with_weight text NOT NULL DEFAULT '',
  search_text text,
  important_kwd text NOT NULL DEFAULT '[]',
  question_kwd text NOT NULL DEFAULT '[]',
  tag_kwd text NOT NULL DEFAULT '[]',
  tag_feas text NOT NULL DEFAULT '{}',
  tag_norm double precision NOT NULL DEFAULT 0,
  img_id text NOT NULL DEFAULT '',
  positions text NOT NULL DEFAULT '[]',
  page0 double precision NOT NULL DEFAULT 0,
  top0 double precision NOT NULL DEFAULT 0,
  available_int smallint NOT NULL DEFAULT 1,
  create_time bigint NOT NULL,
  doc_type_kwd text,
  mom_id text,
  pagerank_fea double precision NOT NULL DEFAULT 0,
  knowledge_graph_kwd text,
  entity_kwd text,
  from_entity_kwd text,
  to_entity_kwd text,
  token_num bigint NOT NULL DEFAULT 0,
  vec_dim integer NOT NULL DEFAULT 0,
  extra text,
  dl integer NOT NULL,
  tsv tsvector NOT NULL,
  tsv_sm tsvector
) WITH (toast_tuple_target = 8160);
CREATE INDEX IF NOT EXISTS lectern_chunk_doc_pos ON lectern_chunk (doc_id, page0, top0, create_time DESC);
CREATE INDEX IF NOT EXISTS lectern_chunk_kb_kind ON lectern_chunk (kb_id, kind);
CREATE INDEX IF NOT EXISTS lectern_chunk_ranked ON lectern_chunk (kb_id) WHERE pagerank_fea <> 0;
CREATE INDEX IF NOT EXISTS lectern_chunk_tsv ON lectern_chunk USING gin (tsv);
CREATE INDEX IF NOT EXISTS lectern_chunk_tsv_sm ON lectern_chunk USING gin (tsv_sm);
`;

/** Raised when the pgvector extension is missing: the message says how to install it. */
export class PgvectorMissingError extends Error {
  constructor(database: string, detail: string) {
    super(
      `The PostgreSQL chunk index needs the pgvector extension, which database "${database}" cannot load (${detail}). ` +
        'Install it on the PostgreSQL server, then start again: the distribution package ' +
        '(Debian/Ubuntu: apt-get install postgresql-<major>-pgvector; RHEL: dnf install pgvector_<major>), ' +
        'or run PostgreSQL from the pgvector container image (pgvector/pgvector:pg<major>); on the ' +
        'development machine ../shared/scripts/install-pgvector. Lectern runs CREATE EXTENSION vector itself ' +
        'when its user may; otherwise a superuser runs it once in this database. ' +
        'To keep the embedded index instead, set CHUNK_INDEX=sqlite.',
    );
    this.name = 'PgvectorMissingError';
  }
}

/** Creates the extension (when needed) and the tables, once per database, under an advisory lock. */
export async function ensureSchema(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [SCHEMA_LOCK]);
    const installed = await client.query("SELECT 1 FROM pg_extension WHERE extname = 'vector'");
    if (installed.rowCount === 0) {
      const database = String((await client.query('SELECT current_database() AS d')).rows[0].d);
      const available = await client.query("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'");
      if (available.rowCount === 0)
        throw new PgvectorMissingError(database, 'it is not installed on the server');
      try {
        await client.query('CREATE EXTENSION IF NOT EXISTS vector');
      } catch (err) {
        throw new PgvectorMissingError(
          database,
          `CREATE EXTENSION vector failed: ${err instanceof Error ? err.message : String(err)}`,
        );
      }
    }
    const missing = (
      await client.query(
        "SELECT to_regclass('lectern_chunk') IS NULL AS fresh, to_regclass('lectern_chunk_df') IS NULL AS no_df",
      )
    ).rows[0];
    const fresh = missing.fresh;
    // Every statement is IF NOT EXISTS: opening an existing index changes nothing.
    await client.query(SCHEMA_SQL);
    await client.query(DF_TABLE_SQL);
    if (!fresh && missing.no_df) await backfillDf(client);
    // The tsvectors stay in the row (they are ~2 KB, which PostgreSQL would otherwise move to the TOAST
    // table): every clause reads them, and a TOAST fetch per row made BM25 scoring 4.5× slower.
    if (fresh)
      await client.query(
        'ALTER TABLE lectern_chunk ALTER COLUMN tsv SET STORAGE MAIN, ALTER COLUMN tsv_sm SET STORAGE MAIN',
      );
    await client.query(
      "INSERT INTO lectern_chunk_meta(key, value) VALUES ('schema_version', $1) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
      [SCHEMA_VERSION],
    );
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

export function vecTableName(dim: number): string {
  if (!Number.isInteger(dim) || dim <= 0 || dim > 65536) throw new Error(`invalid vector dimension ${dim}`);
  return `lectern_chunk_vec_${dim}`;
}

/** Creates the vector table of a dimension (outside any write transaction: DDL races otherwise). */
export async function ensureVecTable(pool: pg.Pool, dim: number): Promise<void> {
  const table = vecTableName(dim);
  if (dim > MAX_VECTOR_DIM)
    throw new Error(`pgvector stores at most ${MAX_VECTOR_DIM} dimensions, not ${dim}`);
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [SCHEMA_LOCK]);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${table} (rid bigint PRIMARY KEY, embedding vector(${dim}) NOT NULL)`,
    );
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

/** Dimensions that have a vector table. */
export async function existingVecDims(pool: pg.Pool): Promise<number[]> {
  const res = await pool.query<{ relname: string }>(
    "SELECT relname FROM pg_class WHERE relkind = 'r' AND relname ~ '^lectern_chunk_vec_[0-9]+$' AND relnamespace = current_schema()::regnamespace",
  );
  return res.rows.map((r) => Number(r.relname.slice('lectern_chunk_vec_'.length))).sort((a, b) => a - b);
}

/** Columns read back into a ChunkRecord (search/sqlite-schema.ts `ChunkRow`). */
export const RECORD_COLUMNS =
  'rid, id, kb_id, doc_id, tenant_id, docnm_kwd, content_with_weight, search_text, important_kwd, question_kwd, ' +
  'tag_kwd, tag_feas, tag_norm, img_id, positions, page0, top0, available_int, create_time, doc_type_kwd, mom_id, ' +
  'pagerank_fea, knowledge_graph_kwd, entity_kwd, from_entity_kwd, to_entity_kwd, token_num, vec_dim, extra';
