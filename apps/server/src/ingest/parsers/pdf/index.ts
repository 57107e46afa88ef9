/**
 * PDF → ordered sections. "DeepDOC" (default): our geometric layout analysis — lines, gutters/columns,
 * tables (ruled and aligned), titles, lists, code, margins removed, OCR for scanned pages and pictured
 * tables. "Plain Text": each page's text in content order, no analysis. Pure function of its input (no
 * app context), safe to run in a worker thread; pages are read one at a time and released.
 */
import { progressMessage } from '@lectern/shared';
import type { ParsedDocument, ParseOptions, Section } from '../../types.js';
import { chooseOcrLanguages, createOcrEngine, type OcrEngine } from '../../ocr.js';
import { readPage } from './extract.js';
import { buildBlocks, readingOrder } from './layout.js';
import { buildLines, type RowLines } from './lines.js';
import { type Box, type Line, type PageContent, type TextRun, round2 } from './model.js';
import { ocrPage } from './ocr.js';
import { openPdf, pdfError, withTimeout, type PdfDocument } from './open.js';
import { bodySize, marginLines, toSections, type PageItems, type PageLines } from './structure.js';
import { tableHtml, tableText } from './table-model.js';
import { detectTables, type DetectedTable } from './tables.js';
import { readPictures } from './pictures.js';

const PAGE_TIMEOUT_MS = 120_000;

interface PageWork extends PageLines {
  rl: RowLines;
  content: PageContent;
  /** Tables and figures read from pictures on the page. */
  pictures: Section[];
}

function textChars(runs: TextRun[]): number {
  let n = 0;
  for (const r of runs) n += r.text.replace(/\s+/g, '').length;
  return n;
}

function area(b: Box): number {
  return Math.max(0, b.x1 - b.x0) * Math.max(0, b.bottom - b.top);
}

/** A page needs OCR when it has (almost) no text layer but paints pictures or many vector shapes. */
function needsOcr(c: PageContent, opCount: number): boolean {
  // Running heads and footers do not count: a scanned page often carries a digital header.
  const body = c.runs.filter(
    (r) =>
      r.top > c.height * 0.1 && r.bottom < c.height * 0.9 && r.x0 > c.width * 0.06 && r.x1 < c.width * 0.94,
  );
  if (textChars(body) >= 30) return false;
  const pageArea = c.width * c.height;
  const pictured = c.images.reduce((s, b) => s + area(b), 0) >= 0.1 * pageArea;
  return pictured || opCount > 800;
}

function isPlainText(mode?: string): boolean {
  return /^plain\s*text$/i.test((mode ?? '').trim());
}

/** Plain Text mode: the page's runs in content order, one line per baseline. */
function plainSection(c: PageContent): Section | undefined {
  const lines: string[] = [];
  let cur = '';
  let prev: TextRun | undefined;
  let box: Box | undefined;
  for (const r of c.runs) {
    if (prev && Math.abs(r.baseline - prev.baseline) > 0.5 * Math.min(r.size, prev.size)) {
      lines.push(cur.trim());
      cur = '';
    } else if (prev && r.x0 - prev.x1 > 0.15 * r.size && !/\s$/.test(cur)) cur += ' ';
    cur += r.text;
    prev = r;
    box = box
      ? {
          x0: Math.min(box.x0, r.x0),
          x1: Math.max(box.x1, r.x1),
          top: Math.min(box.top, r.top),
          bottom: Math.max(box.bottom, r.bottom),
        }
      : { x0: r.x0, x1: r.x1, top: r.top, bottom: r.bottom };
  }
  if (cur.trim()) lines.push(cur.trim());
  const text = lines.filter(Boolean).join('\n');
  if (!text || !box) return undefined;
  return {
    kind: 'text',
    text,
    positions: [[c.page, round2(box.x0), round2(box.x1), round2(box.top), round2(box.bottom)]],
  };
}

/** Layout analysis of one page: its tables (found first) and the lines left for text. */
function pageTables(w: PageWork): { tables: DetectedTable[]; rest: Line[] } {
  const tables = detectTables(w.content, w.rl);
  const taken = new Set<Line>(tables.flatMap((t) => t.lines));
  return { tables, rest: w.rl.lines.filter((l) => !taken.has(l)) };
}

/** Blocks of the page's text lines, ordered together with its tables. */
function orderPage(w: PageWork, tables: DetectedTable[], lines: Line[]): PageItems {
  const blocks = buildBlocks(lines);
  type Item = Box & { item: PageItems['items'][number] };
  const items: Item[] = blocks.map((b) => ({
    x0: b.x0,
    x1: b.x1,
    top: b.top,
    bottom: b.bottom,
    item: { kind: 'block', block: b },
  }));
  for (const t of tables) {
    const b = t.table.box;
    const section: Section = {
      kind: 'table',
      text: tableText(t.table),
      html: tableHtml(t.table),
      positions: [[w.page, round2(b.x0), round2(b.x1), round2(b.top), round2(b.bottom)]],
    };
    items.push({ ...b, item: { kind: 'section', section } });
  }
  for (const s of w.pictures) {
    const [, x0, x1, top, bottom] = s.positions![0];
    items.push({ x0, x1, top, bottom, item: { kind: 'section', section: s } });
  }
  return { page: w.page, items: readingOrder(items).map((i) => i.item) };
}

