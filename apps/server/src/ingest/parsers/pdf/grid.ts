/**
 * Ruling lines → table grids. Collinear pieces are merged (double borders, dashed and segmented
 * rules), connected rules form a grid, and a missing border between two grid cells means the cells are
 * merged (rowspan/colspan).
 */
import { type Box, type Rule, isDataText } from './model.js';

export interface Segment {
  /** y for horizontal segments, x for vertical ones. */
  at: number;
  from: number;
  to: number;
  /** Where pieces drawn end to end met (rules drawn cell by cell mark row/column boundaries there). */
  joints?: number[];
}

export interface Grid {
  box: Box;
  /** Column boundaries (left to right) and row boundaries (top to bottom). */
  xs: number[];
  ys: number[];
  /** Merged-cell groups: every grid cell (r, c) maps to its group's top-left cell index r*C+c. */
  owner: Int32Array;
}

const SNAP = 2.5;

/** A text run's centre and text, for text-aware cell merging. */
export interface GridText {
  x: number;
  y: number;
  text: string;
}

/** Merges collinear rule pieces into long segments. */
export function mergeSegments(items: Segment[]): Segment[] {
  const sorted = [...items].sort((a, b) => a.at - b.at || a.from - b.from);
  const out: Segment[] = [];
  let i = 0;
  while (i < sorted.length) {
    // A band of rules within SNAP of each other are one line (double borders, thick rules).
    let j = i;
    let sum = 0;
    while (j < sorted.length && sorted[j].at - sorted[i].at <= SNAP) sum += sorted[j++].at;
    const at = sum / (j - i);
    const band = sorted.slice(i, j).sort((a, b) => a.from - b.from);
    let cur: Segment = { at, from: band[0].from, to: band[0].to, joints: [] };
    for (const s of band.slice(1)) {
      if (s.from <= cur.to + SNAP) {
        if (s.from >= cur.to - SNAP && s.to > cur.to + SNAP) cur.joints!.push((s.from + cur.to) / 2);
        cur.to = Math.max(cur.to, s.to);
      } else {
        out.push(cur);
        cur = { at, from: s.from, to: s.to, joints: [] };
      }
    }
    out.push(cur);
    i = j;
  }
  return out;
}

export function splitRules(rules: Rule[]): { h: Segment[]; v: Segment[] } {
  const h = mergeSegments(
    rules.filter((r) => r.horizontal).map((r) => ({ at: (r.top + r.bottom) / 2, from: r.x0, to: r.x1 })),
  );
  const v = mergeSegments(
    rules.filter((r) => !r.horizontal).map((r) => ({ at: (r.x0 + r.x1) / 2, from: r.top, to: r.bottom })),
  );
  return { h, v };
}

function find(parent: Int32Array, i: number): number {
  while (parent[i] !== i) {
    parent[i] = parent[parent[i]];
    i = parent[i];
  }
  return i;
}

function union(parent: Int32Array, a: number, b: number): void {
  const ra = find(parent, a);
  const rb = find(parent, b);
  if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
}

/** Connected groups of horizontal and vertical segments that touch each other. */
export function ruleComponents(h: Segment[], v: Segment[]): Array<{ h: Segment[]; v: Segment[] }> {
  const n = h.length + v.length;
  const parent = new Int32Array(n).map((_, i) => i);
  const tol = 3;
  for (let i = 0; i < h.length; i++) {
    for (let j = 0; j < v.length; j++) {
      const a = h[i];
      const b = v[j];
      if (b.at >= a.from - tol && b.at <= a.to + tol && a.at >= b.from - tol && a.at <= b.to + tol)
        union(parent, i, h.length + j);
    }
  }
  const groups = new Map<number, { h: Segment[]; v: Segment[] }>();
  for (let i = 0; i < n; i++) {
    const root = find(parent, i);
    let g = groups.get(root);
    if (!g) groups.set(root, (g = { h: [], v: [] }));
    if (i < h.length) g.h.push(h[i]);
    else g.v.push(v[i - h.length]);
  }
  return [...groups.values()];
}

function cluster(values: number[], tol: number): number[] {
  const s = [...values].sort((a, b) => a - b);
  const out: number[] = [];
  let group: number[] = [];
  for (const x of s) {
    if (group.length && x - group[group.length - 1] > tol) {
      out.push(group.reduce((a, b) => a + b, 0) / group.length);
      group = [];
    }
    group.push(x);
  }
  if (group.length) out.push(group.reduce((a, b) => a + b, 0) / group.length);
  return out;
}

