/**
 * Pictures on otherwise digital pages. Large images with no text drawn over them are rendered and OCRed:
 * when their ruling lines form a grid they are read as tables (image-only tables), otherwise the text
 * they carry (scanned inserts, screenshots, charts' labels) becomes a figure section with the picture.
 */
import sharp from 'sharp';
import type { OcrEngine } from '../../ocr.js';
import type { Section } from '../../types.js';
import { buildLines } from './lines.js';
import { type Box, type PageContent, round2 } from './model.js';
import { OCR_DPI, boundedScale, ocrRegion, renderPageGray, type RenderedPage } from './ocr.js';
import type { PdfPageProxy } from './open.js';
import { tableHtml, tableText } from './table-model.js';
import { detectTables } from './tables.js';
import { buildBlocks, readingOrder } from './layout.js';
import { joinText } from './structure.js';

const MAX_PICTURES_PER_PAGE = 3;
const FIGURE_MAX_SIDE = 1024;

function area(b: Box): number {
  return Math.max(0, b.x1 - b.x0) * Math.max(0, b.bottom - b.top);
}

/** Characters of the text layer whose run centre lies on `b`. */
function textInside(c: PageContent, b: Box): number {
  let n = 0;
  for (const r of c.runs) {
    const cx = (r.x0 + r.x1) / 2;
    const cy = (r.top + r.bottom) / 2;
    if (cx >= b.x0 && cx <= b.x1 && cy >= b.top && cy <= b.bottom) n += r.text.replace(/\s+/g, '').length;
  }
  return n;
}

/** Large pictures on the page that no text is drawn over (a background behind text is no picture). */
export function candidatePictures(c: PageContent): Box[] {
  const pageArea = c.width * c.height;
  return c.images
    .map((b) => ({
      x0: Math.max(0, b.x0),
      x1: Math.min(c.width, b.x1),
      top: Math.max(0, b.top),
      bottom: Math.min(c.height, b.bottom),
    }))
    .filter((b) => area(b) >= 0.06 * pageArea && b.x1 - b.x0 >= 100 && b.bottom - b.top >= 40)
    .filter((b) => textInside(c, b) < 20)
    .sort((a, b) => area(b) - area(a))
    .slice(0, MAX_PICTURES_PER_PAGE);
}

function position(page: number, b: Box): Section['positions'] {
  return [[page, round2(b.x0), round2(b.x1), round2(b.top), round2(b.bottom)]];
}

async function crop(r: RenderedPage, b: Box): Promise<Buffer> {
  const left = Math.max(0, Math.floor(b.x0 * r.scale));
  const top = Math.max(0, Math.floor(b.top * r.scale));
  const width = Math.max(1, Math.min(r.width - left, Math.ceil((b.x1 - b.x0) * r.scale)));
  const height = Math.max(1, Math.min(r.height - top, Math.ceil((b.bottom - b.top) * r.scale)));
  return sharp(Buffer.from(r.gray.buffer, r.gray.byteOffset, r.gray.length), {
    raw: { width: r.width, height: r.height, channels: 1 },
  })
    .extract({ left, top, width, height })
    .resize({ width: FIGURE_MAX_SIDE, height: FIGURE_MAX_SIDE, fit: 'inside', withoutEnlargement: true })
    .jpeg({ quality: 80 })
    .toBuffer();
}

/** Tables and figures read from the page's large pictures. */
export async function readPictures(
  page: PdfPageProxy,
  c: PageContent,
  getEngine: () => Promise<OcrEngine>,
): Promise<Section[]> {
  const pictures = candidatePictures(c);
  if (!pictures.length) return [];
  const scale = boundedScale(c.width, c.height, OCR_DPI);
  const rendered = await renderPageGray(page, scale);
  const out: Section[] = [];
  for (const pic of pictures) {
    const { runs, rules } = await ocrRegion(rendered, await getEngine(), pic);
    const region: PageContent = { ...c, runs, rules, images: [] };
    const lines = buildLines(runs);
    const tables = detectTables(region, lines);
    for (const t of tables) {
      out.push({
        kind: 'table',
        text: tableText(t.table),
        html: tableHtml(t.table),
        positions: position(c.page, t.table.box),
      });
    }
    // Text outside the tables: the picture's own words, in reading order.
    const taken = new Set(tables.flatMap((t) => t.lines));
    const blocks = readingOrder(buildBlocks(lines.lines.filter((l) => !taken.has(l))));
    const text = blocks
      .map((b) => b.lines.reduce((acc, l) => joinText(acc, l.text), ''))
      .filter((t) => t.replace(/[^\p{L}\p{N}]/gu, '').length >= 3)
      .join('\n');
    const words = text.split(/\s+/).filter((w) => /[\p{L}\p{N}]{2}/u.test(w)).length;
    if (words >= 3)
      out.push({ kind: 'figure', text, image: await crop(rendered, pic), positions: position(c.page, pic) });
  }
  return out;
}
