/**
 * Block-max postings of the SQLite chunk index, beside FTS5 (read by sqlite-topk.ts): per FTS term,
 * the rows holding it in the token columns, in rid order, in blocks of at most BLOCK_SIZE postings.
 * A posting is (rid, weighted term frequency, row length): exactly what FTS5's bm25() reads for a
 * one-term phrase (Σ column weight × hits, and the row's size in tokens over every column). Each block
 * row keeps its largest frequency and smallest length, so the query can bound a block's BM25 term
 * score for any N/avgdl without reading it. `chunk_post_row` lists each row's terms, so a deleted or
 * moved row's postings are found without re-tokenizing it.
 *
 * Written in the same transactions as the FTS rows (PostingWriter); an index written before the
 * postings existed gets them in one ordered pass over FTS5's own postings (buildPostings).
 */
import Database from 'better-sqlite3';
import { FIELD_WEIGHTS } from './chunk-index.js';
import { ftsTerms } from './fts-terms.js';
import { TEXT_COLUMNS } from './sqlite-schema.js';
import type { StatementCache } from './sqlite-fts.js';

export const BLOCK_SIZE = 128;

/*
 * Blocks live in a rowid table with a covering index of their bounds: a 2 KiB blob fits in a table
 * leaf page, where a WITHOUT ROWID row of that size spills to overflow pages (measured: twice the
 * space). The query reads the bounds from the index alone and a block's data by id.
 */
export const POSTINGS_SQL = `
CREATE TABLE IF NOT EXISTS chunk_post (
  id INTEGER PRIMARY KEY, term TEXT NOT NULL, rid0 INTEGER NOT NULL, rid1 INTEGER NOT NULL,
  n INTEGER NOT NULL, max_tf INTEGER NOT NULL, min_dl INTEGER NOT NULL, data BLOB NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS chunk_post_term ON chunk_post(term, rid0, rid1, n, max_tf, min_dl);
CREATE TABLE IF NOT EXISTS chunk_post_row (rid INTEGER PRIMARY KEY, terms TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS chunk_post_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
`;

/** Weight of each FTS column (flt first, weight 0), as the bm25() call passes them. */
const COLUMN_WEIGHTS = TEXT_COLUMNS.map((c) => FIELD_WEIGHTS[c]);

export interface Posting {
  rid: number;
  tf: number;
  dl: number;
}

/** One block as stored: rids (float64: up to 2⁵³), weighted frequencies and lengths (uint32). */
export function encodeBlock(ps: Posting[]): Buffer {
  const n = ps.length;
  const buf = Buffer.alloc(16 * n);
  const rids = new Float64Array(buf.buffer, buf.byteOffset, n);
  const rest = new Uint32Array(buf.buffer, buf.byteOffset + 8 * n, 2 * n);
  for (let i = 0; i < n; i++) {
    rids[i] = ps[i].rid;
    rest[i] = ps[i].tf;
    rest[n + i] = ps[i].dl;
  }
  return buf;
}

export interface DecodedBlock {
  rids: Float64Array;
  tf: Uint32Array;
  dl: Uint32Array;
}

export function decodeBlock(data: Buffer, n: number): DecodedBlock {
  // Copied: SQLite's blob buffer is not guaranteed to be 8-byte aligned.
  const copy = new ArrayBuffer(16 * n);
  new Uint8Array(copy).set(data.subarray(0, 16 * n));
  return {
    rids: new Float64Array(copy, 0, n),
    tf: new Uint32Array(copy, 8 * n, n),
    dl: new Uint32Array(copy, 12 * n, n),
  };
}

function postingsOf(data: Buffer, n: number): Posting[] {
  const b = decodeBlock(data, n);
  const out: Posting[] = new Array<Posting>(n);
  for (let i = 0; i < n; i++) out[i] = { rid: b.rids[i], tf: b.tf[i], dl: b.dl[i] };
  return out;
}

/**
 * Weighted frequency of each term of a row's column texts, and the row length in FTS tokens
 * (the document token of `flt` counts one, as in FTS5's docsize).
 */
export function rowTerms(texts: string[]): { tf: Map<string, number>; dl: number } {
  const tf = new Map<string, number>();
  let dl = 1;
  for (let c = 0; c < texts.length; c++) {
    const terms = ftsTerms(texts[c]);
    dl += terms.length;
    const w = COLUMN_WEIGHTS[c];
    for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + w);
  }
  return { tf, dl };
}

interface BlockRow {
  rid0: number;
  n: number;
  data: Buffer;
}

/** Changes to one term's postings gathered during a write transaction. */
interface TermChange {
  removed: Set<number>;
  added: Posting[];
}

/**
 * Collects posting changes of a write transaction and applies them per term at `flush()` (one
 * read and a few writes per touched term, not per row).
 */
export class PostingWriter {
  private readonly changes = new Map<string, TermChange>();

  constructor(private readonly statements: StatementCache) {}