/** Parses a PDF into ordered sections (see the file comment). Throws ParseError on unreadable input. */
export async function parsePdf(buffer: Buffer | Uint8Array, opts: ParseOptions): Promise<ParsedDocument> {
  const bytes = buffer instanceof Uint8Array ? buffer : new Uint8Array(buffer);
  // A parse worker lends a document it already opened for an earlier task of the same file.
  const lease = opts.pdfOpener
    ? await opts.pdfOpener.open(bytes)
    : await openPdf(bytes, { render: true }).then((d) => ({
        doc: d,
        release: () => d.destroy().catch(() => undefined),
      }));
  const doc: PdfDocument = lease.doc;
  let engine: OcrEngine | undefined;
  let read: { from: number; to: number } | null = null;
  try {
    const total = doc.numPages;
    const from = Math.min(Math.max(0, Math.floor(opts.fromPage ?? 0)), total);
    const to = Math.min(Math.max(from, Math.floor(opts.toPage ?? total)), total);
    const plain = isPlainText(opts.layoutRecognize);
    const notes: string[] = [];
    const works: PageWork[] = [];
    const plainSections: Section[] = [];
    let sample = '';
    let ocrPages = 0;
    const getEngine = async (): Promise<OcrEngine> =>
      (engine ??= await createOcrEngine(chooseOcrLanguages(opts.language, sample, opts.fileName)));
    const progress = async (fraction: number, message: string): Promise<void> => {
      await opts.onProgress?.(Math.min(1, Math.max(0, fraction)), message);
    };
    await progress(0, progressMessage('pdfReading', { count: to - from, total }));
    for (let p = from; p < to; p++) {
      const page = await doc.getPage(p + 1).catch((err: unknown) => {
        throw pdfError(err, bytes);
      });
      try {
        const { content: base, opCount } = await withTimeout(
          readPage(page, p + 1),
          PAGE_TIMEOUT_MS,
          `Page ${p + 1} of the PDF took too long to read; the file is probably damaged.`,
        ).catch((err: unknown) => {
          throw pdfError(err, bytes);
        });
        if (sample.length < 4000) sample += base.runs.map((r) => r.text).join(' ');
        let content = base;
        if (plain) {
          const s = plainSection(content);
          if (s) plainSections.push(s);
        } else {
          if (needsOcr(base, opCount)) {
            await progress((p - from) / (to - from), progressMessage('pdfOcrPage', { page: p + 1, total }));
            content = await ocrPage(page, p + 1, await getEngine(), base);
            ocrPages++;
          }
          const pictures = content === base ? await readPictures(page, base, getEngine) : [];
          const rl = buildLines(content.runs);
          works.push({
            page: p + 1,
            width: content.width,
            height: content.height,
            lines: rl.lines,
            rl,
            content,
            pictures,
          });
        }
      } finally {
        page.cleanup();
      }
      await progress((p + 1 - from) / (to - from), progressMessage('pdfPageRead', { page: p + 1, total }));
    }
    read = { from, to };
    if (plain) return { sections: plainSections, pageCount: total, notes };
    const analysed = works.map((w) => pageTables(w));
    const textPages: PageLines[] = works.map((w, i) => ({ ...w, lines: analysed[i].rest }));
    const drop = marginLines(textPages);
    const body = bodySize(textPages);
    const pages = works.map((w, i) =>
      orderPage(
        w,
        analysed[i].tables,
        analysed[i].rest.filter((l) => !drop.has(l)),
      ),
    );
    const { sections, title } = toSections(pages, body);
    const tables = sections.filter((s) => s.kind === 'table').length;
    if (ocrPages)
      notes.push(progressMessage(ocrPages > 1 ? 'pdfOcrUsedMany' : 'pdfOcrUsedOne', { count: ocrPages }));
    if (tables) notes.push(progressMessage(tables > 1 ? 'pdfTablesMany' : 'pdfTablesOne', { count: tables }));
    const figures = sections.filter((s) => s.kind === 'figure').length;
    if (figures)
      notes.push(progressMessage(figures > 1 ? 'pdfPicturesMany' : 'pdfPicturesOne', { count: figures }));
    return { sections, pageCount: total, title, notes };
  } finally {
    if (engine) await engine.terminate();
    // Pages read (null after a failure: the document is closed rather than kept).
    await lease.release(read);
  }
}
