/**
 * Opening PDFs with pdf.js (through unpdf's serverless build, which runs pdf.js's worker code in the
 * calling thread — so a parse is confined to whichever worker thread calls it). Every failure becomes a
 * ParseError with a sentence people can act on.
 */
import { createIsomorphicCanvasFactory, getDocumentProxy, getResolvedPDFJS } from 'unpdf';
import { ParseError } from '../../errors.js';

export type PdfDocument = Awaited<ReturnType<typeof getDocumentProxy>>;
export type PdfPageProxy = Awaited<ReturnType<PdfDocument['getPage']>>;
export type PdfJs = Awaited<ReturnType<typeof getResolvedPDFJS>>;

/** More pages than this is not a document we can sensibly index. */
export const MAX_PAGES = 100_000;

type CanvasFactoryClass = Awaited<ReturnType<typeof createIsomorphicCanvasFactory>>;
let canvasFactory: Promise<CanvasFactoryClass> | undefined;

/** The @napi-rs/canvas-backed canvas factory (loaded once per thread). */
export function getCanvasFactory(): Promise<CanvasFactoryClass> {
  canvasFactory ??= createIsomorphicCanvasFactory(() => import('@napi-rs/canvas'));
  return canvasFactory;
}

export function getPdfJs(): Promise<PdfJs> {
  return getResolvedPDFJS();
}

function hasPdfHeader(bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 1024)).toString('latin1');
  return head.includes('%PDF-');
}

function hasEofMarker(bytes: Uint8Array): boolean {
  const start = Math.max(0, bytes.length - 2048);
  return Buffer.from(bytes.buffer, bytes.byteOffset + start, bytes.length - start)
    .toString('latin1')
    .includes('%%EOF');
}

/** Rejects with `message` when `promise` takes longer than `ms` (pdf.js work on hostile files). */
export async function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new ParseError(message)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Turns a pdf.js failure into a readable ParseError. */
export function pdfError(err: unknown, bytes?: Uint8Array): ParseError {
  if (err instanceof ParseError) return err;
  const name = (err as { name?: string } | null)?.name ?? '';
  const message = (err as { message?: string } | null)?.message ?? String(err);
  if (name === 'PasswordException') {
    return new ParseError(
      'The PDF is encrypted with a password and cannot be read. Remove the password and upload it again.',
    );
  }
  if (bytes && !hasEofMarker(bytes)) {
    return new ParseError(
      'The PDF is truncated (it ends before its end-of-file marker) and cannot be read. Upload the complete file.',
    );
  }
  if (name === 'InvalidPDFException' || name === 'FormatError' || name === 'XRefParseException') {
    return new ParseError(`The PDF is damaged and cannot be read (${message.replace(/\.$/, '')}).`);
  }
  return new ParseError(`The PDF could not be read: ${message.replace(/\.$/, '')}.`);
}

let opens = 0;

/** How many times this thread/process handed a PDF to pdf.js (tests check that tasks share opens). */
export function pdfOpenCount(): number {
  return opens;
}

/** Opens `bytes` as a PDF; throws ParseError for empty, non-PDF, encrypted, damaged or absurd files. */
export async function openPdf(bytes: Uint8Array, opts: { render?: boolean } = {}): Promise<PdfDocument> {
  if (bytes.length === 0) throw new ParseError('The file is empty.');
  if (!hasPdfHeader(bytes)) throw new ParseError('The file is not a PDF (it has no %PDF header).');
  // pdf.js may take ownership of the array it is given: hand it a copy so the caller's buffer stays intact.
  const data = new Uint8Array(bytes);
  opens++;
  let doc: PdfDocument;
  try {
    const CanvasFactory = opts.render ? await getCanvasFactory() : undefined;
    doc = await withTimeout(
      getDocumentProxy(data, {
        verbosity: 0,
        ...(CanvasFactory ? { CanvasFactory } : {}),
        isOffscreenCanvasSupported: false,
        disableFontFace: true,
        // Pictures above this many pixels are skipped instead of decoded (memory, and the canvas
        // library aborts the process on absurd bitmap sizes).
        maxImageSize: 40_000_000,
      }),
      120_000,
      'Opening the PDF took too long; the file is probably damaged.',
    );
  } catch (err) {
    throw pdfError(err, bytes);
  }
  if (doc.numPages < 1) {
    await doc.destroy();
    throw new ParseError('The PDF has no pages.');
  }
  if (doc.numPages > MAX_PAGES) {
    const n = doc.numPages;
    await doc.destroy();
    throw new ParseError(`The PDF declares ${n} pages; at most ${MAX_PAGES} pages are supported.`);
  }
  return doc;
}
