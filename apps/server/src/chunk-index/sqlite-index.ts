/**
 * SQLite adapter of the ChunkIndex port: FTS5 for the weighted token fields, sqlite-vec for the
 * vectors, one file `<dataDir>/index.sqlite` in WAL mode (layout in sqlite-schema.ts, the query in
 * sqlite-search.ts). better-sqlite3 is synchronous; the port is async so a networked adapter fits.
 * Every write that touches a chunk touches its FTS row and vector row in the same transaction.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
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
import { fieldSource, tokenFields } from './fields.js';
import {
  blobVector,
  filterWhere,
  columnTexts,
  ftsValues,
  kindOf,
  ROW_COLUMNS,
  rowToRecord,
  rowValues,
  SCHEMA_SQL,
  SCHEMA_VERSION,
  SEQ_BITS,
  SLOT_SPAN,
  TEXT_COLUMNS,
  vectorBlob,
  type ChunkRow,
} from './sqlite-schema.js';
import { RidAllocator } from './sqlite-rids.js';
import { openPostings, type PostingWriter } from './sqlite-postings.js';
import { executeSearch, StatementCache } from './sqlite-search.js';
import { SqliteTermStats } from './sqlite-term-stats.js';
import { planQuery, type PlanOptions, type QueryPlan } from './query.js';
import { editTags, tagCounts } from './sqlite-tags.js';
import type { Tokenizer } from './tokenize-pool.js';
import type { SearchThreads } from './search-pool.js';
import { WorkerJobError } from '../util/worker-pool.js';

const FTS_INSERT = `INSERT INTO chunk_fts(rowid, flt, ${TEXT_COLUMNS.join(', ')}) VALUES (?, ?, ${TEXT_COLUMNS.map(() => '?').join(', ')})`;
const CHUNK_INSERT = `INSERT INTO chunk(rid, ${ROW_COLUMNS.join(', ')}) VALUES (?, ${ROW_COLUMNS.map(() => '?').join(', ')})`;
const CHUNK_UPDATE = `UPDATE chunk SET ${ROW_COLUMNS.map((c) => `${c} = ?`).join(', ')} WHERE rid = ?`;

/**
 * Fewer records than this, with less text than OFFLOAD_MIN_CHARS, are tokenized inline (a thread
 * round trip costs more than a short chunk edit). Ingesting many small documents upserts a few
 * records at a time: counted by records only, their tokenization (~3 ms per SciFact abstract) ran
 * on the event loop.
 */
const OFFLOAD_MIN_RECORDS = 16;
const OFFLOAD_MIN_CHARS = 2_000;

function textLength(records: ChunkRecord[]): number {
  let n = 0;
  for (const r of records) n += r.content_with_weight.length + (r.search_text?.length ?? 0);
  return n;
}
/** WAL pages between automatic checkpoints (4 KiB pages: 64 MiB). */
const WAL_CHECKPOINT_PAGES = 16_384;

function checkRecord(r: ChunkRecord): void {
  if (!r || typeof r.id !== 'string' || !r.id) throw new Error('chunk record without id');
  if (typeof r.kb_id !== 'string' || !r.kb_id) throw new Error(`chunk ${r.id} has no kb_id`);
  if (typeof r.doc_id !== 'string' || !r.doc_id) throw new Error(`chunk ${r.id} has no doc_id`);
  if (r.vector && r.vector.length === 0) throw new Error(`chunk ${r.id} has an empty vector`);
}

export interface SqliteIndexOptions {
  /**
   * Experimental (config LECTERN_KEYWORD_POSTINGS): block-max postings beside FTS5 (sqlite-postings.ts)
   * for an exact, faster keyword-only top-k (sqlite-topk.ts), at the price of slower writes, more disk
   * and a build of the postings when an index without them is opened. Off: no postings tables (those
   * of an earlier run are dropped), nothing written for them, every search exhaustive.
   */
  keywordPostings?: boolean;
}

export class SqliteChunkIndex implements ChunkIndex {
  readonly type = 'sqlite-fts5+sqlite-vec';
  readonly file: string;
  private readonly db: Database.Database;
  private readonly statements: StatementCache;
  private readonly vecDims = new Set<number>();
  private readonly rids: RidAllocator;
  private readonly stats: SqliteTermStats;
  /** Block-max postings (sqlite-postings.ts), only with `keywordPostings` on: nothing is written without. */
  private readonly postings: PostingWriter | null;
  private readonly keywordPostings: boolean;
  /** Rows written by this process (invalidates cached document frequencies). */
  private writes = 0;

