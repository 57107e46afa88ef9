/**
 * Lines → blocks (paragraph-like groups) and the page's reading order. Ordering follows Breuel's
 * topological rules: of two blocks sharing x-range the upper comes first; of two side by side the left
 * comes first unless a block spanning both lies between them. Columns (2, 3 or more) are therefore read
 * one after the other, while full-width titles, figures and tables cut the page into bands.
 */
import { type Box, type Line, overlapX } from './model.js';

export interface Block extends Box {
  lines: Line[];
  size: number;
  bold: boolean;
  mono: boolean;
}

export const BULLET_RE =
  /^\s*(?:[•●○◦▪▫■□‣⁃∙·\-–—*]\s+|\(?\d{1,3}[.)]\s+|\(?[a-zA-Z][.)]\s+|\([ivxIVX]{1,5}\)\s+)/;
const STRONG_BULLET_RE = /^\s*[•●○◦▪▫■□‣⁃∙·]/;

function toBlock(lines: Line[]): Block {
  let x0 = Infinity;
  let x1 = -Infinity;
  let top = Infinity;
  let bottom = -Infinity;
  let chars = 0;
  let boldChars = 0;
  let monoChars = 0;
  const sizes = new Map<number, number>();
  for (const l of lines) {
    x0 = Math.min(x0, l.x0);
    x1 = Math.max(x1, l.x1);
    top = Math.min(top, l.top);
    bottom = Math.max(bottom, l.bottom);
    const n = l.text.length;
    chars += n;
    if (l.bold) boldChars += n;
    if (l.mono) monoChars += n;
    sizes.set(l.size, (sizes.get(l.size) ?? 0) + n);
  }
  const size = [...sizes.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 10;
  return {
    lines,
    x0,
    x1,
    top,
    bottom,
    size,
    bold: boldChars / (chars || 1) >= 0.6,
    mono: monoChars / (chars || 1) >= 0.6,
  };
}

interface Open {
  lines: Line[];
  x0: number;
  x1: number;
  pitch: number;
}

/** Whether `line` continues the paragraph `b`. */
function continues(b: Open, line: Line): number | null {
  const last = b.lines[b.lines.length - 1];
  const size = Math.max(line.size, last.size);
  if (Math.abs(line.size - last.size) > 0.15 * size) return null;
  // A wholly bold line (a heading) does not run on into normal text, nor normal text into one.
  if ((last.boldShare > 0.95 && line.boldShare < 0.5) || (last.boldShare < 0.5 && line.boldShare > 0.95))
    return null;
  if (line.mono !== last.mono) return null;
  const gap = line.top - last.bottom;
  if (gap < -0.4 * size || gap > (line.mono ? 1.0 : 0.75) * size) return null;
  const pitch = line.top - last.top;
  if (b.pitch > 0 && pitch > b.pitch * 1.35 + 1) return null;
  // Must sit under the paragraph.
  const ov = overlapX(line, { x0: b.x0, x1: b.x1, top: 0, bottom: 0 });
  if (ov < 0.3 * Math.min(line.x1 - line.x0, b.x1 - b.x0)) return null;
  if (STRONG_BULLET_RE.test(line.text) || (BULLET_RE.test(line.text) && BULLET_RE.test(b.lines[0].text)))
    return null;
  // A short previous line ends a paragraph when the next one is indented (or starts a new item).
  const lastShort = last.x1 < b.x1 - 2 * size;
  const indented = line.x0 > b.x0 + 0.8 * size && line.x0 > last.x0 + 0.8 * size;
  if (lastShort && indented && !line.mono) return null;
  return gap;
}

/** Groups a page's lines into blocks. */
export function buildBlocks(lines: Line[]): Block[] {
  const sorted = [...lines].sort((a, b) => a.top - b.top || a.x0 - b.x0);
  const open: Open[] = [];
  const done: Open[] = [];
  for (const line of sorted) {
    let best: Open | undefined;
    let bestGap = Infinity;
    for (const b of open) {
      const g = continues(b, line);
      if (g !== null && g < bestGap) {
        best = b;
        bestGap = g;
      }
    }
    // Blocks that can no longer continue (far above this line) are closed.
    for (let i = open.length - 1; i >= 0; i--) {
      const last = open[i].lines[open[i].lines.length - 1];
      if (open[i] !== best && line.top - last.bottom > 3 * last.size) done.push(...open.splice(i, 1));
    }
    if (best) {
      const last = best.lines[best.lines.length - 1];
      const pitch = line.top - last.top;
      best.pitch = best.pitch > 0 ? Math.min(best.pitch, pitch) : pitch;
      best.lines.push(line);
      best.x0 = Math.min(best.x0, line.x0);
      best.x1 = Math.max(best.x1, line.x1);
    } else open.push({ lines: [line], x0: line.x0, x1: line.x1, pitch: 0 });
  }
  return [...done, ...open].map((b) => toBlock(b.lines));
}

const TOL = 1;

/** Reading order of boxes on one page (see the file comment). */
export function readingOrder<T extends Box>(items: T[]): T[] {
  const n = items.length;
  if (n < 2) return [...items];
  if (n > 400) return [...items].sort((a, b) => a.top - b.top || a.x0 - b.x0);
  const xov = (a: Box, b: Box): boolean =>
    overlapX(a, b) > Math.min(TOL, 0.2 * Math.min(a.x1 - a.x0, b.x1 - b.x0));
  const before = (a: Box, b: Box): boolean => {
    if (xov(a, b)) return a.top + a.bottom < b.top + b.bottom;
    if (a.x1 > b.x0 + TOL) return false;
    // a is left of b: first, unless something spanning both lies between them vertically.
    const upper = a.top <= b.top ? a : b;
    const lower = upper === a ? b : a;
    for (const c of items) {
      if (c === a || c === b) continue;
      if (c.top >= upper.bottom - TOL && c.bottom <= lower.top + TOL && xov(c, a) && xov(c, b)) return false;
    }
    return true;
  };
  const indeg = new Int32Array(n);
  const succ: number[][] = Array.from({ length: n }, () => []);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      if (i === j) continue;
      if (before(items[i], items[j]) && !(j < i && before(items[j], items[i]))) {
        succ[i].push(j);
        indeg[j]++;
      }
    }
  }
  const placed = new Uint8Array(n);
  const out: T[] = [];
  while (out.length < n) {
    let pick = -1;
    for (let i = 0; i < n; i++) {
      if (placed[i] || indeg[i] > 0) continue;
      if (
        pick < 0 ||
        items[i].top < items[pick].top - TOL ||
        (Math.abs(items[i].top - items[pick].top) <= TOL && items[i].x0 < items[pick].x0)
      )
        pick = i;
    }
    if (pick < 0) {
      // A cycle (overlapping boxes): break it at the top-most remaining item.
      for (let i = 0; i < n; i++) if (!placed[i] && (pick < 0 || items[i].top < items[pick].top)) pick = i;
    }
    placed[pick] = 1;
    out.push(items[pick]);
    for (const j of succ[pick]) indeg[j]--;
  }
  return out;
}
