/**
 * PostgreSQL adapter of the ChunkIndex port (search/chunk-index.ts): the same records, filters, scores
 * and orders as the SQLite adapter (search/sqlite-index.ts), on tables in the metadata database, so that
 * every API process and worker of a deployment shares one index. Layout in pg-schema.ts, full text in
 * pg-text.ts, the query in pg-search.ts, writes in pg-write.ts; chunk-index.contract.test.ts runs the
 * same inputs through both adapters and compares the results.
 */
import pg from 'pg';
import type {
  ChunkFilter,
  ChunkIndex,
  ChunkPatch,
  ChunkRecord,
  DocStats,
  ListOrder,
  SearchRequest,
  SearchResult,
  TermStats,
} from './chunk-index.js';
import { fieldSource } from './fields.js';
import { rowToRecord, type ChunkRow } from './sqlite-schema.js';
import type { StoredTextThread } from './pg-text-pool.js';
import { storedTextOf, type StoredText } from './pg-text.js';
import { ftsTerms } from './fts-terms.js';
import { ensureSchema, ensureVecTable, existingVecDims, RECORD_COLUMNS, vecTableName } from './pg-schema.js';
import { setAvailableWhere } from './pg-availability.js';
import { compactDf, dfDeltaSql } from './pg-df.js';
import { executePgSearch } from './pg-search.js';
import { PgStats } from './pg-stats.js';
import { parseVector } from './pg-vectors.js';
import { PgTags } from './pg-tags.js';
import {
  addTotals,
  deleteVectors,
  ensureSlots,
  inTransaction,
  preallocate,
  prepareRow,
  writeRows,
  type Exec,
  type PreparedRow,
  type WriteEnv,
} from './pg-write.js';

/** Reading order of a document's chunks (the SQLite index's `chunk_doc_pos` index). */
const POSITION_ORDER = 'page0, top0, create_time DESC, rid';
/** Fewer records than this are tokenized inline (as the SQLite index decides). */
const OFFLOAD_MIN_RECORDS = 16;
/** How often a search may look for a vector table another process created. */
const VEC_REFRESH_MS = 2_000;
/**
 * Rows written before this process refreshes the planner's statistics (and at least a tenth of the
 * table): right after a bulk load, stale statistics make PostgreSQL walk a KB row by row instead of
 * reading the GIN index (3 s instead of 30 ms at 20k chunks); autovacuum gets there too, but late.
 */
const ANALYZE_AFTER_ROWS = 5_000;
/**
 * Sessions of the index: no JIT (it compiles for "expensive" plans and adds 50–200 ms to a query that
 * takes 20), no parallel workers (a search is a few small index scans; workers cost more than they
 * save), and no sequential scans where an index serves: every statement of the index has one, and a
 * word in half the rows made the planner read the whole table and test each row's tsvector (7× slower
 * than counting the GIN index's postings).
 */
const SESSION_OPTIONS = '-c jit=off -c max_parallel_workers_per_gather=0 -c enable_seqscan=off';

function checkRecord(r: ChunkRecord): void {
  if (!r || typeof r.id !== 'string' || !r.id) throw new Error('chunk record without id');
  if (typeof r.kb_id !== 'string' || !r.kb_id) throw new Error(`chunk ${r.id} has no kb_id`);
  if (typeof r.doc_id !== 'string' || !r.doc_id) throw new Error(`chunk ${r.id} has no doc_id`);
  if (r.vector && r.vector.length === 0) throw new Error(`chunk ${r.id} has an empty vector`);
}

/** int8 as numbers: row ids and counts stay below 2⁵³. */
const TYPES = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === 20
      ? (v: string) => Number(v)
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

export interface PgIndexOptions {
  /** Connections of the index's own pool. */
  maxConnections?: number;
}

export class PgChunkIndex implements ChunkIndex {
  readonly type = 'postgres-tsvector+pgvector';
  private readonly stats: PgStats;
  private readonly slots = new Map<string, number>();
  private readonly vecDims = new Set<number>();
  private vecRefreshedAt = 0;
  private readonly tags: PgTags;
  private writtenSinceAnalyze = 0;
  private rowsAtAnalyze = 0;
  private analyzing: Promise<void> | null = null;