  /**
   * `tokenizer`: a thread that tokenizes bulk upserts (chunk-index/tokenize-pool.ts); inline without one.
   * `searchThreads`: threads that run searches on read-only connections (search-pool.ts); inline without.
   * `options.keywordPostings`: see SqliteIndexOptions.
   */
  constructor(
    file: string,
    private readonly tokenizer: Tokenizer | null = null,
    private readonly searchThreads: SearchThreads | null = null,
    options: SqliteIndexOptions = {},
  ) {
    this.file = file;
    if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
    this.db = new Database(file);
    sqliteVec.load(this.db);
    if (file !== ':memory:') this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('temp_store = MEMORY');
    this.db.pragma('cache_size = -131072'); // 128 MiB page cache
    this.db.pragma('mmap_size = 8589934592'); // reads through the OS page cache without copies
    this.db.pragma('busy_timeout = 10000');
    // Bulk writes append several MB per transaction: checkpoint every 64 MB of WAL, not every 4 MB.
    this.db.pragma(`wal_autocheckpoint = ${WAL_CHECKPOINT_PAGES}`);
    this.db.exec(SCHEMA_SQL);
    this.db.pragma(`user_version = ${SCHEMA_VERSION}`);
    const tables = this.db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB 'vec_[0-9]*'")
      .pluck()
      .all() as string[];
    for (const t of tables) this.vecDims.add(Number(t.slice(4)));
    this.statements = new StatementCache(this.db);
    this.rids = new RidAllocator(this.statements);
    this.stats = new SqliteTermStats(this.statements);
    this.keywordPostings = options.keywordPostings === true;
    this.postings = openPostings(this.db, this.statements, this.file, this.keywordPostings);
  }

  /** Size of the index file (and its WAL) in bytes. */
  sizeOnDisk(): number {
    if (this.file === ':memory:') return 0;
    let n = 0;
    for (const f of [this.file, `${this.file}-wal`]) if (fs.existsSync(f)) n += fs.statSync(f).size;
    return n;
  }

  private vecTable(dim: number, create: boolean): string | null {
    if (!Number.isInteger(dim) || dim <= 0 || dim > 65536) throw new Error(`invalid vector dimension ${dim}`);
    const name = `vec_${dim}`;
    if (this.vecDims.has(dim)) return name;
    if (!create) return null;
    this.db.exec(`CREATE TABLE IF NOT EXISTS ${name} (rid INTEGER PRIMARY KEY, embedding BLOB NOT NULL)`);
    this.vecDims.add(dim);
    return name;
  }

  private invalidate(): void {
    this.stats.invalidate();
  }

  /** Runs `fn` in one write transaction (rid counters are only trusted inside it). */
  private write<T>(fn: () => T): T {
    this.rids.reset();
    try {
      // Postings of every row the transaction wrote or removed go in the same transaction.
      const out = this.db.transaction(() => (this.postings ? this.postings.flushAfter(fn()) : fn()))();
      this.writes += typeof out === 'number' ? Math.max(1, out) : 1;
      return out;
    } finally {
      this.postings?.discard();
      this.rids.reset();
      this.invalidate();
    }
  }

  private deleteRows(rid: number, vecDim: number): void {
    this.statements.get('DELETE FROM chunk_fts WHERE rowid = ?').run(rid);
    this.postings?.remove(rid);
    if (vecDim > 0 && this.vecDims.has(vecDim))
      this.statements.get(`DELETE FROM vec_${vecDim} WHERE rid = ?`).run(rid);
  }

