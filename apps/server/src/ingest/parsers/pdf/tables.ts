/**
 * Table detection. Ruled tables come from grids of ruling lines (merged cells from missing borders);
 * unruled tables from text alignment: consecutive rows of short, gutter-separated pieces that share
 * column gutters. Tables take their text out of the reading flow and become one block each.
 */
import { type Grid, type Segment, findGrids } from './grid.js';
import { groupRows, joinRuns, type RowLines } from './lines.js';
import { type Box, type Line, type PageContent, type TextRun, overlapX } from './model.js';
import {
  type TableCell,
  type TableModel,
  compactTable,
  guessHeaderRows,
  spanHeaderGaps,
} from './table-model.js';

export interface DetectedTable {
  table: TableModel;
  lines: Line[];
}

function center(b: Box): [number, number] {
  return [(b.x0 + b.x1) / 2, (b.top + b.bottom) / 2];
}

function inside(b: Box, box: Box, tol = 2): boolean {
  const [cx, cy] = center(b);
  return cx >= box.x0 - tol && cx <= box.x1 + tol && cy >= box.top - tol && cy <= box.bottom + tol;
}

function indexOf(bounds: number[], v: number): number {
  for (let i = 0; i < bounds.length - 1; i++) if (v < bounds[i + 1]) return i;
  return bounds.length - 2;
}

/** Splits a run crossing a column boundary at the space nearest to the boundary. */
function splitRun(run: TextRun, x: number): TextRun[] {
  const w = run.x1 - run.x0;
  const f = (x - run.x0) / w;
  if (f < 0.15 || f > 0.85) return [run];
  const text = run.text;
  const target = Math.round(f * text.length);
  let best = -1;
  for (let d = 0; d <= Math.ceil(text.length * 0.3); d++) {
    if (text[target - d] === ' ') {
      best = target - d;
      break;
    }
    if (text[target + d] === ' ') {
      best = target + d;
      break;
    }
  }
  if (best <= 0 || best >= text.length - 1) return [run];
  const cut = run.x0 + (w * best) / text.length;
  return [
    { ...run, text: text.slice(0, best), x1: cut },
    { ...run, text: text.slice(best + 1), x0: cut + (w / text.length) * 0.5 },
  ];
}

/** Dot leaders ("Item ........ $85") carry no content. */
function stripLeaders(text: string): string {
  return text.replace(/\s*(?:\.\s?){3,}\s*/g, ' ').trim();
}

function cellText(runs: TextRun[]): { text: string; rowTops: number[]; size: number } {
  if (!runs.length) return { text: '', rowTops: [], size: 0 };
  const rows = groupRows(runs);
  const parts = rows.map((r) => joinRuns(r.runs));
  let text = '';
  for (const p of parts) {
    if (!text) text = p;
    else if (/[A-Za-z]-$/.test(text) && /^[a-z]/.test(p)) text = text.slice(0, -1) + p;
    else text += ` ${p}`;
  }
  return {
    text: stripLeaders(text),
    rowTops: rows.map((r) => r.top),
    size: Math.max(...runs.map((r) => r.size)),
  };
}

