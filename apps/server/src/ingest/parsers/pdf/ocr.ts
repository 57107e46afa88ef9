/**
 * Scanned pages: render with pdf.js onto an @napi-rs/canvas (bounded size), find ruling lines in the
 * bitmap (image-only tables), OCR the page and turn OCR words into text runs in page points, so the
 * same layout and table analysis applies to scanned and born-digital pages.
 */
import sharp from 'sharp';
import type { OcrEngine, OcrLine } from '../../ocr.js';
import { findGrids, gridCells } from './grid.js';
import type { Box, PageContent, Rule, TextRun } from './model.js';
import { getCanvasFactory, type PdfPageProxy } from './open.js';

/** Rendering bounds: enough for OCR (~200 dpi) without unbounded memory. */
export const OCR_DPI = 200;
const MAX_SIDE = 3000;
const MAX_PIXELS = 9_000_000;

export interface RenderedPage {
  /** 8-bit grayscale pixels. */
  gray: Uint8Array;
  width: number;
  height: number;
  /** Pixels per PDF point. */
  scale: number;
}

/** Scale for rendering a `w`×`h` pt page at about `dpi`, within the pixel bounds. */
export function boundedScale(
  w: number,
  h: number,
  dpi: number,
  maxSide = MAX_SIDE,
  maxPixels = MAX_PIXELS,
): number {
  let scale = dpi / 72;
  scale = Math.min(scale, maxSide / Math.max(w, h));
  if (w * h * scale * scale > maxPixels) scale = Math.sqrt(maxPixels / (w * h));
  return Math.max(scale, 0.05);
}

/** Renders a page on a white background; `read` gets the 2D context before the canvas is released. */
async function withRenderedPage<T>(
  page: PdfPageProxy,
  scale: number,
  read: (ctx: Ctx2d, width: number, height: number, canvas: unknown) => T,
): Promise<T> {
  const CanvasFactory = await getCanvasFactory();
  const viewport = page.getViewport({ scale });
  const width = Math.max(1, Math.ceil(viewport.width));
  const height = Math.max(1, Math.ceil(viewport.height));
  const factory = new CanvasFactory();
  const { canvas, context } = factory.create(width, height);
  try {
    // The canvas types of pdf.js and @napi-rs/canvas differ nominally; the objects are compatible.
    const ctx = context as unknown as Ctx2d;
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, width, height);
    await page.render({ canvas: canvas as never, canvasContext: context as never, viewport }).promise;
    return read(ctx, width, height, canvas);
  } finally {
    factory.destroy({ canvas, context } as never);
  }
}

interface Ctx2d {
  fillStyle: string;
  fillRect(x: number, y: number, w: number, h: number): void;
  getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray };
}

/** Renders a page (white background) to grayscale pixels. */
export async function renderPageGray(page: PdfPageProxy, scale: number): Promise<RenderedPage> {
  return withRenderedPage(page, scale, (ctx, width, height) => {
    const rgba = ctx.getImageData(0, 0, width, height).data;
    const gray = new Uint8Array(width * height);
    for (let i = 0, j = 0; j < gray.length; i += 4, j++)
      gray[j] = (rgba[i] * 77 + rgba[i + 1] * 150 + rgba[i + 2] * 29) >> 8;
    return { gray, width, height, scale };
  });
}

/** Renders a page (white background) to a PNG in colour. */
export async function renderPagePng(page: PdfPageProxy, scale: number): Promise<Buffer> {
  return withRenderedPage(page, scale, (_ctx, _w, _h, canvas) =>
    (canvas as { toBuffer(mime: 'image/png'): Buffer }).toBuffer('image/png'),
  );
}

/** Pixel rectangle of a page-point box, clipped to the bitmap. */
function pixelRect(
  r: RenderedPage,
  b?: Box,
  inset = 0,
): { left: number; top: number; width: number; height: number } {
  const left = Math.max(0, Math.floor((b?.x0 ?? 0) * r.scale) + inset);
  const top = Math.max(0, Math.floor((b?.top ?? 0) * r.scale) + inset);
  const right = Math.min(r.width, Math.ceil((b?.x1 ?? r.width / r.scale) * r.scale) - inset);
  const bottom = Math.min(r.height, Math.ceil((b?.bottom ?? r.height / r.scale) * r.scale) - inset);
  return { left, top, width: Math.max(1, right - left), height: Math.max(1, bottom - top) };
}