  private change(term: string): TermChange {
    let c = this.changes.get(term);
    if (!c) {
      c = { removed: new Set(), added: [] };
      this.changes.set(term, c);
    }
    return c;
  }

  /** The row `rid` (about to be) removed from FTS: its postings go at flush. */
  remove(rid: number): void {
    const terms = this.statements.get('SELECT terms FROM chunk_post_row WHERE rid = ?').pluck().get(rid) as
      string | undefined;
    if (terms === undefined) return;
    this.statements.get('DELETE FROM chunk_post_row WHERE rid = ?').run(rid);
    for (const t of terms.split(' ')) {
      if (!t) continue;
      const c = this.change(t);
      c.removed.add(rid);
      // Written earlier in this same transaction: that posting is gone too.
      if (c.added.length > 0) c.added = c.added.filter((p) => p.rid !== rid);
    }
  }

  /** The row `rid` written to FTS with these column texts (TEXT_COLUMNS order). */
  add(rid: number, texts: string[]): void {
    const { tf, dl } = rowTerms(texts);
    for (const [t, f] of tf) this.change(t).added.push({ rid, tf: f, dl });
    this.statements
      .get('INSERT OR REPLACE INTO chunk_post_row(rid, terms) VALUES (?, ?)')
      .run(rid, [...tf.keys()].join(' '));
  }

  flush(): void {
    for (const [term, c] of this.changes) this.applyTerm(term, c);
    this.changes.clear();
  }

  /** Flushes, then hands back `result` (the value of the transaction's work). */
  flushAfter<T>(result: T): T {
    this.flush();
    return result;
  }

  discard(): void {
    this.changes.clear();
  }

  private applyTerm(term: string, c: TermChange): void {
    let lo = Infinity;
    let hi = -Infinity;
    for (const r of c.removed) {
      lo = Math.min(lo, r);
      hi = Math.max(hi, r);
    }
    for (const p of c.added) {
      lo = Math.min(lo, p.rid);
      hi = Math.max(hi, p.rid);
    }
    // Blocks starting in (lo, hi], and the one starting at or before lo (which may hold lo).
    const loaded: BlockRow[] = [];
    const it = this.statements
      .get('SELECT rid0, n, data FROM chunk_post WHERE term = ? AND rid0 <= ? ORDER BY rid0 DESC')
      .iterate(term, hi) as IterableIterator<BlockRow>;
    for (const b of it) {
      loaded.push(b);
      if (b.rid0 <= lo) {
        it.return?.();
        break;
      }
    }
    loaded.reverse();
    // A full block entirely before the change stays as it is (the append case of bulk writes).
    const first = loaded[0];
    if (first && first.rid0 < lo && first.n >= BLOCK_SIZE) {
      const last = decodeBlock(first.data, first.n).rids[first.n - 1];
      if (last < lo) loaded.shift();
    }
    const merged: Posting[] = [];
    for (const b of loaded)
      for (const p of postingsOf(b.data, b.n)) if (!c.removed.has(p.rid)) merged.push(p);
    const addedRids = new Set(c.added.map((p) => p.rid));
    const kept = merged.filter((p) => !addedRids.has(p.rid));
    const all = kept.concat(c.added).sort((a, b) => a.rid - b.rid);
    const del = this.statements.get('DELETE FROM chunk_post WHERE term = ? AND rid0 = ?');
    for (const b of loaded) del.run(term, b.rid0);
    const ins = this.statements.get(
      'INSERT INTO chunk_post(term, rid0, rid1, n, max_tf, min_dl, data) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    for (let i = 0; i < all.length; i += BLOCK_SIZE) {
      const part = all.slice(i, i + BLOCK_SIZE);
      let maxTf = 0;
      let minDl = Infinity;
      for (const p of part) {
        maxTf = Math.max(maxTf, p.tf);
        minDl = Math.min(minDl, p.dl);
      }
      ins.run(term, part[0].rid, part[part.length - 1].rid, part.length, maxTf, minDl, encodeBlock(part));
    }
  }
}

/** True once the postings cover every FTS row (written by buildPostings or a fresh index). */
export function postingsReady(statements: StatementCache): boolean {
  try {
    const v = statements.get("SELECT value FROM chunk_post_meta WHERE key = 'ready'").pluck().get() as
      string | undefined;
    return v === '1';
  } catch {
    // A read-only connection to an index file from before the postings: no such table yet.
    return false;
  }
}

export function markPostingsReady(db: Database.Database): void {
  db.prepare("INSERT OR REPLACE INTO chunk_post_meta(key, value) VALUES ('ready', '1')").run();
}

/** SQLite's varint (big-endian, 7 bits a byte, a 9th byte of 8 bits), as FTS5 writes its records. */
export function readVarint(buf: Buffer, at: number): [value: number, next: number] {
  let v = 0;
  for (let i = 0; i < 8; i++) {
    const byte = buf[at + i];
    v = v * 128 + (byte & 0x7f);
    if (!(byte & 0x80)) return [v, at + i + 1];
  }
  return [v * 256 + buf[at + 8], at + 9];
}