/** Cells of a ruled grid, with rows holding several aligned text lines split into sub-rows. */
function gridTable(grid: Grid, runs: TextRun[]): TableModel {
  const { xs, ys, owner } = grid;
  const R = ys.length - 1;
  const C = xs.length - 1;
  const cellRuns = new Map<number, TextRun[]>();
  for (const run0 of runs) {
    // A run crossing a column border (text typed across cells) is cut at the border.
    let pieces = [run0];
    for (let c = 1; c < C; c++) {
      pieces = pieces.flatMap((p) => (p.x0 < xs[c] - 2 && p.x1 > xs[c] + 2 ? splitRun(p, xs[c]) : [p]));
    }
    for (const run of pieces) {
      const [cx, cy] = center(run);
      const r = indexOf(ys, cy);
      const c = indexOf(xs, cx);
      const key = owner[r * C + c];
      const list = cellRuns.get(key);
      if (list) list.push(run);
      else cellRuns.set(key, [run]);
    }
  }
  interface Raw {
    r0: number;
    r1: number;
    c0: number;
    c1: number;
    text: string;
    rowTops: number[];
    size: number;
    runs: TextRun[];
  }
  const raws: Raw[] = [];
  const seen = new Set<number>();
  for (let i = 0; i < R * C; i++) {
    const key = owner[i];
    if (seen.has(key)) continue;
    seen.add(key);
    let r1 = Math.floor(key / C);
    let c1 = key % C;
    for (let j = key; j < R * C; j++) {
      if (owner[j] === key) {
        r1 = Math.max(r1, Math.floor(j / C));
        c1 = Math.max(c1, j % C);
      }
    }
    const cr = cellRuns.get(key) ?? [];
    raws.push({ r0: Math.floor(key / C), r1, c0: key % C, c1, ...cellText(cr), runs: cr });
  }
  // Sub-rows: a band whose single-row cells hold k aligned lines in at least two columns is k rows.
  const split = new Array<number>(R).fill(1);
  const anchors: number[][] = Array.from({ length: R }, () => []);
  for (let r = 0; r < R; r++) {
    const band = raws.filter((x) => x.r0 === r && x.r1 === r && x.text);
    const k = Math.max(0, ...band.map((x) => x.rowTops.length));
    if (k < 2) continue;
    const full = band.filter((x) => x.rowTops.length === k);
    if (full.length < 2) continue;
    const ref = full[0].rowTops;
    const aligned = full.every((x) => x.rowTops.every((t, i) => Math.abs(t - ref[i]) < 0.6 * x.size));
    if (!aligned) continue;
    split[r] = k;
    anchors[r] = ref;
  }
  const start: number[] = [];
  let acc = 0;
  for (let r = 0; r < R; r++) {
    start.push(acc);
    acc += split[r];
  }
  const cells: TableCell[] = [];
  for (const x of raws) {
    const lr0 = start[x.r0];
    const span = start[x.r1] + split[x.r1] - lr0;
    const k = split[x.r0];
    if (x.r0 === x.r1 && k > 1 && x.rowTops.length === k) {
      // One cell per sub-row.
      const rows = groupRows(x.runs);
      rows.forEach((row, i) =>
        cells.push({
          r: lr0 + i,
          c: x.c0,
          rowspan: 1,
          colspan: x.c1 - x.c0 + 1,
          text: stripLeaders(joinRuns(row.runs)),
        }),
      );
    } else {
      cells.push({ r: lr0, c: x.c0, rowspan: span, colspan: x.c1 - x.c0 + 1, text: x.text });
    }
  }
  const model = compactTable({ box: grid.box, rows: acc, cols: C, cells, headerRows: 0 });
  return { ...model, headerRows: guessHeaderRows(model) };
}

const WORD_RE = /\S+/g;

function wordCount(s: string): number {
  return s.match(WORD_RE)?.length ?? 0;
}

/** Prose lines (long runs of words) are never table cells. */
function isProse(line: Line): boolean {
  return wordCount(line.text) >= 6 && line.x1 - line.x0 > 12 * line.size;
}

/** A plausible table: enough filled cells, short cells, not one big paragraph in a box. */
function plausible(t: TableModel): boolean {
  const filled = t.cells.filter((c) => c.text);
  if (t.rows < 2 || t.cols < 2 || filled.length < 3) return false;
  const words = filled.map((c) => wordCount(c.text));
  const avg = words.reduce((a, b) => a + b, 0) / filled.length;
  return avg <= 25 && Math.max(...words) <= 150;
}

/** Column separators: x-gaps no cell-like line of the region crosses. */
function columnBounds(lines: Line[], x0: number, x1: number, minGap: number): number[] {
  const spans = lines.map((l) => [l.x0, l.x1] as [number, number]).sort((a, b) => a[0] - b[0]);
  const bounds = [x0];
  let end = spans[0]?.[1] ?? x0;
  for (const [a, b] of spans.slice(1)) {
    if (a - end >= minGap) bounds.push((a + end) / 2);
    end = Math.max(end, b);
  }
  bounds.push(x1);
  return bounds;
}