/**
 * PNG for OCR of (part of) a grayscale bitmap: contrast-stretched and binarised, so that coloured cell
 * backgrounds and paper tint become white. `pad` adds a white margin (tesseract reads cramped crops badly).
 */
export async function ocrPng(
  r: RenderedPage,
  b?: Box,
  opts: { inset?: number; pad?: number } = {},
): Promise<Buffer> {
  let img = sharp(Buffer.from(r.gray.buffer, r.gray.byteOffset, r.gray.length), {
    raw: { width: r.width, height: r.height, channels: 1 },
  });
  if (b) img = img.extract(pixelRect(r, b, opts.inset ?? 0));
  img = img.normalise().threshold(150);
  if (opts.pad)
    img = img.extend({
      top: opts.pad,
      bottom: opts.pad,
      left: opts.pad,
      right: opts.pad,
      background: '#ffffff',
    });
  return img.png({ compressionLevel: 1 }).toBuffer();
}

/** Share of dark pixels inside a box (is there anything written in a table cell?). */
function ink(r: RenderedPage, b: Box, inset: number): number {
  const { left, top, width, height } = pixelRect(r, b, inset);
  let dark = 0;
  for (let y = top; y < top + height; y++)
    for (let x = left; x < left + width; x++) if (r.gray[y * r.width + x] < 128) dark++;
  return dark / (width * height);
}

/**
 * Thin, long dark strokes in the bitmap: table borders of scanned or pictured tables. A stroke is a run of
 * dark pixels at least `minLen` long whose pixels a few rows (columns) away are mostly light.
 */
export function bitmapRules(r: RenderedPage, region?: Box): Rule[] {
  const { gray, width, height, scale } = r;
  const rx0 = Math.max(0, Math.floor((region?.x0 ?? 0) * scale));
  const rx1 = Math.min(width, Math.ceil((region?.x1 ?? width / scale) * scale));
  const ry0 = Math.max(0, Math.floor((region?.top ?? 0) * scale));
  const ry1 = Math.min(height, Math.ceil((region?.bottom ?? height / scale) * scale));
  const dark = 140;
  const off = Math.max(4, Math.round(2.5 * scale));
  const minLen = Math.max(30, Math.round(0.04 * Math.max(rx1 - rx0, ry1 - ry0)));
  const rules: Rule[] = [];
  const isDark = (x: number, y: number): boolean =>
    x >= 0 && y >= 0 && x < width && y < height && gray[y * width + x] < dark;
  const thin = (x0: number, x1: number, y: number, dy: number): boolean => {
    let far = 0;
    for (let x = x0; x < x1; x += 2) if (isDark(x, y + dy) || isDark(x, y - dy)) far++;
    return far < ((x1 - x0) / 2) * 0.5;
  };
  for (let y = ry0; y < ry1; y++) {
    let start = -1;
    for (let x = rx0; x <= rx1; x++) {
      const d = x < rx1 && gray[y * width + x] < dark;
      if (d && start < 0) start = x;
      else if (!d && start >= 0) {
        if (x - start >= minLen && thin(start, x, y, off))
          rules.push({
            x0: start / scale,
            x1: x / scale,
            top: y / scale,
            bottom: y / scale,
            horizontal: true,
          });
        start = -1;
      }
    }
  }
  for (let x = rx0; x < rx1; x++) {
    let start = -1;
    for (let y = ry0; y <= ry1; y++) {
      const d = y < ry1 && gray[y * width + x] < dark;
      if (d && start < 0) start = y;
      else if (!d && start >= 0) {
        if (y - start >= minLen) {
          let far = 0;
          for (let yy = start; yy < y; yy += 2) if (isDark(x + off, yy) || isDark(x - off, yy)) far++;
          if (far < ((y - start) / 2) * 0.5)
            rules.push({
              x0: x / scale,
              x1: x / scale,
              top: start / scale,
              bottom: y / scale,
              horizontal: false,
            });
        }
        start = -1;
      }
    }
  }
  return rules;
}

