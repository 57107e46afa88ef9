/**
 * Opened PDFs kept by a parse worker between the tasks of one document (issue 17 item 4): a PDF is
 * split into `task_page_size`-page tasks, and the pool routes a document's tasks to the worker that
 * already holds it (WorkerPool `affinity`), so pdf.js parses the file's structure once per worker
 * instead of once per task. An entry is keyed by the document's blob key and a hash of its bytes (a
 * replaced file never reuses a stale document) and is closed when every page of the document has been
 * read through it, when it is evicted (least recently used, entry and byte budget), after it sat idle
 * for a while, or after a parse of it failed (pdf.js state after an error is not trusted).
 * A worker runs one job at a time, so an entry is never used by two parses at once.
 */
import { xxh64 } from '@node-rs/xxhash';
import { openPdf, type PdfDocument } from './open.js';

export interface OpenPdfLease {
  doc: PdfDocument;
  /** Records pages [from, to) as read; closes the document once all of its pages were read. */
  release(read: { from: number; to: number } | null): Promise<void>;
}

/** What parsePdf needs to borrow an opened document instead of opening its own. */
export interface PdfOpener {
  open(bytes: Uint8Array): Promise<OpenPdfLease>;
}

interface Entry {
  key: string;
  doc: PdfDocument;
  bytes: number;
  read: Uint8Array;
  readCount: number;
  idle: NodeJS.Timeout | null;
}

export interface OpenPdfCacheOptions {
  maxEntries: number;
  /** Sum of the cached files' sizes above which the least recently used entries are closed. */
  maxBytes: number;
  idleMs: number;
}

const DEFAULTS: OpenPdfCacheOptions = { maxEntries: 3, maxBytes: 256 * 2 ** 20, idleMs: 30_000 };

export class OpenPdfCache {
  /** Insertion order = recency (least recently used first). */
  private readonly entries = new Map<string, Entry>();
  private readonly opts: OpenPdfCacheOptions;

  constructor(opts: Partial<OpenPdfCacheOptions> = {}) {
    this.opts = { ...DEFAULTS, ...opts };
  }

  get size(): number {
    return this.entries.size;
  }

  /** An opener for one document (its blob key), or a plain one-shot opener without a key. */
  opener(docKey: string | undefined): PdfOpener {
    if (!docKey) {
      return {
        open: async (bytes) => {
          const doc = await openPdf(bytes, { render: true });
          return { doc, release: () => doc.destroy().catch(() => undefined) };
        },
      };
    }
    return { open: (bytes) => this.acquire(docKey, bytes) };
  }

  async acquire(docKey: string, bytes: Uint8Array): Promise<OpenPdfLease> {
    const key = `${docKey}\u0000${bytes.byteLength}\u0000${xxh64(bytes).toString(16)}`;
    let entry = this.entries.get(key);
    if (entry) {
      this.entries.delete(key);
      if (entry.idle) clearTimeout(entry.idle);
      entry.idle = null;
    } else {
      const doc = await openPdf(bytes, { render: true });
      entry = {
        key,
        doc,
        bytes: bytes.byteLength,
        read: new Uint8Array(doc.numPages),
        readCount: 0,
        idle: null,
      };
    }
    // Held by the running parse: out of the map, so eviction never closes it under the parse.
    const held = entry;
    return {
      doc: held.doc,
      release: async (read) => {
        if (!read) return close(held);
        for (let p = Math.max(0, read.from); p < Math.min(read.to, held.read.length); p++) {
          if (held.read[p] === 0) {
            held.read[p] = 1;
            held.readCount++;
          }
        }
        if (held.readCount >= held.read.length) return close(held);
        await this.keep(held);
      },
    };
  }

  /** Closes every cached document. */
  async clear(): Promise<void> {
    const all = [...this.entries.values()];
    this.entries.clear();
    await Promise.all(all.map(close));
  }

  private async keep(entry: Entry): Promise<void> {
    const previous = this.entries.get(entry.key);
    this.entries.delete(entry.key);
    if (previous && previous !== entry) await close(previous);
    this.entries.set(entry.key, entry);
    entry.idle = setTimeout(() => {
      if (this.entries.get(entry.key) !== entry) return;
      this.entries.delete(entry.key);
      void close(entry);
    }, this.opts.idleMs);
    entry.idle.unref();
    let total = 0;
    for (const e of this.entries.values()) total += e.bytes;
    for (const e of this.entries.values()) {
      if (this.entries.size <= this.opts.maxEntries && total <= this.opts.maxBytes) break;
      this.entries.delete(e.key);
      total -= e.bytes;
      await close(e);
    }
  }
}

async function close(entry: Entry): Promise<void> {
  if (entry.idle) clearTimeout(entry.idle);
  entry.idle = null;
  await entry.doc.destroy().catch(() => undefined);
}
