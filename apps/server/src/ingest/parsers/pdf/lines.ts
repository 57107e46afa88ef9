/**
 * Text runs → rows (same baseline band) → lines (row pieces that read together). A row is split at a
 * horizontal gap only when the gap is a gutter: wide, or a whitespace channel that the neighbouring rows
 * share (columns, table cells). Word gaps in justified prose are never split.
 */
import { CJK_RE, type Line, type TextRun, overlapX } from './model.js';

export interface Row {
  top: number;
  bottom: number;
  size: number;
  baseline: number;
  runs: TextRun[];
}

function height(b: { top: number; bottom: number }): number {
  return Math.max(b.bottom - b.top, 0.1);
}

/** Drops runs drawn twice at (almost) the same place — fake bold and shadows. */
function dedupe(runs: TextRun[]): TextRun[] {
  const seen = new Map<string, TextRun[]>();
  const out: TextRun[] = [];
  for (const r of runs) {
    const key = r.text;
    const same = seen.get(key);
    if (same?.some((s) => Math.abs(s.x0 - r.x0) < 1.5 && Math.abs(s.top - r.top) < 1.5)) continue;
    if (same) same.push(r);
    else seen.set(key, [r]);
    out.push(r);
  }
  return out;
}

/** Groups horizontal runs into rows: same baseline, or a smaller run (super/subscript) inside the band. */
export function groupRows(input: TextRun[]): Row[] {
  const runs = dedupe(input.filter((r) => !r.rotated)).sort(
    (a, b) => a.top + a.bottom - (b.top + b.bottom) || a.x0 - b.x0,
  );
  const rows: Row[] = [];
  for (const run of runs) {
    let best: Row | undefined;
    let bestScore = 0;
    for (let i = rows.length - 1, seen = 0; i >= 0 && seen < 12; i--, seen++) {
      const row = rows[i];
      if (row.bottom < run.top - 3 * run.size) break;
      const similar = Math.min(row.size, run.size) / Math.max(row.size, run.size) >= 0.85;
      let score: number;
      if (similar) {
        const d = Math.abs(row.baseline - run.baseline);
        if (d > 0.3 * Math.min(row.size, run.size)) continue;
        score = 2 - d / run.size;
      } else {
        const ov = Math.min(row.bottom, run.bottom) - Math.max(row.top, run.top);
        score = ov / Math.min(height(row), height(run));
        if (score < 0.5) continue;
      }
      if (score <= bestScore) continue;
      // Two runs at the same x cannot share a row (superscripts may sit over the next run's start,
      // so only runs of similar size collide).
      const collides = row.runs.some(
        (o) =>
          Math.min(o.size, run.size) / Math.max(o.size, run.size) > 0.85 &&
          overlapX(o, run) > 0.5 * Math.min(o.x1 - o.x0, run.x1 - run.x0),
      );
      if (collides) continue;
      best = row;
      bestScore = score;
    }
    if (!best) {
      rows.push({ top: run.top, bottom: run.bottom, size: run.size, baseline: run.baseline, runs: [run] });
      continue;
    }
    best.runs.push(run);
    // The row's band and baseline follow its main text, not its superscripts.
    if (run.size > best.size * 1.15) {
      best.top = run.top;
      best.bottom = run.bottom;
      best.size = run.size;
      best.baseline = run.baseline;
    } else if (run.size >= best.size * 0.85) {
      best.top = Math.min(best.top, run.top);
      best.bottom = Math.max(best.bottom, run.bottom);
    }
  }
  for (const row of rows) row.runs.sort((a, b) => a.x0 - b.x0);
  return rows.sort((a, b) => a.top - b.top);
}

interface Gap {
  row: number;
  /** Index of the first run after the gap. */
  at: number;
  x0: number;
  x1: number;
  size: number;
}

/** Widest free stretch of `row` inside [x0, x1] (the row's own gaps between runs). */
function freeWithin(row: Row, x0: number, x1: number): number {
  let best = 0;
  let cursor = x0;
  for (const r of row.runs) {
    if (r.x1 <= cursor) continue;
    if (r.x0 >= x1) break;
    best = Math.max(best, Math.min(r.x0, x1) - cursor);
    cursor = Math.max(cursor, r.x1);
  }
  return Math.max(best, x1 - cursor);
}

/** Decides which gaps are gutters, looking at up to three neighbouring rows on each side. */
function isGutter(rows: Row[], gap: Gap): boolean {
  const width = gap.x1 - gap.x0;
  if (width >= 2.5 * gap.size) return true;
  const need = Math.min(0.6 * gap.size, 0.8 * width);
  let spanning = 0;
  let blocked = 0;
  const row = rows[gap.row];
  for (const dir of [-1, 1]) {
    let found = 0;
    for (let i = gap.row + dir; i >= 0 && i < rows.length && found < 3; i += dir) {
      const n = rows[i];
      const dist = dir < 0 ? row.top - n.bottom : n.top - row.bottom;
      if (dist > 3 * gap.size) break;
      if (dist < -0.5 * gap.size) continue;
      const first = n.runs[0];
      const last = n.runs[n.runs.length - 1];
      if (first.x0 >= gap.x0 || last.x1 <= gap.x1) continue;
      found++;
      spanning++;
      if (freeWithin(n, gap.x0, gap.x1) < need) blocked++;
    }
  }
  if (spanning === 0) return width > 1.5 * gap.size;
  return blocked <= spanning / 3;
}