  private constructor(
    readonly pool: pg.Pool,
    private readonly textThread: StoredTextThread | null,
  ) {
    this.stats = new PgStats(pool);
    this.tags = new PgTags(pool);
  }

  /** Opens (creating when needed) the index in the database at `url`; fails when pgvector is missing. */
  static async open(
    url: string,
    textThread: StoredTextThread | null = null,
    opts: PgIndexOptions = {},
  ): Promise<PgChunkIndex> {
    const pool = new pg.Pool({
      connectionString: url,
      max: opts.maxConnections ?? 8,
      types: TYPES,
      options: SESSION_OPTIONS,
    });
    // An idle connection the server ends is an 'error' event; without a listener Node would exit.
    pool.on('error', (err) =>
      console.warn(`chunk index: PostgreSQL closed an idle connection: ${err.message}`),
    );
    try {
      await ensureSchema(pool);
      const index = new PgChunkIndex(pool, textThread);
      for (const d of await existingVecDims(pool)) index.vecDims.add(d);
      return index;
    } catch (err) {
      await pool.end().catch(() => undefined);
      throw err;
    }
  }

  private get env(): WriteEnv {
    return { pool: this.pool, stats: this.stats, slots: this.slots };
  }

  private async ensureVecDims(dims: number[]): Promise<void> {
    for (const d of new Set(dims)) {
      if (d <= 0 || this.vecDims.has(d)) continue;
      await ensureVecTable(this.pool, d);
      this.vecDims.add(d);
    }
  }

  /** The vector table of a dimension, looking again for one another process made (at most every 2 s). */
  private async vecTable(dim: number): Promise<string | null> {
    if (!this.vecDims.has(dim) && Date.now() - this.vecRefreshedAt > VEC_REFRESH_MS) {
      this.vecRefreshedAt = Date.now();
      for (const d of await existingVecDims(this.pool)) this.vecDims.add(d);
    }
    return this.vecDims.has(dim) ? vecTableName(dim) : null;
  }

  private async prepare(records: ChunkRecord[]): Promise<PreparedRow[]> {
    for (const r of records) checkRecord(r);
    let texts: StoredText[] | null = null;
    if (this.textThread && records.length >= OFFLOAD_MIN_RECORDS)
      texts = await this.textThread.storedTexts(records.map(fieldSource)).catch(() => null); // inline below
    const all = texts ?? records.map(storedTextOf);
    return records.map((r, i) => prepareRow(r, all[i]));
  }

  async upsert(records: ChunkRecord[]): Promise<void> {
    if (records.length === 0) return;
    const rows = await this.prepare(records);
    await ensureSlots(
      this.pool,
      this.slots,
      rows.map((r) => r.record.kb_id),
    );
    await this.ensureVecDims(rows.map((r) => r.vecDim));
    const reserved = await preallocate(this.env, rows);
    await inTransaction(this.pool, async (c) => {
      // GIN moves its pending entries into the index inside the insert that fills the pending list,
      // sorting them in work_mem: 4 MB (the default) made a 1,000-chunk batch 25 % slower.
      if (rows.length >= OFFLOAD_MIN_RECORDS) await c.query("SET LOCAL work_mem = '64MB'");
      await writeRows(c, this.env, rows, reserved);
    });
    this.stats.noteWrites(rows.length);
    this.maybeAnalyze(rows.length);
  }

  /** Refreshes the planner's statistics in the background after many rows (ANALYZE_AFTER_ROWS). */
  private maybeAnalyze(written: number): void {
    this.writtenSinceAnalyze += written;
    if (this.analyzing || this.writtenSinceAnalyze < Math.max(ANALYZE_AFTER_ROWS, this.rowsAtAnalyze / 10))
      return;
    this.writtenSinceAnalyze = 0;
    this.analyzing = (async () => {
      try {
        await this.pool.query('ANALYZE lectern_chunk');
        await compactDf(this.pool);
        // Compaction leaves every delta it folded dead: reclaimed now, as autovacuum may be late or
        // off (with it off, a 600k-chunk build left 1.7 GB of dead deltas).
        await this.pool.query('VACUUM lectern_chunk_df');
        this.rowsAtAnalyze = (await this.stats.totals()).rows;
      } catch (err) {
        console.warn(
          `chunk index: ANALYZE or the term-count compaction failed: ${err instanceof Error ? err.message : String(err)}`,
        );
      } finally {
        this.analyzing = null;
      }
    })();
  }