/** OCR lines → text runs (one per word) in page points. Low-confidence noise is dropped. */
export function ocrRuns(lines: OcrLine[], scale: number, dx = 0, dy = 0): TextRun[] {
  const runs: TextRun[] = [];
  for (const line of lines) {
    if (line.confidence < 20 && line.words.every((w) => w.confidence < 40)) continue;
    const top = line.y0 / scale + dy;
    const bottom = line.y1 / scale + dy;
    const size = Math.max((bottom - top) / 1.15, 1);
    for (const w of line.words) {
      // Border fragments read as characters, and unsure one- or two-letter marks, are noise.
      if (/^[|¦!_[\]—–-]+$/.test(w.text)) continue;
      if ((w.confidence < 10 && !/[\p{L}\d]{2}/u.test(w.text)) || (w.confidence < 50 && w.text.length <= 2))
        continue;
      const t = (line.baseline[1] - line.baseline[0]) / Math.max(line.x1 - line.x0, 1);
      const baseline = (line.baseline[0] + t * ((w.x0 + w.x1) / 2 - line.x0)) / scale + dy;
      runs.push({
        text: w.text,
        x0: w.x0 / scale + dx,
        x1: w.x1 / scale + dx,
        top,
        bottom,
        size,
        baseline,
        bold: false,
        italic: false,
        mono: false,
        rotated: false,
        confidence: w.confidence,
      });
    }
  }
  return runs;
}

/**
 * OCR of a rendered page or region: a page-layout pass, then — for ruled tables found in the bitmap —
 * a second look at each cell the first pass left empty or read poorly (lone digits, coloured headers).
 */
export async function ocrRegion(
  r: RenderedPage,
  engine: OcrEngine,
  region?: Box,
): Promise<{ runs: TextRun[]; rules: Rule[] }> {
  const dpi = r.scale * 72;
  const rect = pixelRect(r, region);
  const first = await engine.recognize(await ocrPng(r, region), { mode: 'auto', dpi });
  let runs = ocrRuns(first.lines, r.scale, rect.left / r.scale, rect.top / r.scale);
  const rules = bitmapRules(r, region);
  const texts = runs.map((x) => ({ x: (x.x0 + x.x1) / 2, y: (x.top + x.bottom) / 2, text: x.text }));
  const inset = Math.max(3, Math.round(r.scale * 1.5));
  for (const grid of findGrids(rules, texts).grids) {
    for (const cell of gridCells(grid)) {
      const b = cell.box;
      if (b.x1 - b.x0 < 6 || b.bottom - b.top < 6) continue;
      const inside = runs.filter(
        (x) =>
          (x.x0 + x.x1) / 2 > b.x0 &&
          (x.x0 + x.x1) / 2 < b.x1 &&
          (x.top + x.bottom) / 2 > b.top &&
          (x.top + x.bottom) / 2 < b.bottom,
      );
      const weak =
        inside.length > 0 && inside.reduce((a, x) => a + (x.confidence ?? 100), 0) / inside.length < 70;
      if (inside.length && !weak) continue;
      if (!inside.length && ink(r, b, inset) < 0.002) continue;
      const pad = 12;
      const crop = pixelRect(r, b, inset);
      const res = await engine.recognize(await ocrPng(r, b, { inset, pad }), { mode: 'block', dpi });
      const cellRuns = ocrRuns(res.lines, r.scale, (crop.left - pad) / r.scale, (crop.top - pad) / r.scale);
      if (!cellRuns.length) continue;
      const drop = new Set(inside);
      runs = [...runs.filter((x) => !drop.has(x)), ...cellRuns];
    }
  }
  return { runs, rules };
}

/** OCRs a whole rendered page into page content (runs from OCR words, rules from the bitmap). */
export async function ocrPage(
  page: PdfPageProxy,
  pageNo: number,
  engine: OcrEngine,
  base: PageContent,
): Promise<PageContent> {
  const scale = boundedScale(base.width, base.height, OCR_DPI);
  const rendered = await renderPageGray(page, scale);
  const { runs, rules } = await ocrRegion(rendered, engine);
  return { ...base, page: pageNo, runs, rules: [...base.rules, ...rules] };
}