  /** Writes chunk + FTS + vector rows of one record (inside a write transaction). */
  private writeOne(r: ChunkRecord, texts: string[]): void {
    const vecDim = r.vector ? r.vector.length : 0;
    const slot = this.rids.slotOf(r.kb_id, true)!;
    const kind = kindOf(r);
    const existing = this.statements.get('SELECT rid, vec_dim FROM chunk WHERE id = ?').get(r.id) as
      { rid: number; vec_dim: number } | undefined;
    let rid: number;
    if (
      existing &&
      Math.floor(existing.rid / SLOT_SPAN) === slot &&
      Math.floor((existing.rid % SLOT_SPAN) / SEQ_BITS) === kind
    ) {
      rid = existing.rid;
      this.deleteRows(rid, existing.vec_dim);
      this.statements.get(CHUNK_UPDATE).run(...rowValues(r, vecDim), rid);
    } else {
      if (existing) {
        this.deleteRows(existing.rid, existing.vec_dim);
        this.statements.get('DELETE FROM chunk WHERE rid = ?').run(existing.rid);
      }
      rid = this.rids.alloc(slot, kind);
      this.statements.get(CHUNK_INSERT).run(rid, ...rowValues(r, vecDim));
    }
    this.statements.get(FTS_INSERT).run(rid, ...ftsValues(r, texts));
    this.postings?.add(rid, texts);
    if (r.vector && vecDim > 0) {
      const table = this.vecTable(vecDim, true)!;
      this.statements
        .get(`INSERT INTO ${table}(rid, embedding) VALUES (?, ?)`)
        .run(rid, vectorBlob(r.vector));
    }
  }

  /**
   * Upsert: with a tokenizer thread (and enough records to be worth the trip) the records are
   * tokenized there, so concurrent upserts tokenize while this thread writes; otherwise as upsertSync.
   */
  async upsert(records: ChunkRecord[]): Promise<void> {
    if (records.length === 0) return;
    for (const r of records) checkRecord(r);
    let texts: string[][] | null = null;
    if (
      this.tokenizer &&
      (records.length >= OFFLOAD_MIN_RECORDS || textLength(records) >= OFFLOAD_MIN_CHARS)
    ) {
      texts = await this.tokenizer.columnTexts(records.map(fieldSource)).catch(() => null); // inline below
    }
    this.writeAll(records, texts ?? records.map((r) => columnTexts(tokenFields(r))));
  }

  /** Synchronous bulk upsert: tokenizes first, then writes everything in one transaction. */
  upsertSync(records: ChunkRecord[]): void {
    if (records.length === 0) return;
    for (const r of records) checkRecord(r);
    this.writeAll(
      records,
      records.map((r) => columnTexts(tokenFields(r))),
    );
  }

  private writeAll(records: ChunkRecord[], texts: string[][]): void {
    this.write(() => {
      for (let i = 0; i < records.length; i++) this.writeOne(records[i], texts[i]);
      return records.length;
    });
  }

  private readVector(row: ChunkRow): number[] | null {
    if (!row.vec_dim || !this.vecDims.has(row.vec_dim)) return null;
    const b = this.statements
      .get(`SELECT embedding FROM vec_${row.vec_dim} WHERE rid = ?`)
      .pluck()
      .get(row.rid) as Buffer | undefined;
    return b ? blobVector(b) : null;
  }

  async get(chunkId: string): Promise<ChunkRecord | null> {
    const row = this.statements.get('SELECT * FROM chunk WHERE id = ?').get(chunkId) as ChunkRow | undefined;
    return row ? rowToRecord(row, this.readVector(row)) : null;
  }

  async getMany(chunkIds: string[]): Promise<ChunkRecord[]> {
    if (chunkIds.length === 0) return [];
    const rows = this.statements
      .get('SELECT * FROM chunk WHERE id IN (SELECT value FROM json_each(?))')
      .all(JSON.stringify(chunkIds)) as ChunkRow[];
    const byId = new Map(rows.map((r) => [r.id, r]));
    return chunkIds.flatMap((id) => {
      const row = byId.get(id);
      return row ? [rowToRecord(row, this.readVector(row))] : [];
    });
  }

  /** Deletes the rows selected by `where` from chunk, FTS and vector tables in one transaction. */
  private deleteWhere(where: string, params: unknown[]): number {
    return this.write(() => {
      const sel = `SELECT rid FROM chunk WHERE ${where}`;
      if (this.postings) {
        for (const rid of this.db
          .prepare(sel)
          .pluck()
          .all(...params) as number[])
          this.postings.remove(rid);
      }
      this.db.prepare(`DELETE FROM chunk_fts WHERE rowid IN (${sel})`).run(...params);
      for (const dim of this.vecDims) {
        this.db.prepare(`DELETE FROM vec_${dim} WHERE rid IN (${sel} AND vec_dim = ${dim})`).run(...params);
      }
      return this.db.prepare(`DELETE FROM chunk WHERE ${where}`).run(...params).changes;
    });
  }

