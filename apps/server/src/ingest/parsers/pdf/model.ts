/**
 * Geometry shared by the PDF layout stages. All coordinates are PDF points with the origin at the
 * TOP-LEFT of the (rotated) page: x grows to the right, y grows downwards.
 */

export interface Box {
  x0: number;
  x1: number;
  top: number;
  bottom: number;
}

/** One piece of text drawn with one font (a pdf.js text item or an OCR word). */
export interface TextRun extends Box {
  text: string;
  /** Font size in points (glyph height for OCR words). */
  size: number;
  baseline: number;
  bold: boolean;
  italic: boolean;
  mono: boolean;
  /** Not horizontal left-to-right (rotated or vertical writing): kept as its own line. */
  rotated: boolean;
  /** OCR confidence (0–100) for recognised words. */
  confidence?: number;
}

/** An axis-aligned ruling line (table borders, underlines). Thin filled rectangles count too. */
export interface Rule {
  x0: number;
  x1: number;
  top: number;
  bottom: number;
  horizontal: boolean;
}

/** Text runs on one baseline that belong together (never across a column gutter). */
export interface Line extends Box {
  runs: TextRun[];
  text: string;
  size: number;
  bold: boolean;
  /** Share of the line's characters set in bold (run-in headings are partly bold). */
  boldShare: number;
  mono: boolean;
}

export interface PageContent {
  /** 1-based page number. */
  page: number;
  width: number;
  height: number;
  runs: TextRun[];
  rules: Rule[];
  /** Where pictures are painted (scanned pages are one big picture). */
  images: Box[];
}

export function overlapX(a: Box, b: Box): number {
  return Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);
}

export function overlapY(a: Box, b: Box): number {
  return Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
}

export function unionBox(boxes: Box[]): Box {
  let x0 = Infinity;
  let x1 = -Infinity;
  let top = Infinity;
  let bottom = -Infinity;
  for (const b of boxes) {
    if (b.x0 < x0) x0 = b.x0;
    if (b.x1 > x1) x1 = b.x1;
    if (b.top < top) top = b.top;
    if (b.bottom > bottom) bottom = b.bottom;
  }
  return { x0, x1, top, bottom };
}

export function median(values: number[]): number {
  if (!values.length) return 0;
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Chinese and Japanese characters: scripts written without spaces between words (Korean uses spaces). */
export const CJK_RE = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef\u3000-\u303f]/;

export function round2(n: number): number {
  return Math.round(n * 100) / 100;
}

/**
 * A data value rather than a label: it starts with a number ("1967", "(1)", "$0", "34.5%") or digits make
 * up at least 40% of it ("Up to $3,790"); short codes such as "Q1" are labels. Dot leaders are ignored.
 */
export function isDataText(text: string): boolean {
  const t = text.replace(/\.{2,}|…+/g, '').replace(/\s+/g, '');
  if (!t || /^[A-Za-z]{1,2}\d{1,2}$/.test(t)) return false;
  if (/^[(+\-−–$€£¥#]*\d/.test(t)) return true;
  const digits = t.replace(/\D/g, '').length;
  return digits / t.length >= 0.4;
}