const BULLET_ONLY_RE = /^[•●○◦▪▫■□‣⁃∙·➢➤►▶✓✔\-–—*]$/;
const ENUM_ONLY_RE = /^(?:\(?\d{1,3}[.)]|\(?[a-zA-Z][.)]|\(?[ivxIVX]{1,4}[.)])$/;
const SPACE_RE = /\s$/;
const LEAD_SPACE_RE = /^\s/;

/** Joins runs left to right, inserting spaces where the gap says there is one. */
export function joinRuns(runs: TextRun[]): string {
  let text = '';
  let prev: TextRun | undefined;
  for (const r of runs) {
    if (prev) {
      const gap = r.x0 - prev.x1;
      const size = Math.min(prev.size, r.size);
      const a = text.slice(-1);
      const b = r.text.charAt(0);
      const cjk = CJK_RE.test(a) && CJK_RE.test(b);
      const threshold = cjk ? 0.6 * size : 0.15 * size;
      if (gap > threshold && !SPACE_RE.test(text) && !LEAD_SPACE_RE.test(r.text)) text += ' ';
    }
    text += r.text;
    if (!prev || r.x1 > prev.x1) prev = r;
  }
  return text.replace(/\s+/g, ' ').trim();
}

function dominant<T>(runs: TextRun[], pick: (r: TextRun) => T): T {
  const weight = new Map<T, number>();
  let best = pick(runs[0]);
  let bestW = -1;
  for (const r of runs) {
    const k = pick(r);
    const w = (weight.get(k) ?? 0) + r.text.length;
    weight.set(k, w);
    if (w > bestW) {
      bestW = w;
      best = k;
    }
  }
  return best;
}

export function makeLine(runs: TextRun[]): Line {
  let x0 = Infinity;
  let x1 = -Infinity;
  let top = Infinity;
  let bottom = -Infinity;
  const size = dominant(runs, (r) => Math.round(r.size * 2) / 2);
  for (const r of runs) {
    x0 = Math.min(x0, r.x0);
    x1 = Math.max(x1, r.x1);
    // Superscripts and subscripts do not stretch the line's band.
    if (r.size >= size * 0.85 || runs.length === 1) {
      top = Math.min(top, r.top);
      bottom = Math.max(bottom, r.bottom);
    }
  }
  if (!Number.isFinite(top)) {
    top = Math.min(...runs.map((r) => r.top));
    bottom = Math.max(...runs.map((r) => r.bottom));
  }
  const chars = runs.reduce((n, r) => n + r.text.trim().length, 0) || 1;
  const boldChars = runs.reduce((n, r) => n + (r.bold ? r.text.trim().length : 0), 0);
  const monoChars = runs.reduce((n, r) => n + (r.mono ? r.text.trim().length : 0), 0);
  return {
    runs,
    text: joinRuns(runs),
    x0,
    x1,
    top,
    bottom,
    size,
    bold: boldChars / chars >= 0.6,
    boldShare: boldChars / chars,
    mono: monoChars / chars >= 0.6,
  };
}

export interface RowLines {
  rows: Row[];
  /** Lines in row order; `rowOf[i]` is the row index of line i. */
  lines: Line[];
  rowOf: number[];
}

/** Splits rows into lines at gutters. */
export function buildLines(runs: TextRun[]): RowLines {
  const rows = groupRows(runs);
  const gaps: Gap[] = [];
  rows.forEach((row, ri) => {
    let right = row.runs[0]?.x1 ?? 0;
    for (let k = 1; k < row.runs.length; k++) {
      const r = row.runs[k];
      const size = Math.min(r.size, row.runs[k - 1].size);
      if (r.x0 - right > 0.8 * size) gaps.push({ row: ri, at: k, x0: right, x1: r.x0, size });
      right = Math.max(right, r.x1);
    }
  });
  // A bullet or item number keeps its text, even across the channel that list indentation forms.
  const marker = (g: Gap): boolean => {
    const left = rows[g.row].runs.slice(0, g.at);
    const text = left
      .map((r) => r.text)
      .join('')
      .trim();
    const width = g.x1 - g.x0;
    if (BULLET_ONLY_RE.test(text)) return width < 4 * g.size;
    return ENUM_ONLY_RE.test(text) && width < 2 * g.size && left.length <= 2;
  };
  const cuts = new Set(gaps.filter((g) => !marker(g) && isGutter(rows, g)).map((g) => `${g.row}:${g.at}`));
  const lines: Line[] = [];
  const rowOf: number[] = [];
  rows.forEach((row, ri) => {
    let start = 0;
    for (let k = 1; k <= row.runs.length; k++) {
      if (k === row.runs.length || cuts.has(`${ri}:${k}`)) {
        lines.push(makeLine(row.runs.slice(start, k)));
        rowOf.push(ri);
        start = k;
      }
    }
  });
  // Rotated or vertical runs stand alone.
  for (const r of runs) {
    if (!r.rotated) continue;
    lines.push(makeLine([r]));
    rowOf.push(-1);
  }
  return { rows, lines, rowOf };
}
