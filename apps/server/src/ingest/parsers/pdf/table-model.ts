/**
 * A table as cells on a logical grid (rowspan/colspan), its clean-up, and its HTML and text renderings.
 */
import { type Box, isDataText } from './model.js';

export interface TableCell {
  r: number;
  c: number;
  rowspan: number;
  colspan: number;
  text: string;
}

export interface TableModel {
  box: Box;
  rows: number;
  cols: number;
  cells: TableCell[];
  /** Leading rows that are headers (rendered as <th>). */
  headerRows: number;
}

/** Removes rows and columns in which no cell with text starts (artefacts of double rules, empty slivers). */
export function compactTable(t: TableModel): TableModel {
  let cells = t.cells.map((c) => ({ ...c }));
  let rows = t.rows;
  let cols = t.cols;
  for (let i = rows - 1; i >= 0; i--) {
    if (cells.some((c) => c.r === i && c.text)) continue;
    cells = cells
      .map((c) =>
        c.r > i
          ? { ...c, r: c.r - 1 }
          : c.r <= i && i < c.r + c.rowspan
            ? { ...c, rowspan: c.rowspan - 1 }
            : c,
      )
      .filter((c) => c.rowspan > 0);
    rows--;
  }
  for (let j = cols - 1; j >= 0; j--) {
    if (cells.some((c) => c.c === j && c.text)) continue;
    cells = cells
      .map((c) =>
        c.c > j
          ? { ...c, c: c.c - 1 }
          : c.c <= j && j < c.c + c.colspan
            ? { ...c, colspan: c.colspan - 1 }
            : c,
      )
      .filter((c) => c.colspan > 0);
    cols--;
  }
  return { ...t, cells, rows, cols, headerRows: Math.min(t.headerRows, rows) };
}

/**
 * Header rows: when the first row reads like labels, it and the rows its cells span are headers; in
 * tables with numeric data, the label rows above the first data row are headers too (multi-level
 * headers, title rows).
 */
export function guessHeaderRows(t: TableModel): number {
  const startingAt = (r: number): TableCell[] => t.cells.filter((c) => c.r === r && c.text);
  const first = startingAt(0);
  if (!first.length || t.rows < 2) return 0;
  const isLabel = (c: TableCell): boolean => !isDataText(c.text);
  if (first.filter(isLabel).length < Math.max(1, first.length * 0.6)) return 0;
  const body = t.cells.filter((c) => c.r > 0 && c.text);
  const bodyNumeric = body.filter((c) => !isLabel(c)).length;
  // A first row made of the same kind of text as the body is not a header (lists laid out as tables).
  if (t.rows > 2 && bodyNumeric === 0 && first.length < t.cols) return 0;
  let h = 1;
  for (const c of first) h = Math.max(h, c.rowspan);
  if (bodyNumeric > 0) {
    for (let r = h; r < Math.min(t.rows - 1, 6); r++) {
      const row = startingAt(r);
      if (!row.length || !row.every(isLabel)) break;
      h = Math.max(h, r + 1, ...row.map((c) => c.r + c.rowspan));
    }
  }
  return Math.min(h, t.rows - 1);
}

/** In header rows of unruled tables, an empty cell under a label belongs to that label (rowspan). */
export function spanHeaderGaps(t: TableModel): TableModel {
  const cells = t.cells.map((c) => ({ ...c }));
  const drop = new Set<TableCell>();
  for (let r = 1; r < t.headerRows; r++) {
    for (const c of cells.filter((x) => x.r === r && !x.text && x.colspan === 1)) {
      const above = cells.find(
        (x) => !drop.has(x) && x.c === c.c && x.colspan === 1 && x.r + x.rowspan === r && x.text,
      );
      if (!above) continue;
      above.rowspan += c.rowspan;
      drop.add(c);
    }
  }
  return { ...t, cells: cells.filter((c) => !drop.has(c)) };
}

export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

export function sortedCells(t: TableModel): TableCell[] {
  return [...t.cells].sort((a, b) => a.r - b.r || a.c - b.c);
}

export function tableHtml(t: TableModel, caption?: string): string {
  const out: string[] = ['<table>'];
  if (caption) out.push(`<caption>${escapeHtml(caption)}</caption>`);
  const cells = sortedCells(t);
  let k = 0;
  for (let r = 0; r < t.rows; r++) {
    const tag = r < t.headerRows ? 'th' : 'td';
    out.push('<tr>');
    while (k < cells.length && cells[k].r === r) {
      const c = cells[k++];
      const span = `${c.rowspan > 1 ? ` rowspan="${c.rowspan}"` : ''}${c.colspan > 1 ? ` colspan="${c.colspan}"` : ''}`;
      out.push(`<${tag}${span}>${escapeHtml(c.text)}</${tag}>`);
    }
    out.push('</tr>');
  }
  out.push('</table>');
  return out.join('');
}

/** One line per row, cells separated by " | " (cells spanning several rows appear in their first row). */
export function tableText(t: TableModel): string {
  const cells = sortedCells(t);
  const lines: string[] = [];
  let k = 0;
  for (let r = 0; r < t.rows; r++) {
    const row: string[] = [];
    while (k < cells.length && cells[k].r === r) row.push(cells[k++].text);
    if (row.some(Boolean)) lines.push(row.join(' | '));
  }
  return lines.join('\n');
}