/** Sum of the varints of a record (a docsize record: the row's length over every column). */
export function varintSum(buf: Buffer, from = 0): number {
  let total = 0;
  let i = from;
  while (i < buf.length) {
    const [v, next] = readVarint(buf, i);
    total += v;
    i = next;
  }
  return total;
}

/** Row lengths from FTS5's docsize records (flt included). */
function docLengths(db: Database.Database): Map<number, number> {
  const out = new Map<number, number>();
  const rows = db.prepare('SELECT id, sz FROM chunk_fts_docsize').raw().iterate() as IterableIterator<
    [number, Buffer]
  >;
  for (const [id, sz] of rows) out.set(id, varintSum(sz));
  return out;
}

/**
 * Builds the postings of an index written without them, in one pass over FTS5's instance vocabulary
 * (term, row, column in term then row order), inside the caller's transaction on `db`. The vocabulary
 * is read through a second connection to `file` (a connection cannot write while it walks a statement).
 * Returns the rows seen.
 */
export function buildPostings(db: Database.Database, file: string): number {
  db.exec('DELETE FROM chunk_post; DELETE FROM chunk_post_row;');
  const reader = new Database(file, { readonly: true, fileMustExist: true });
  try {
    reader.exec("CREATE VIRTUAL TABLE temp.chunk_fts_inst USING fts5vocab(main, 'chunk_fts', 'instance')");
    return buildFrom(reader, db);
  } finally {
    reader.close();
  }
}

function buildFrom(reader: Database.Database, db: Database.Database): number {
  const dl = docLengths(reader);
  const weightOf = new Map<string, number>(TEXT_COLUMNS.map((c) => [c, FIELD_WEIGHTS[c]]));
  const ins = db.prepare(
    'INSERT INTO chunk_post(term, rid0, rid1, n, max_tf, min_dl, data) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const rowTermsOf = new Map<number, string[]>();
  let term = '';
  let block: Posting[] = [];
  let current: Posting | null = null;
  const flushBlock = () => {
    if (block.length === 0) return;
    let maxTf = 0;
    let minDl = Infinity;
    for (const p of block) {
      maxTf = Math.max(maxTf, p.tf);
      minDl = Math.min(minDl, p.dl);
    }
    ins.run(term, block[0].rid, block[block.length - 1].rid, block.length, maxTf, minDl, encodeBlock(block));
    block = [];
  };
  const endPosting = () => {
    if (!current) return;
    block.push(current);
    let list = rowTermsOf.get(current.rid);
    if (!list) rowTermsOf.set(current.rid, (list = []));
    list.push(term);
    current = null;
    if (block.length >= BLOCK_SIZE) flushBlock();
  };
  const rows = reader
    .prepare("SELECT term, doc, col FROM temp.chunk_fts_inst WHERE col <> 'flt'")
    .raw()
    .iterate() as IterableIterator<[string, number, string]>;
  for (const [t, doc, col] of rows) {
    if (t !== term) {
      endPosting();
      flushBlock();
      term = t;
    }
    if (current && current.rid !== doc) endPosting();
    if (!current) current = { rid: doc, tf: 0, dl: dl.get(doc) ?? 0 };
    current.tf += weightOf.get(col) ?? 0;
  }
  endPosting();
  flushBlock();
  const rowIns = db.prepare('INSERT INTO chunk_post_row(rid, terms) VALUES (?, ?)');
  for (const [rid, terms] of rowTermsOf) rowIns.run(rid, terms.join(' '));
  markPostingsReady(db);
  return dl.size;
}

/**
 * Creates the postings tables; an index written before them gets its postings in one pass over
 * FTS5's (buildPostings), synchronously on open: timed at 100k chunks by bench/postings-upgrade.ts.
 */
export function ensurePostings(db: Database.Database, statements: StatementCache, file: string): void {
  db.exec(POSTINGS_SQL);
  if (postingsReady(statements)) return;
  const rows = Number(db.prepare('SELECT COUNT(*) FROM chunk_fts_docsize').pluck().get());
  db.transaction(() => {
    // An in-memory index is always fresh (nothing to upgrade).
    if (rows === 0 || file === ':memory:') markPostingsReady(db);
    else buildPostings(db, file);
  })();
}

/**
 * The postings writer of an index opened with the postings on (built first when missing, see
 * ensurePostings). Off: null, and the tables of an earlier run with them on are dropped, since nothing
 * keeps them up to date from here and a later run with them on must rebuild them, not trust them.
 */
export function openPostings(
  db: Database.Database,
  statements: StatementCache,
  file: string,
  enabled: boolean,
): PostingWriter | null {
  if (!enabled) {
    db.exec(
      'DROP TABLE IF EXISTS chunk_post; DROP TABLE IF EXISTS chunk_post_row; DROP TABLE IF EXISTS chunk_post_meta;',
    );
    return null;
  }
  ensurePostings(db, statements, file);
  return new PostingWriter(statements);
}