  async deleteByIds(kbId: string, chunkIds: string[]): Promise<number> {
    if (chunkIds.length === 0) return 0;
    return this.deleteWhere('kb_id = ? AND id IN (SELECT value FROM json_each(?))', [
      kbId,
      JSON.stringify(chunkIds),
    ]);
  }

  async deleteByDoc(docId: string): Promise<number> {
    return this.deleteWhere('doc_id = ?', [docId]);
  }

  async deleteByKb(kbId: string): Promise<number> {
    const n = this.deleteWhere('kb_id = ?', [kbId]);
    this.db.prepare('DELETE FROM kb_slot WHERE kb_id = ?').run(kbId);
    this.rids.forget(kbId);
    return n;
  }

  async countByDoc(docId: string): Promise<number> {
    return Number(this.statements.get('SELECT COUNT(*) FROM chunk WHERE doc_id = ?').pluck().get(docId));
  }

  async statsByDocs(docIds: string[]): Promise<Map<string, DocStats>> {
    const out = new Map<string, DocStats>();
    if (docIds.length === 0) return out;
    const rows = this.statements
      .get(
        'SELECT doc_id, COUNT(*) AS n, TOTAL(token_num) AS t FROM chunk WHERE doc_id IN (SELECT value FROM json_each(?)) GROUP BY doc_id',
      )
      .all(JSON.stringify(docIds)) as Array<{ doc_id: string; n: number; t: number }>;
    for (const r of rows) out.set(r.doc_id, { chunks: r.n, tokens: r.t });
    return out;
  }

  async list(
    filter: ChunkFilter,
    order: ListOrder,
    offset: number,
    limit: number,
  ): Promise<{ total: number; chunks: ChunkRecord[] }> {
    if (filter.kbIds.length === 0) return { total: 0, chunks: [] };
    const w = filterWhere(filter);
    const total = Number(
      this.statements
        .get(`SELECT COUNT(*) FROM chunk WHERE ${w.sql}`)
        .pluck()
        .get(...w.params),
    );
    const orderBy = order === 'newest' ? 'create_time DESC, rid DESC' : 'page0, top0, create_time DESC, rid';
    const rows = this.statements
      .get(`SELECT * FROM chunk WHERE ${w.sql} ORDER BY ${orderBy} LIMIT ? OFFSET ?`)
      .all(...w.params, Math.max(0, Math.trunc(limit)), Math.max(0, Math.trunc(offset))) as ChunkRow[];
    return { total, chunks: rows.map((r) => rowToRecord(r)) };
  }

  async search(req: SearchRequest): Promise<SearchResult> {
    if (this.searchThreads && this.file !== ':memory:') {
      try {
        return await this.searchThreads.search(this.file, req, this.keywordPostings);
      } catch (err) {
        // A thread that died (memory, crash, time) is replaced by the pool; this search runs here.
        if (!(err instanceof WorkerJobError)) throw err;
      }
    }
    return executeSearch(
      {
        statements: this.statements,
        slotOf: (kbId) => this.rids.slotOf(kbId, false),
        vecTable: (dim) => this.vecTable(dim, false),
        keywordPostings: this.keywordPostings,
      },
      req,
    );
  }

  private totalRows(): number {
    return this.stats.totalRows(this.writes);
  }

  /**
   * The question's query plan (query.ts), made on a search thread with that thread's statistics and
   * caches; here when there is no thread or it died (the pool replaces it).
   */
  async planQuery(question: string, options: PlanOptions = {}): Promise<QueryPlan | null> {
    if (this.searchThreads && this.file !== ':memory:') {
      try {
        return await this.searchThreads.plan(this.file, question, options, this.writes);
      } catch (err) {
        if (!(err instanceof WorkerJobError)) throw err;
      }
    }
    return planQuery(question, (tokens) => this.termStats(tokens), options);
  }

  /** Document frequencies (sqlite-term-stats.ts), on this thread. */
  async termStats(tokens: string[]): Promise<TermStats> {
    return this.stats.termStats(tokens, this.writes);
  }