/** Drops a sparse edge column far from the rest (a text line of a neighbouring page column). */
function trimEdgeColumns(rows: Line[][], size: number): Line[][] {
  for (let pass = 0; pass < 2; pass++) {
    const all = rows.flat();
    const bounds = columnBounds(
      all,
      Math.min(...all.map((l) => l.x0)) - 1,
      Math.max(...all.map((l) => l.x1)) + 1,
      0.5 * size,
    );
    if (bounds.length < 4) return rows;
    for (const edge of [bounds.length - 2, 0]) {
      const lo = bounds[edge];
      const hi = bounds[edge + 1];
      const inCol = (l: Line): boolean => l.x0 >= lo - 0.5 && l.x1 <= hi + 0.5;
      const filled = rows.filter((r) => r.some(inCol)).length;
      const rest = all.filter((l) => !inCol(l));
      const gap =
        edge === 0 ? Math.min(...rest.map((l) => l.x0)) - hi : lo - Math.max(...rest.map((l) => l.x1));
      if (filled < 0.25 * rows.length && gap > 3 * size) {
        rows = rows.map((r) => r.filter((l) => !inCol(l))).filter((r) => r.length);
        break;
      }
    }
  }
  return rows;
}

/**
 * Columns of running text look like table columns when their lines are short (narrow newspaper columns),
 * but their lines fill the column: most are (nearly) as wide as the widest one.
 */
function proseColumns(rows: Line[][], bounds: number[], size: number): number {
  let prose = 0;
  for (let c = 0; c + 1 < bounds.length; c++) {
    const widths = rows
      .flat()
      .filter((l) => (l.x0 + l.x1) / 2 >= bounds[c] && (l.x0 + l.x1) / 2 < bounds[c + 1])
      .map((l) => l.x1 - l.x0);
    if (widths.length < 2) continue;
    const max = Math.max(...widths);
    const full = widths.filter((w) => w >= 0.85 * max).length;
    if (max >= 10 * size && full >= 0.5 * widths.length) prose++;
  }
  return prose;
}

/** Builds a table from aligned rows (each row: its lines, left to right). */
function alignedTable(rows: Line[][]): TableModel | undefined {
  const all = rows.flat();
  const size = all.reduce((s, l) => s + l.size, 0) / all.length;
  const x0 = Math.min(...all.map((l) => l.x0));
  const x1 = Math.max(...all.map((l) => l.x1));
  // Separators come from rows with the most pieces (body rows); wider header cells then span columns.
  const counts = rows.map((r) => r.length).sort((a, b) => a - b);
  const typical = counts[Math.floor(counts.length / 2)];
  const basis = rows.filter((r) => r.length >= typical).flat();
  const bounds = columnBounds(basis, x0 - 1, x1 + 1, 0.5 * size);
  const C = bounds.length - 1;
  if (C < 2) return undefined;
  // At least two columns must be table-like (short cells), not lines of running text.
  if (C - proseColumns(rows, bounds, size) < 2) return undefined;
  const cells: TableCell[] = [];
  rows.forEach((row, r) => {
    const taken = new Set<number>();
    for (const line of row) {
      let c0 = -1;
      let c1 = -1;
      for (let c = 0; c < C; c++) {
        const ov = Math.min(line.x1, bounds[c + 1]) - Math.max(line.x0, bounds[c]);
        if (ov > 0.5 || (line.x1 - line.x0 < 1 && ov >= 0)) {
          if (c0 < 0) c0 = c;
          c1 = c;
        }
      }
      if (c0 < 0) continue;
      let spanFree = true;
      for (let c = c0; c <= c1; c++) if (taken.has(c)) spanFree = false;
      if (!spanFree) {
        const prev = cells.find((x) => x.r === r && x.c <= c0 && c0 < x.c + x.colspan);
        if (prev) prev.text += ` ${line.text}`;
        continue;
      }
      for (let c = c0; c <= c1; c++) taken.add(c);
      cells.push({ r, c: c0, rowspan: 1, colspan: c1 - c0 + 1, text: stripLeaders(line.text) });
    }
    for (let c = 0; c < C; c++) if (!taken.has(c)) cells.push({ r, c, rowspan: 1, colspan: 1, text: '' });
  });
  const box = {
    x0,
    x1,
    top: Math.min(...all.map((l) => l.top)),
    bottom: Math.max(...all.map((l) => l.bottom)),
  };
  const model = compactTable({ box, rows: rows.length, cols: C, cells, headerRows: 0 });
  return spanHeaderGaps({ ...model, headerRows: guessHeaderRows(model) });
}

