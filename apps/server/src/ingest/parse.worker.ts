/**
 * Worker entry (a child process or a thread, see util/run-in-worker.ts) for CPU-heavy ingestion work
 * (util/worker-pool.ts has the protocol):
 * - `parse-chunk`: bytes → parseDocument → chunkDocument → chunk drafts with token counts;
 * - `probe`: page count of a PDF / data-row count of a spreadsheet (task splitting, API.md §19.8);
 * - `text`: bytes → plain text (`document/parse`);
 * - `thumbnail`: bytes → PNG thumbnail (longest side ≤ 100 px) or null;
 * - `stats`: how many PDFs this worker opened and how many it keeps open (tests).
 * Errors cross the thread boundary as `{ name, message }`; ParseError messages are shown to people.
 */
import { parentPort } from 'node:worker_threads';
import { progressMessage } from '@lectern/shared';
import { chunkDocument } from './chunkers/index.js';
import { tableFieldMap } from './chunkers/table.js';
import { parseDocument } from './parsers/index.js';
import { openPdf, pdfOpenCount } from './parsers/pdf/open.js';
import { OpenPdfCache } from './parsers/pdf/open-cache.js';
import { countTokens } from './tokens.js';
import type { ChunkDraft, ParserConfig } from './types.js';

export interface ParseChunkJob {
  bytes: Uint8Array;
  ext: string;
  fileName: string;
  fromPage: number;
  toPage: number;
  parserId: string;
  config: ParserConfig;
  language: string;
  /** The document's blob key: its PDF stays open in this worker for its next tasks (open-cache.ts). */
  docKey?: string;
}

export interface ParseChunkResult {
  chunks: ChunkDraft[];
  tokens: number[];
  notes: string[];
  pageCount?: number;
  /** `{ "<column>_<type>": "<header>" }` of a table-method document. */
  fieldMap?: Record<string, string>;
}

export interface ProbeResult {
  pageCount?: number;
  rowCount?: number;
}

type Message = { id: number; op: string; payload: unknown };

/** PDFs opened for one task and kept for the next tasks of the same document. */
const openPdfs = new OpenPdfCache();

/** The channel back to the pool: the thread's port, or the child process's IPC channel. */
const port: {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (m: Message) => void): void;
} | null = parentPort
  ? parentPort
  : process.send
    ? {
        postMessage: (m) => process.send?.(m),
        on: (_event, listener) => process.on('message', (m) => listener(m as Message)),
      }
    : null;
if (!port) throw new Error('parse.worker must run in a worker thread or a child process with IPC');
// A child whose server is gone (killed, crashed) has nothing left to do.
if (!parentPort) process.on('disconnect', () => process.exit(0));

function toBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

async function parseChunk(id: number, job: ParseChunkJob): Promise<ParseChunkResult> {
  const progress = (fraction: number, message: string) => {
    port?.postMessage({ id, type: 'progress', fraction, message });
  };
  const doc = await parseDocument(toBuffer(job.bytes), {
    ext: job.ext,
    fileName: job.fileName,
    fromPage: job.fromPage,
    toPage: job.toPage,
    layoutRecognize:
      typeof job.config.layout_recognize === 'string' ? job.config.layout_recognize : undefined,
    html4excel: job.config.html4excel === true,
    language: job.language,
    onProgress: progress,
    pdfOpener: openPdfs.opener(job.docKey),
  });
  progress(1, progressMessage('finishParse'));
  const chunkCtx = { docName: job.fileName, language: job.language, config: job.config };
  const chunks = chunkDocument(job.parserId, doc, chunkCtx);
  const tokens = chunks.map((c) => countTokens(c.content_with_weight));
  // Table method: the columns' detected types, stored on the KB as its field map (API.md §19.7).
  const fieldMap = job.parserId === 'table' ? tableFieldMap(doc, chunkCtx) : undefined;
  return { chunks, tokens, notes: doc.notes ?? [], pageCount: doc.pageCount, fieldMap };
}

function countDataRows(text: string): number {
  const lines = text.split(/\r?\n/).filter((l) => l.trim().length > 0);
  return Math.max(0, lines.length - 1);
}

async function probe(job: { bytes: Uint8Array; ext: string; docKey?: string }): Promise<ProbeResult> {
  if (job.ext === 'pdf' && job.docKey) {
    // Kept open: the document's first parse tasks are routed here and read it without opening again.
    const lease = await openPdfs.acquire(job.docKey, job.bytes);
    const pageCount = lease.doc.numPages;
    await lease.release({ from: 0, to: 0 });
    return { pageCount };
  }
  if (job.ext === 'pdf') {
    const doc = await openPdf(job.bytes);
    const pageCount = doc.numPages;
    await doc.destroy();
    return { pageCount };
  }
  if (job.ext === 'txt') return { rowCount: countDataRows(toBuffer(job.bytes).toString('utf8')) };
  if (job.ext === 'xlsx' || job.ext === 'xls' || job.ext === 'csv') {
    // The spreadsheet parser's own reader: zip-bomb guards, and rows counted as the parser counts them.
    const { countSpreadsheetRows } = await import('./parsers/xlsx.js');
    return { rowCount: await countSpreadsheetRows(toBuffer(job.bytes), job.ext) };
  }
  return {};
}

async function text(job: { bytes: Uint8Array; ext: string; fileName: string }): Promise<string> {
  const doc = await parseDocument(toBuffer(job.bytes), { ext: job.ext, fileName: job.fileName });
  return doc.sections
    .map((s) => s.text)
    .filter((t) => t.trim().length > 0)
    .join('\n');
}

async function handle(msg: Message): Promise<unknown> {
  switch (msg.op) {
    case 'parse-chunk':
      return parseChunk(msg.id, msg.payload as ParseChunkJob);
    case 'probe':
      return probe(msg.payload as { bytes: Uint8Array; ext: string; docKey?: string });
    case 'text':
      return text(msg.payload as { bytes: Uint8Array; ext: string; fileName: string });
    case 'ping':
      return true;
    case 'stats':
      return { pdfOpens: pdfOpenCount(), openPdfs: openPdfs.size };
    case 'thumbnail': {
      const job = msg.payload as { bytes: Uint8Array; ext: string };
      // Loaded on first use: rendering pulls in the canvas and image libraries.
      const { makeThumbnail } = await import('./thumbnail.js');
      return (await makeThumbnail(toBuffer(job.bytes), job.ext)) ?? null;
    }
    default:
      throw new Error(`unknown op ${msg.op}`);
  }
}

port.on('message', (msg: Message) => {
  handle(msg).then(
    (value) => port.postMessage({ id: msg.id, type: 'result', value }),
    (err: unknown) => {
      const e = err instanceof Error ? err : new Error(String(err));
      port.postMessage({ id: msg.id, type: 'error', name: e.name, message: e.message });
    },
  );
});