/** Length of [from, to] covered by segments at `at` (within SNAP). */
function covered(segs: Segment[], at: number, from: number, to: number): number {
  const parts: Array<[number, number]> = [];
  for (const s of segs) {
    if (Math.abs(s.at - at) > SNAP + 0.5) continue;
    const a = Math.max(from, s.from);
    const b = Math.min(to, s.to);
    if (b > a) parts.push([a, b]);
  }
  parts.sort((p, q) => p[0] - q[0]);
  let total = 0;
  let end = -Infinity;
  for (const [a, b] of parts) {
    if (b <= end) continue;
    total += b - Math.max(a, end);
    end = b;
  }
  return total;
}

/**
 * Builds a grid from one connected group of rules, or undefined when it is not a grid. `centers` are the
 * centres of the text runs on the page: two rows not separated by a rule are still two rows when every
 * cell of both holds text (tables whose rows are not ruled).
 */
export function buildGrid(comp: { h: Segment[]; v: Segment[] }, texts: GridText[] = []): Grid | undefined {
  if (comp.h.length < 2 || comp.v.length < 1) return undefined;
  const x0 = Math.min(...comp.h.map((s) => s.from), ...comp.v.map((s) => s.at));
  const x1 = Math.max(...comp.h.map((s) => s.to), ...comp.v.map((s) => s.at));
  const top = Math.min(...comp.v.map((s) => s.from), ...comp.h.map((s) => s.at));
  const bottom = Math.max(...comp.v.map((s) => s.to), ...comp.h.map((s) => s.at));
  if (x1 - x0 < 20 || bottom - top < 10) return undefined;
  // Open sides (no outer vertical border) are closed by the table's extent; rules that start or end
  // inside the table (sub-column rules under a group header) add boundaries too.
  const xs = cluster(
    [x0, x1, ...comp.v.map((s) => s.at), ...comp.h.flatMap((s) => [s.from, s.to, ...(s.joints ?? [])])],
    3,
  );
  const ys = cluster(
    [top, bottom, ...comp.h.map((s) => s.at), ...comp.v.flatMap((s) => [s.from, s.to, ...(s.joints ?? [])])],
    3,
  );
  const R = ys.length - 1;
  const C = xs.length - 1;
  if (R < 1 || C < 1 || R * C > 40_000) return undefined;
  // 1. Within a row, cells without a border between them are one cell (colspan).
  const segOf = new Int32Array(R * C);
  const segs: Array<{ r0: number; r1: number; c0: number; c1: number }> = [];
  for (let r = 0; r < R; r++) {
    let c0 = 0;
    for (let c = 0; c < C; c++) {
      const last = c === C - 1;
      const border = !last && covered(comp.v, xs[c + 1], ys[r], ys[r + 1]) >= 0.6 * (ys[r + 1] - ys[r]);
      if (last || border) {
        segs.push({ r0: r, r1: r, c0, c1: c });
        for (let k = c0; k <= c; k++) segOf[r * C + k] = segs.length - 1;
        c0 = c + 1;
      }
    }
  }
  const hasText = new Uint8Array(R * C);
  const cellText: string[] = new Array(R * C).fill('');
  for (const t of texts) {
    if (t.x < xs[0] || t.x > xs[C] || t.y < ys[0] || t.y > ys[R]) continue;
    let r = 0;
    while (r < R - 1 && t.y >= ys[r + 1]) r++;
    let c = 0;
    while (c < C - 1 && t.x >= xs[c + 1]) c++;
    hasText[r * C + c] = 1;
    cellText[r * C + c] += ` ${t.text}`;
  }
  // The first row whose cells are mostly data values ends the header.
  let firstDataRow = R;
  for (let r = 0; r < R && firstDataRow === R; r++) {
    const filled = cellText.slice(r * C, r * C + C).filter((t) => t.trim());
    if (filled.length && filled.filter(isDataText).length >= filled.length / 2) firstDataRow = r;
  }
  const segFull = segs.map((sg) => {
    for (let c = sg.c0; c <= sg.c1; c++) if (hasText[sg.r0 * C + c]) return true;
    return false;
  });
  const rowFull = Array.from({ length: R }, (_, r) => segs.every((sg, i) => sg.r0 !== r || segFull[i]));
  // 2. A cell continues into the row below when that row has a cell of the same columns and no border
  // separates them (rowspan): always when one of the two is empty, and for two texts (one cell written
  // on two lines) only when neither row is a complete row of text.
  const owner = new Int32Array(R * C);
  const rootOf = segs.map((_, i) => i);
  for (let r = 0; r + 1 < R; r++) {
    for (let c = 0; c < C;) {
      const a = segOf[r * C + c];
      const b = segOf[(r + 1) * C + c];
      const sa = segs[a];
      const sb = segs[b];
      // Text on both sides: one label written on two lines in the header rows (above the first row
      // with numbers); elsewhere two cells when either row is a complete row of text.
      const labels = r + 1 < firstDataRow && firstDataRow < R;
      const separate = segFull[a] && segFull[b] && !labels && (rowFull[r] || rowFull[r + 1]);
      if (sa.c0 === sb.c0 && sa.c1 === sb.c1 && !separate) {
        const span = xs[sa.c1 + 1] - xs[sa.c0];
        if (covered(comp.h, ys[r + 1], xs[sa.c0], xs[sa.c1 + 1]) < 0.6 * span) rootOf[b] = rootOf[a];
      }
      c = sa.c1 + 1;
    }
  }
  for (let i = 0; i < R * C; i++) {
    const s = segs[rootOf[segOf[i]]];
    owner[i] = s.r0 * C + s.c0;
  }
  return { box: { x0: xs[0], x1: xs[C], top: ys[0], bottom: ys[R] }, xs, ys, owner };
}