  private async withVectors(rows: ChunkRow[], exec: Exec = this.pool): Promise<ChunkRecord[]> {
    const byDim = new Map<number, number[]>();
    for (const r of rows) {
      if (r.vec_dim <= 0) continue;
      const rids = byDim.get(r.vec_dim);
      if (rids) rids.push(Number(r.rid));
      else byDim.set(r.vec_dim, [Number(r.rid)]);
    }
    const vectors = new Map<number, number[]>();
    for (const [dim, rids] of byDim) {
      const res = await exec.query<{ rid: number; e: string }>(
        `SELECT rid, embedding::text AS e FROM ${vecTableName(dim)} WHERE rid = ANY($1::int8[])`,
        [rids],
      );
      for (const v of res.rows) vectors.set(Number(v.rid), parseVector(v.e));
    }
    return rows.map((r) => rowToRecord(r, vectors.get(Number(r.rid)) ?? null));
  }

  async get(chunkId: string): Promise<ChunkRecord | null> {
    const res = await this.pool.query<ChunkRow>(`SELECT ${RECORD_COLUMNS} FROM lectern_chunk WHERE id = $1`, [
      chunkId,
    ]);
    return res.rows.length > 0 ? (await this.withVectors(res.rows))[0] : null;
  }

  async getMany(chunkIds: string[]): Promise<ChunkRecord[]> {
    if (chunkIds.length === 0) return [];
    const res = await this.pool.query<ChunkRow>(
      `SELECT ${RECORD_COLUMNS} FROM lectern_chunk WHERE id = ANY($1::text[])`,
      [chunkIds],
    );
    const byId = new Map((await this.withVectors(res.rows)).map((r) => [r.id, r]));
    return chunkIds.flatMap((id) => {
      const r = byId.get(id);
      return r ? [r] : [];
    });
  }

  /** Deletes the rows `where` selects with their vectors and totals, through `exec` (a transaction). */
  async deleteWith(exec: Exec, where: string, params: unknown[]): Promise<number> {
    const res = await exec.query<{ rid: number; vec_dim: number; dl: number }>(
      `WITH d AS (DELETE FROM lectern_chunk WHERE ${where} RETURNING rid, vec_dim, dl, tsv, tsv_sm), ` +
        `df AS (${dfDeltaSql('d', -1)}) SELECT rid, vec_dim, dl FROM d`,
      params,
    );
    const rows = res.rows.map((r) => ({ rid: Number(r.rid), vec_dim: Number(r.vec_dim), dl: Number(r.dl) }));
    await deleteVectors(exec, rows);
    await addTotals(exec, -rows.length, -rows.reduce((s, r) => s + r.dl, 0));
    this.stats.noteWrites(rows.length);
    return rows.length;
  }

  /** Deletes the documents' chunks inside the caller's transaction (its document rows go in the same one). */
  deleteDocsWith(exec: Exec, docIds: string[]): Promise<number> {
    return docIds.length === 0
      ? Promise.resolve(0)
      : this.deleteWith(exec, 'doc_id = ANY($1::text[])', [docIds]);
  }

  /** Deletes a KB's chunks and its partition counters inside the caller's transaction. */
  async deleteKbWith(exec: Exec, kbId: string): Promise<number> {
    const n = await this.deleteWith(exec, 'kb_id = $1', [kbId]);
    const slot = await exec.query<{ slot: number }>(
      'DELETE FROM lectern_chunk_kb WHERE kb_id = $1 RETURNING slot',
      [kbId],
    );
    for (const s of slot.rows) await exec.query('DELETE FROM lectern_chunk_seq WHERE slot = $1', [s.slot]);
    this.slots.delete(kbId);
    return n;
  }

