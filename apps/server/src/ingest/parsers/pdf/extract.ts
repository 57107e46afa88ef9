/**
 * Reads one pdf.js page into plain geometry: text runs with font facts (size, bold, italic, monospace),
 * ruling lines and picture boxes, all in top-left page coordinates.
 */
import type { PageContent, Rule, TextRun, Box } from './model.js';
import { getPdfJs, type PdfPageProxy } from './open.js';

type Matrix = [number, number, number, number, number, number];

interface TextItemLike {
  str: string;
  transform: number[];
  width: number;
  height: number;
  fontName: string;
}

interface FontFacts {
  bold: boolean;
  italic: boolean;
  mono: boolean;
}

function multiply(m: Matrix, n: ArrayLike<number>): Matrix {
  return [
    m[0] * n[0] + m[2] * n[1],
    m[1] * n[0] + m[3] * n[1],
    m[0] * n[2] + m[2] * n[3],
    m[1] * n[2] + m[3] * n[3],
    m[0] * n[4] + m[2] * n[5] + m[4],
    m[1] * n[4] + m[3] * n[5] + m[5],
  ];
}

function apply(m: Matrix, x: number, y: number): [number, number] {
  return [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
}

const BOLD_RE = /bold|black|heavy|demi|-medi\b|medium|[-,]bd\b|\bbd$|(?:cm|sf|ec)bx\d/i;
const ITALIC_RE = /italic|ital\b|oblique|[-,]it\b|\bit$|(?:cm|sf|ec)(?:ti|sl|it)\d/i;
const MONO_RE = /mono|courier|consol|menlo|code|typewriter|inconsolata|(?:cm|sf|ec)tt\d/i;

/** Font facts from the loaded font objects (available once the page's operator list was built). */
function fontFacts(
  page: PdfPageProxy,
  styles: Record<string, { fontFamily?: string }>,
): Map<string, FontFacts> {
  const out = new Map<string, FontFacts>();
  for (const [key, style] of Object.entries(styles)) {
    let name = '';
    let flags: { bold?: boolean; black?: boolean; italic?: boolean; isMonospace?: boolean } = {};
    try {
      if (page.commonObjs.has(key)) {
        // pdf.js font objects are untyped in the public API; we read a few documented fields.
        const font = page.commonObjs.get(key) as {
          name?: string;
          bold?: boolean;
          black?: boolean;
          italic?: boolean;
          isMonospace?: boolean;
        };
        name = font?.name ?? '';
        flags = font ?? {};
      }
    } catch {
      /* font not resolved: fall back to the style's family */
    }
    out.set(key, {
      bold: Boolean(flags.bold || flags.black) || BOLD_RE.test(name),
      italic: Boolean(flags.italic) || ITALIC_RE.test(name),
      // pdf.js's fallback family says "monospace" for some fixed-pitch-flagged text fonts: trust names first.
      mono: MONO_RE.test(name) || (!name && (Boolean(flags.isMonospace) || style.fontFamily === 'monospace')),
    });
  }
  return out;
}

function clampAscent(a: number | undefined): number {
  return a !== undefined && a > 0.5 && a < 1.2 ? a : 0.8;
}

function clampDescent(d: number | undefined): number {
  return d !== undefined && d < 0 && d > -0.5 ? d : -0.2;
}

/** Turns text items into runs in viewport space. */
export function itemsToRuns(
  items: TextItemLike[],
  styles: Record<string, { ascent?: number; descent?: number; vertical?: boolean; fontFamily?: string }>,
  viewport: Matrix,
  facts: Map<string, FontFacts>,
): TextRun[] {
  const runs: TextRun[] = [];
  for (const item of items) {
    if (!item.str || !item.str.trim()) continue;
    const style = styles[item.fontName] ?? {};
    const m = multiply(viewport, item.transform);
    const sx = Math.hypot(m[0], m[1]);
    const sy = Math.hypot(m[2], m[3]);
    if (sx < 0.01 || sy < 0.01) continue;
    const f = facts.get(item.fontName) ?? { bold: false, italic: false, mono: false };
    const ascent = clampAscent(style.ascent);
    const descent = clampDescent(style.descent);
    // Text space → viewport: unit vectors along the baseline (u) and up the glyphs (v).
    const horizontal =
      Math.abs(m[1]) < 0.01 * sx && Math.abs(m[2]) < 0.01 * sy && m[0] > 0 && m[3] < 0 && !style.vertical;
    const size = sy;
    if (horizontal) {
      const baseline = m[5];
      // pdf.js widths are in the page's user space; scale by the viewport's x scale (1 at scale 1).
      const width = item.width * (Math.hypot(viewport[0], viewport[1]) || 1);
      runs.push({
        text: item.str,
        x0: m[4],
        x1: m[4] + Math.max(width, 0.1),
        top: baseline - ascent * size,
        bottom: baseline - descent * size,
        size,
        baseline,
        bold: f.bold,
        italic: f.italic,
        mono: f.mono,
        rotated: false,
      });
      continue;
    }
    // Rotated or vertical text: bounding box of the run's corners.
    const len = item.width / (Math.hypot(item.transform[0], item.transform[1]) || 1);
    const corners = [
      apply(m, 0, descent),
      apply(m, 0, ascent),
      apply(m, len, descent),
      apply(m, len, ascent),
    ];
    const xs = corners.map((c) => c[0]);
    const ys = corners.map((c) => c[1]);
    runs.push({
      text: item.str,
      x0: Math.min(...xs),
      x1: Math.max(...xs),
      top: Math.min(...ys),
      bottom: Math.max(...ys),
      size: Math.min(sx, sy),
      baseline: Math.max(...ys),
      bold: f.bold,
      italic: f.italic,
      mono: f.mono,
      rotated: true,
    });
  }
  return runs;
}

interface Ops {
  save: number;
  restore: number;
  transform: number;
  constructPath: number;
  stroke: number;
  closeStroke: number;
  fill: number;
  eoFill: number;
  fillStroke: number;
  eoFillStroke: number;
  closeFillStroke: number;
  closeEOFillStroke: number;
  paintFormXObjectBegin: number;
  paintFormXObjectEnd: number;
  paintImageXObject: number;
  paintInlineImageXObject: number;
  paintImageMaskXObject: number;
  paintImageXObjectRepeat: number;
  setLineWidth: number;
}

/** Ruling lines and image boxes from the operator list. */
export function scanOperators(
  fnArray: number[],
  argsArray: unknown[],
  viewport: Matrix,
  OPS: Ops,
): { rules: Rule[]; images: Box[] } {
  const rules: Rule[] = [];
  const images: Box[] = [];
  let ctm: Matrix = viewport;
  let lineWidth = 1;
  const stack: Array<{ ctm: Matrix; lineWidth: number }> = [];
  const strokeOps = new Set([
    OPS.stroke,
    OPS.closeStroke,
    OPS.fillStroke,
    OPS.eoFillStroke,
    OPS.closeFillStroke,
    OPS.closeEOFillStroke,
  ]);
  const fillOps = new Set([
    OPS.fill,
    OPS.eoFill,
    OPS.fillStroke,
    OPS.eoFillStroke,
    OPS.closeFillStroke,
    OPS.closeEOFillStroke,
  ]);
  const addRule = (x0: number, y0: number, x1: number, y1: number, thickness: number): void => {
    const w = Math.abs(x1 - x0);
    const h = Math.abs(y1 - y0);
    if (h <= Math.max(2, thickness) && w > 4) {
      const y = (y0 + y1) / 2;
      rules.push({ x0: Math.min(x0, x1), x1: Math.max(x0, x1), top: y, bottom: y, horizontal: true });
    } else if (w <= Math.max(2, thickness) && h > 4) {
      const x = (x0 + x1) / 2;
      rules.push({ x0: x, x1: x, top: Math.min(y0, y1), bottom: Math.max(y0, y1), horizontal: false });
    }
  };
  for (let i = 0; i < fnArray.length; i++) {
    const fn = fnArray[i];
    const args = argsArray[i] as unknown[] | null;
    if (fn === OPS.save) stack.push({ ctm, lineWidth });
    else if (fn === OPS.restore) ({ ctm, lineWidth } = stack.pop() ?? { ctm, lineWidth });
    else if (fn === OPS.transform && args) ctm = multiply(ctm, args as number[]);
    else if (fn === OPS.setLineWidth && args) lineWidth = Number(args[0]) || 0;
    else if (fn === OPS.paintFormXObjectBegin && args) {
      stack.push({ ctm, lineWidth });
      const matrix = args[0] as number[] | null;
      if (matrix && matrix.length === 6) ctm = multiply(ctm, matrix);
    } else if (fn === OPS.paintFormXObjectEnd) ({ ctm, lineWidth } = stack.pop() ?? { ctm, lineWidth });
    else if (
      fn === OPS.paintImageXObject ||
      fn === OPS.paintInlineImageXObject ||
      fn === OPS.paintImageMaskXObject ||
      fn === OPS.paintImageXObjectRepeat
    ) {
      const pts = [apply(ctm, 0, 0), apply(ctm, 1, 0), apply(ctm, 0, 1), apply(ctm, 1, 1)];
      const xs = pts.map((p) => p[0]);
      const ys = pts.map((p) => p[1]);
      images.push({
        x0: Math.min(...xs),
        x1: Math.max(...xs),
        top: Math.min(...ys),
        bottom: Math.max(...ys),
      });
    } else if (fn === OPS.constructPath && args) {
      const paintOp = args[0] as number;
      const stroke = strokeOps.has(paintOp);
      const fill = fillOps.has(paintOp);
      if (!stroke && !fill) continue;
      const data = (args[1] as ArrayLike<number>[] | undefined)?.[0];
      if (!data) continue;
      const scale = Math.hypot(ctm[0], ctm[1]) || 1;
      const thickness = stroke ? Math.max(lineWidth * scale, 0.5) : 0;
      // DrawOPS: 0 moveTo(x,y), 1 lineTo(x,y), 2 curveTo(6 numbers), 3 closePath.
      let sx = 0;
      let sy = 0;
      let cx = 0;
      let cy = 0;
      const poly: Array<[number, number]> = [];
      const flushPolygon = (): void => {
        if (fill && poly.length >= 4 && poly.length <= 5) {
          // A filled rectangle: thin ones are rules, and the edges of boxes outline table cells.
          const xs = poly.map((p) => p[0]);
          const ys = poly.map((p) => p[1]);
          const x0 = Math.min(...xs);
          const x1 = Math.max(...xs);
          const y0 = Math.min(...ys);
          const y1 = Math.max(...ys);
          if (y1 - y0 <= 3 || x1 - x0 <= 3) addRule(x0, y0, x1, y1, 3);
        }
        poly.length = 0;
      };
      for (let k = 0; k < data.length;) {
        const op = data[k];
        if (op === 0) {
          flushPolygon();
          [cx, cy] = apply(ctm, data[k + 1], data[k + 2]);
          sx = cx;
          sy = cy;
          poly.push([cx, cy]);
          k += 3;
        } else if (op === 1) {
          const [nx, ny] = apply(ctm, data[k + 1], data[k + 2]);
          if (stroke) addRule(cx, cy, nx, ny, thickness);
          cx = nx;
          cy = ny;
          poly.push([cx, cy]);
          k += 3;
        } else if (op === 2) {
          [cx, cy] = apply(ctm, data[k + 5], data[k + 6]);
          poly.length = 0;
          k += 7;
        } else if (op === 3) {
          if (stroke) addRule(cx, cy, sx, sy, thickness);
          cx = sx;
          cy = sy;
          k += 1;
        } else break;
      }
      flushPolygon();
    }
  }
  return { rules, images };
}

/** Reads a page: text runs (with font facts), ruling lines and picture boxes. */
export async function readPage(
  page: PdfPageProxy,
  pageNo: number,
): Promise<{ content: PageContent; opCount: number }> {
  const pdfjs = await getPdfJs();
  const viewport = page.getViewport({ scale: 1 });
  const vt = viewport.transform as Matrix;
  // The operator list first: it loads the fonts, whose names tell bold/italic/monospace apart.
  const opList = await page.getOperatorList();
  const text = await page.getTextContent();
  const styles = text.styles as Record<
    string,
    { ascent?: number; descent?: number; vertical?: boolean; fontFamily?: string }
  >;
  const facts = fontFacts(page, styles);
  const items = (text.items as Array<Partial<TextItemLike>>).filter(
    (i): i is TextItemLike => typeof i.str === 'string',
  );
  const runs = itemsToRuns(items, styles, vt, facts);
  const { rules, images } = scanOperators(opList.fnArray, opList.argsArray, vt, pdfjs.OPS as unknown as Ops);
  return {
    content: { page: pageNo, width: viewport.width, height: viewport.height, runs, rules, images },
    opCount: opList.fnArray.length,
  };
}