  async update(chunkId: string, patch: ChunkPatch): Promise<boolean> {
    return this.write(() => {
      const row = this.statements.get('SELECT * FROM chunk WHERE id = ?').get(chunkId) as
        ChunkRow | undefined;
      if (!row) return false;
      const current = rowToRecord(row, patch.vector === undefined ? this.readVector(row) : null);
      const next: ChunkRecord = { ...current };
      for (const [k, v] of Object.entries(patch))
        if (v !== undefined) (next as unknown as Record<string, unknown>)[k] = v;
      this.writeOne(next, columnTexts(tokenFields(next)));
      return true;
    });
  }

  /**
   * Enables/disables chunks. The availability is part of the rid (partition kind), so a changed row
   * moves: new rid for the chunk row, its FTS row (re-tokenized) and its vector row.
   */
  private setAvailableWhere(where: string, params: unknown[], available: number): number {
    const value = available ? 1 : 0;
    return this.write(() => {
      const rows = this.db.prepare(`SELECT * FROM chunk WHERE ${where}`).all(...params) as ChunkRow[];
      for (const row of rows) {
        if (row.available_int === value) continue;
        const rec = rowToRecord({ ...row, available_int: value });
        const rid = this.rids.alloc(Math.floor(row.rid / SLOT_SPAN), kindOf(rec));
        this.statements.get('DELETE FROM chunk_fts WHERE rowid = ?').run(row.rid);
        this.postings?.remove(row.rid);
        this.statements
          .get('UPDATE chunk SET rid = ?, available_int = ? WHERE rid = ?')
          .run(rid, value, row.rid);
        if (row.vec_dim > 0 && this.vecDims.has(row.vec_dim)) {
          this.statements.get(`UPDATE vec_${row.vec_dim} SET rid = ? WHERE rid = ?`).run(rid, row.rid);
        }
        const texts = columnTexts(tokenFields(rec));
        this.statements.get(FTS_INSERT).run(rid, ...ftsValues(rec, texts));
        this.postings?.add(rid, texts);
      }
      return rows.length;
    });
  }

  async setAvailableByIds(chunkIds: string[], available: number, docId?: string): Promise<number> {
    if (chunkIds.length === 0) return 0;
    const where = `id IN (SELECT value FROM json_each(?))${docId ? ' AND doc_id = ?' : ''}`;
    return this.setAvailableWhere(
      where,
      docId ? [JSON.stringify(chunkIds), docId] : [JSON.stringify(chunkIds)],
      available,
    );
  }

  async setAvailableByDoc(docId: string, available: number): Promise<number> {
    return this.setAvailableWhere('doc_id = ?', [docId], available);
  }

  async tagCounts(kbIds: string[]): Promise<Array<[string, number]>> {
    return tagCounts(this.db, kbIds);
  }

  async removeTags(kbId: string, tags: string[]): Promise<number> {
    const drop = new Set(tags);
    return this.write(() => editTags(this.db, kbId, tags, (cur) => cur.filter((t) => !drop.has(t))));
  }

  async renameTag(kbId: string, from: string, to: string): Promise<number> {
    return this.write(() =>
      editTags(this.db, kbId, [from], (cur) => [...new Set(cur.map((t) => (t === from ? to : t)))]),
    );
  }

  async setPagerank(kbId: string, pagerank: number): Promise<number> {
    return this.db.prepare('UPDATE chunk SET pagerank_fea = ? WHERE kb_id = ?').run(pagerank, kbId).changes;
  }

  async health(): Promise<void> {
    this.db.prepare('SELECT vec_version()').pluck().get();
    this.db.prepare('SELECT rid FROM chunk LIMIT 1').all();
  }

  /** Row counts of the three stores (chunk rows, FTS rows, vector rows): diagnostics and tests. */
  rowCounts(): { chunks: number; fts: number; vectors: number } {
    const one = (sql: string) => Number(this.db.prepare(sql).pluck().get());
    let vectors = 0;
    for (const d of this.vecDims) vectors += one(`SELECT COUNT(*) FROM vec_${d}`);
    return {
      chunks: one('SELECT COUNT(*) FROM chunk'),
      fts: one('SELECT COUNT(*) FROM chunk_fts_docsize'),
      vectors,
    };
  }

  /** Figures for the health probe. */
  describe(): Record<string, unknown> {
    return {
      chunks: this.totalRows(),
      vector_dims: [...this.vecDims].sort((a, b) => a - b),
      bytes: this.sizeOnDisk(),
    };
  }

  async close(): Promise<void> {
    this.statements.clear();
    if (this.db.open) this.db.close();
  }
}