  async deleteByIds(kbId: string, chunkIds: string[]): Promise<number> {
    if (chunkIds.length === 0) return 0;
    return inTransaction(this.pool, (c) =>
      this.deleteWith(c, 'kb_id = $1 AND id = ANY($2::text[])', [kbId, chunkIds]),
    );
  }

  async deleteByDoc(docId: string): Promise<number> {
    return inTransaction(this.pool, (c) => this.deleteDocsWith(c, [docId]));
  }

  async deleteByKb(kbId: string): Promise<number> {
    return inTransaction(this.pool, (c) => this.deleteKbWith(c, kbId));
  }

  async countByDoc(docId: string): Promise<number> {
    const res = await this.pool.query<{ n: number }>(
      'SELECT COUNT(*) AS n FROM lectern_chunk WHERE doc_id = $1',
      [docId],
    );
    return Number(res.rows[0].n);
  }

  async statsByDocs(docIds: string[]): Promise<Map<string, DocStats>> {
    const out = new Map<string, DocStats>();
    if (docIds.length === 0) return out;
    const res = await this.pool.query<{ doc_id: string; n: number; t: number }>(
      'SELECT doc_id, COUNT(*) AS n, COALESCE(SUM(token_num), 0)::float8 AS t FROM lectern_chunk WHERE doc_id = ANY($1::text[]) GROUP BY doc_id',
      [docIds],
    );
    for (const r of res.rows) out.set(r.doc_id, { chunks: Number(r.n), tokens: Number(r.t) });
    return out;
  }