/** Unruled tables: runs of rows made of several short gutter-separated pieces. */
function alignmentTables(rl: RowLines, free: Set<Line>, hGroups: Segment[][]): DetectedTable[] {
  const rowLines = new Map<number, Line[]>();
  rl.lines.forEach((l, i) => {
    if (!free.has(l) || rl.rowOf[i] < 0) return;
    const list = rowLines.get(rl.rowOf[i]);
    if (list) list.push(l);
    else rowLines.set(rl.rowOf[i], [l]);
  });
  const order = [...rowLines.keys()].sort((a, b) => a - b);
  const framed = (top: number, bottom: number): boolean =>
    hGroups.some(
      (g) => g[0].at <= top + 2 && g[g.length - 1].at >= bottom - 2 && g[g.length - 1].at - g[0].at < 300,
    );
  const out: DetectedTable[] = [];
  let region: Line[][] = [];
  let candidates = 0;
  const flush = (): void => {
    // Trailing single-piece rows are not part of the table.
    while (region.length && region[region.length - 1].length < 2) region.pop();
    const all = region.flat();
    const top = Math.min(...all.map((l) => l.top));
    const bottom = Math.max(...all.map((l) => l.bottom));
    const enough = candidates >= 3 || (candidates >= 2 && framed(top, bottom));
    if (region.length >= 2 && enough) {
      const size = all.reduce((a, l) => a + l.size, 0) / all.length;
      const rows = trimEdgeColumns(region, size);
      const t = rows.length >= 2 ? alignedTable(rows) : undefined;
      if (t && plausible(t)) out.push({ table: t, lines: rows.flat() });
    }
    region = [];
    candidates = 0;
  };
  let lastBottom = -Infinity;
  let singles = 0;
  for (const ri of order) {
    const lines = rowLines.get(ri)!.sort((a, b) => a.x0 - b.x0);
    const cellLike = lines.filter((l) => !isProse(l));
    const size = Math.max(...lines.map((l) => l.size));
    const top = Math.min(...lines.map((l) => l.top));
    const near = top - lastBottom < 2.5 * size;
    const isCandidate = cellLike.length >= 2 && cellLike.length >= lines.length - 1;
    if (isCandidate) {
      if (!near && region.length) flush();
      // Keep only the pieces within the region's horizontal extent (prose beside a table stays text).
      region.push(cellLike);
      candidates++;
      singles = 0;
      lastBottom = Math.max(...cellLike.map((l) => l.bottom));
    } else if (region.length && near && lines.length === 1 && !isProse(lines[0]) && singles === 0) {
      const regionLines = region.flat();
      const rx0 = Math.min(...regionLines.map((l) => l.x0));
      const rx1 = Math.max(...regionLines.map((l) => l.x1));
      if (
        overlapX(lines[0], { x0: rx0, x1: rx1, top: 0, bottom: 0 }) > 0 &&
        lines[0].x0 >= rx0 - size &&
        lines[0].x1 <= rx1 + size
      ) {
        region.push(lines);
        singles++;
        lastBottom = lines[0].bottom;
      } else if (region.length) flush();
    } else if (region.length) {
      flush();
      singles = 0;
    }
  }
  if (region.length) flush();
  return out;
}

/** Finds the page's tables; returns them with the lines they took. */
export function detectTables(page: PageContent, rl: RowLines): DetectedTable[] {
  const texts = page.runs.map((r) => ({ x: (r.x0 + r.x1) / 2, y: (r.top + r.bottom) / 2, text: r.text }));
  const { grids, hGroups } = findGrids(page.rules, texts);
  const out: DetectedTable[] = [];
  const free = new Set(rl.lines);
  for (const grid of grids) {
    const lines = rl.lines.filter((l) => free.has(l) && inside(l, grid.box));
    if (!lines.length) continue;
    const runs = lines.flatMap((l) => l.runs).filter((r) => inside(r, grid.box));
    const table = gridTable(grid, runs);
    if (!plausible(table)) continue;
    for (const l of lines) free.delete(l);
    out.push({ table, lines });
  }
  for (const t of alignmentTables(rl, free, hGroups)) out.push(t);
  return out;
}