/** Grids of the page, plus groups of horizontal-only rules (booktabs-style tables). */
export function findGrids(rules: Rule[], texts: GridText[] = []): { grids: Grid[]; hGroups: Segment[][] } {
  const { h, v } = splitRules(rules);
  const grids: Grid[] = [];
  const loneH: Segment[] = [];
  for (const comp of ruleComponents(h, v)) {
    const grid = buildGrid(comp, texts);
    if (grid && grid.xs.length >= 3 && grid.ys.length >= 3) grids.push(grid);
    else if (!comp.v.length) loneH.push(...comp.h);
  }
  // Horizontal rules of (nearly) the same extent stacked within a short distance frame a table.
  const hGroups: Segment[][] = [];
  const byExtent = loneH.filter((s) => s.to - s.from > 40).sort((a, b) => a.at - b.at);
  const used = new Set<Segment>();
  for (const s of byExtent) {
    if (used.has(s)) continue;
    const group = [s];
    used.add(s);
    for (const t of byExtent) {
      if (used.has(t) || t.at <= group[group.length - 1].at) continue;
      if (t.at - group[group.length - 1].at > 400) break;
      const sameExtent = Math.abs(t.from - s.from) < 6 && Math.abs(t.to - s.to) < 6;
      const inside = t.from >= s.from - 6 && t.to <= s.to + 6 && t.to - t.from > 0.3 * (s.to - s.from);
      if (sameExtent || inside) {
        group.push(t);
        used.add(t);
      }
    }
    if (group.length >= 2) hGroups.push(group);
  }
  return { grids, hGroups };
}

/** The cells of a grid: merged groups with their grid spans and boxes. */
export function gridCells(grid: Grid): Array<{ r0: number; r1: number; c0: number; c1: number; box: Box }> {
  const C = grid.xs.length - 1;
  const R = grid.ys.length - 1;
  const spans = new Map<number, { r0: number; r1: number; c0: number; c1: number }>();
  for (let i = 0; i < R * C; i++) {
    const key = grid.owner[i];
    const r = Math.floor(i / C);
    const c = i % C;
    const s = spans.get(key);
    if (!s) spans.set(key, { r0: r, r1: r, c0: c, c1: c });
    else {
      s.r1 = Math.max(s.r1, r);
      s.c1 = Math.max(s.c1, c);
    }
  }
  return [...spans.values()].map((s) => ({
    ...s,
    box: { x0: grid.xs[s.c0], x1: grid.xs[s.c1 + 1], top: grid.ys[s.r0], bottom: grid.ys[s.r1 + 1] },
  }));
}