  async list(
    filter: ChunkFilter,
    order: ListOrder,
    offset: number,
    limit: number,
  ): Promise<{ total: number; chunks: ChunkRecord[] }> {
    if (filter.kbIds.length === 0) return { total: 0, chunks: [] };
    const params: unknown[] = [filter.kbIds];
    const where = ['kb_id = ANY($1::text[])'];
    if (filter.docIds && filter.docIds.length > 0)
      where.push(`doc_id = ANY($${params.push(filter.docIds)}::text[])`);
    if (filter.available === 0 || filter.available === 1)
      where.push(`available_int = $${params.push(filter.available)}`);
    if (filter.graphKinds)
      where.push(`knowledge_graph_kwd = ANY($${params.push(filter.graphKinds)}::text[])`);
    else if (!filter.includeGraph) where.push('knowledge_graph_kwd IS NULL');
    if (!filter.withChildren) where.push('mom_id IS NULL');
    const w = where.join(' AND ');
    const total = await this.pool.query<{ n: number }>(
      `SELECT COUNT(*) AS n FROM lectern_chunk WHERE ${w}`,
      params,
    );
    const orderBy = order === 'newest' ? 'create_time DESC, rid DESC' : POSITION_ORDER;
    const rows = await this.pool.query<ChunkRow>(
      `SELECT ${RECORD_COLUMNS} FROM lectern_chunk WHERE ${w} ORDER BY ${orderBy} LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, Math.max(0, Math.trunc(limit)), Math.max(0, Math.trunc(offset))],
    );
    return { total: Number(total.rows[0].n), chunks: rows.rows.map((r) => rowToRecord(r)) };
  }

  async search(req: SearchRequest): Promise<SearchResult> {
    return executePgSearch(
      { pool: this.pool, stats: this.stats, vecTable: (dim) => this.vecTable(dim) },
      req,
    );
  }

  async termStats(tokens: string[]): Promise<TermStats> {
    const { rows: total } = await this.stats.totals();
    const unique = [...new Set(tokens)];
    const counts = await this.stats.documentFrequencies(
      unique.map((t) => ftsTerms(t)),
      total,
    );
    const df: Record<string, number> = {};
    unique.forEach((t, i) => (df[t] = counts[i]));
    return { total, df };
  }

  async update(chunkId: string, patch: ChunkPatch): Promise<boolean> {
    if (patch.vector) await this.ensureVecDims([patch.vector.length]);
    const done = await inTransaction(this.pool, async (c) => {
      const res = await c.query<ChunkRow>(
        `SELECT ${RECORD_COLUMNS} FROM lectern_chunk WHERE id = $1 FOR UPDATE`,
        [chunkId],
      );
      if (res.rows.length === 0) return false;
      const current =
        patch.vector === undefined
          ? (await this.withVectors(res.rows, c))[0]
          : rowToRecord(res.rows[0], null);
      const next: ChunkRecord = { ...current };
      for (const [k, v] of Object.entries(patch))
        if (v !== undefined) (next as unknown as Record<string, unknown>)[k] = v;
      checkRecord(next);
      await ensureSlots(c, this.slots, [next.kb_id]);
      await writeRows(c, this.env, [prepareRow(next, storedTextOf(next))]);
      return true;
    });
    if (done) this.stats.noteWrites(1);
    return done;
  }

  async setAvailableByIds(chunkIds: string[], available: number, docId?: string): Promise<number> {
    if (chunkIds.length === 0) return 0;
    // The SQLite index walks an id list through the document's position index when a document is
    // given, else through its unique id index: in id order.
    const n = docId
      ? await setAvailableWhere(
          this.pool,
          'id = ANY($1::text[]) AND doc_id = $2',
          POSITION_ORDER,
          [chunkIds, docId],
          available,
        )
      : await setAvailableWhere(this.pool, 'id = ANY($1::text[])', 'id COLLATE "C"', [chunkIds], available);
    this.stats.noteWrites(n);
    return n;
  }

  async setAvailableByDoc(docId: string, available: number): Promise<number> {
    const n = await setAvailableWhere(this.pool, 'doc_id = $1', POSITION_ORDER, [docId], available);
    this.stats.noteWrites(n);
    return n;
  }

  tagCounts(kbIds: string[]): Promise<Array<[string, number]>> {
    return this.tags.counts(kbIds);
  }

  async removeTags(kbId: string, tags: string[]): Promise<number> {
    const drop = new Set(tags);
    return this.tags.edit(kbId, tags, (cur) => cur.filter((t) => !drop.has(t)));
  }

  async renameTag(kbId: string, from: string, to: string): Promise<number> {
    return this.tags.edit(kbId, [from], (cur) => [...new Set(cur.map((t) => (t === from ? to : t)))]);
  }

  async setPagerank(kbId: string, pagerank: number): Promise<number> {
    const res = await this.pool.query('UPDATE lectern_chunk SET pagerank_fea = $1 WHERE kb_id = $2', [
      pagerank,
      kbId,
    ]);
    return res.rowCount ?? 0;
  }

  async health(): Promise<void> {
    const ext = await this.pool.query("SELECT extversion FROM pg_extension WHERE extname = 'vector'");
    if (ext.rowCount === 0) throw new Error('the pgvector extension is gone from the database');
    await this.pool.query('SELECT rid FROM lectern_chunk LIMIT 1');
  }

  /** Row counts of chunk rows and vector rows (diagnostics and tests). */
  async rowCounts(): Promise<{ chunks: number; vectors: number }> {
    const one = async (sql: string) => Number((await this.pool.query<{ n: number }>(sql)).rows[0].n);
    let vectors = 0;
    for (const d of await existingVecDims(this.pool))
      vectors += await one(`SELECT COUNT(*) AS n FROM ${vecTableName(d)}`);
    return { chunks: await one('SELECT COUNT(*) AS n FROM lectern_chunk'), vectors };
  }

  /** Figures for the health probe: rows, vector dimensions, bytes of the index's tables and indexes. */
  async describe(): Promise<Record<string, unknown>> {
    const totals = await this.stats.totals();
    const size = await this.pool.query<{ b: number }>(
      "SELECT COALESCE(SUM(pg_total_relation_size(oid)), 0)::int8 AS b FROM pg_class WHERE relkind = 'r' AND relname LIKE 'lectern\\_chunk%'",
    );
    return {
      chunks: totals.rows,
      vector_dims: await existingVecDims(this.pool),
      bytes: Number(size.rows[0].b),
    };
  }

  async close(): Promise<void> {
    await this.analyzing;
    await this.pool.end();
  }
}
