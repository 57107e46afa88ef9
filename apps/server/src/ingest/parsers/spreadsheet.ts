/**
 * The sheet model shared by the XLSX, XLS and CSV readers, its sections, and the spreadsheet rules of
 * API.md §19.7 that chunkers use:
 *  - the first non-empty row of a sheet is its header; each later non-empty row is a data row;
 *  - row line (naive): `header：value; header：value` (full-width colon, empty cells skipped, a value without a
 *    header stands alone) with ` ——<sheet>` appended when the sheet name does not contain "sheet";
 *  - html4excel: HTML tables of 12 data rows, each repeating the header row (sheet name as caption).
 * Sections: one `table` section per 12 data rows of a sheet, carrying `text` (its row lines), `html` (the
 * 12-row table) and `fields` (SpreadsheetFields: sheet, sheetIndex, header, cells, rows, lines, firstRow,
 * lastRow). A sheet with a single non-empty row yields one section with that row as header and no cells.
 * `fromPage`/`toPage` select data rows (0-based, counted across the sheets in order).
 */
import type { Section } from '../types.js';
import { columnLetter } from './number-format.js';
import { escapeHtml, tableHtml, type TableRow } from './table-html.js';

export const EXCEL_HTML_ROWS = 12;

export interface Merge {
  r1: number;
  c1: number;
  r2: number;
  c2: number;
}

export type CellValue = string | number | boolean | Date | null;

export interface SheetData {
  name: string;
  /** Display values by 0-based worksheet row (holes allowed for missing rows). */
  grid: Array<string[] | undefined>;
  /** Typed values parallel to `grid` where they differ from the display text (numbers, booleans, dates). */
  values?: Array<CellValue[] | undefined>;
  merges: Merge[];
}

export interface SpreadsheetFields {
  sheet: string;
  sheetIndex: number;
  /** The header row (display text), as wide as the widest row of the sheet. */
  header: string[];
  /** Data rows as typed cells (number, boolean, Date (UTC), string; null when empty), header-wide. */
  cells: CellValue[][];
  /** Data rows as objects keyed by header (display text; empty cells left out; unnamed columns by letter). */
  rows: Array<Record<string, string>>;
  /** The naive row lines of these rows. */
  lines: string[];
  /** 1-based worksheet row numbers of the first and last data row. */
  firstRow: number;
  lastRow: number;
}

export function isNamedSheet(name: string): boolean {
  return name !== '' && !name.toLowerCase().includes('sheet');
}

const flat = (s: string) => s.replace(/\s*\n\s*/g, ' ').trim();

/** The naive line of one data row (API.md §19.7). */
export function rowLine(header: string[], cells: string[], sheet: string): string {
  const parts: string[] = [];
  cells.forEach((value, i) => {
    const v = flat(value);
    if (!v) return;
    const h = flat(header[i] ?? '');
    parts.push(h ? `${h}：${v}` : v);
  });
  let line = parts.join('; ');
  if (isNamedSheet(sheet)) line += ` ——${sheet}`;
  return line;
}

function rowKeys(header: string[]): string[] {
  const seen = new Map<string, number>();
  return header.map((h, i) => {
    const base = flat(h) || columnLetter(i);
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return n === 1 ? base : `${base} (${n})`;
  });
}

const cellHtml = (s: string) => (s.includes('\n') ? escapeHtml(s).replace(/\n/g, '<br>') : escapeHtml(s));

/** HTML of one chunk: caption (named or not), the header row, then the chunk's rows; merges clipped to it. */
function chunkHtml(
  sheet: SheetData,
  headerRow: number,
  width: number,
  header: string[],
  rowIdx: number[],
  rows: string[][],
): string {
  if (sheet.merges.length === 0) {
    // Fast path (no merged cells): build the markup directly.
    let out = sheet.name ? `<table><caption>${escapeHtml(sheet.name)}</caption><tr>` : '<table><tr>';
    for (let c = 0; c < width; c++) out += `<th>${cellHtml(header[c] ?? '')}</th>`;
    out += '</tr>';
    for (const cells of rows) {
      out += '<tr>';
      for (let c = 0; c < width; c++) out += `<td>${cellHtml(cells[c] ?? '')}</td>`;
      out += '</tr>';
    }
    return out + '</table>';
  }
  const all = [headerRow, ...rowIdx];
  const pos = new Map(all.map((r, i) => [r, i]));
  const covered = new Set<string>();
  const spans = new Map<string, { colspan: number; rowspan: number }>();
  for (const m of sheet.merges) {
    const inChunk = all.filter((r) => r >= m.r1 && r <= m.r2);
    if (inChunk.length === 0 || m.c1 >= width) continue;
    const top = inChunk[0];
    // A merge only spans within the header row or within the data rows, never across the repeated header.
    const group = top === headerRow ? [headerRow] : inChunk.filter((r) => r !== headerRow);
    const c2 = Math.min(m.c2, width - 1);
    spans.set(`${pos.get(group[0])},${m.c1}`, { colspan: c2 - m.c1 + 1, rowspan: group.length });
    for (const r of group)
      for (let c = m.c1; c <= c2; c++) if (r !== group[0] || c !== m.c1) covered.add(`${pos.get(r)},${c}`);
  }
  const grid = [header, ...rows];
  const out: TableRow[] = grid.map((cells, r) => {
    const row: TableRow = [];
    for (let c = 0; c < width; c++) {
      if (covered.has(`${r},${c}`)) continue;
      const span = spans.get(`${r},${c}`);
      const text = cells[c] ?? '';
      row.push({
        text,
        html: cellHtml(text),
        header: r === 0,
        colspan: span?.colspan,
        rowspan: span?.rowspan,
      });
    }
    return row;
  });
  return tableHtml(out, sheet.name || undefined);
}

export interface SheetSections {
  sections: Section[];
  /** Data rows across all sheets (before the row range is applied). */
  rowCount: number;
}

export function sheetsToSections(
  sheets: SheetData[],
  fromRow = 0,
  toRow = Number.MAX_SAFE_INTEGER,
): SheetSections {
  const sections: Section[] = [];
  let globalRow = 0;
  sheets.forEach((sheet, sheetIndex) => {
    const kept: number[] = [];
    sheet.grid.forEach((cells, r) => {
      if (cells && cells.some((v) => v.trim() !== '')) kept.push(r);
    });
    if (kept.length === 0) return;
    let width = 0;
    for (const r of kept) {
      const cells = sheet.grid[r]!;
      let w = cells.length;
      while (w > 0 && cells[w - 1].trim() === '') w--;
      width = Math.max(width, w);
    }
    const pad = (cells: string[]) => Array.from({ length: width }, (_, i) => cells[i] ?? '');
    const headerRow = kept[0];
    const header = pad(sheet.grid[headerRow]!);
    const keys = rowKeys(header);
    const base = { sheet: sheet.name, sheetIndex, header };
    if (kept.length === 1) {
      // A single row: keep it (as the header, with no data cells) so nothing is lost.
      if (fromRow > 0) return;
      const text =
        header.map(flat).filter(Boolean).join('; ') + (isNamedSheet(sheet.name) ? ` ——${sheet.name}` : '');
      const fields: SpreadsheetFields = {
        ...base,
        cells: [],
        rows: [],
        lines: [],
        firstRow: headerRow + 1,
        lastRow: headerRow + 1,
      };
      sections.push({
        kind: 'table',
        text,
        html: chunkHtml(sheet, headerRow, width, header, [], []),
        fields: { ...fields },
      });
      return;
    }
    const data: number[] = [];
    for (const r of kept.slice(1)) {
      if (globalRow >= fromRow && globalRow < toRow) data.push(r);
      globalRow++;
    }
    for (let i = 0; i < data.length; i += EXCEL_HTML_ROWS) {
      const rowIdx = data.slice(i, i + EXCEL_HTML_ROWS);
      const display = rowIdx.map((r) => pad(sheet.grid[r]!));
      const lines = display.map((c) => rowLine(header, c, sheet.name));
      const cells = rowIdx.map((r, k) =>
        display[k].map((v, c): CellValue => (v.trim() === '' ? null : (sheet.values?.[r]?.[c] ?? v))),
      );
      const rows = display.map((c) => {
        const o: Record<string, string> = {};
        c.forEach((v, k) => {
          if (v.trim() !== '') o[keys[k]] = v;
        });
        return o;
      });
      const fields: SpreadsheetFields = {
        ...base,
        cells,
        rows,
        lines,
        firstRow: rowIdx[0] + 1,
        lastRow: rowIdx[rowIdx.length - 1] + 1,
      };
      sections.push({
        kind: 'table',
        text: lines.join('\n'),
        html: chunkHtml(sheet, headerRow, width, header, rowIdx, display),
        fields: { ...fields },
      });
    }
  });
  return { sections, rowCount: globalRow };
}

// ---- helpers for chunkers ---------------------------------------------------------------------------

/** The spreadsheet fields of a section, or null when it is not a spreadsheet section. */
export function spreadsheetFields(section: Section): SpreadsheetFields | null {
  const f = section.fields as Partial<SpreadsheetFields> | undefined;
  return section.kind === 'table' &&
    f &&
    Array.isArray(f.lines) &&
    Array.isArray(f.header) &&
    Array.isArray(f.cells)
    ? (f as SpreadsheetFields)
    : null;
}

/** Naive rule without html4excel: every data row's line, in order (merge them by token count). */
export function excelRowLines(sections: Section[]): string[] {
  return sections.flatMap((s) => spreadsheetFields(s)?.lines ?? []);
}

/** Naive rule with html4excel: one HTML table of ≤ 12 data rows (header repeated) per chunk. */
export function excelHtmlChunks(sections: Section[]): string[] {
  return sections.filter((s) => spreadsheetFields(s) && s.html).map((s) => s.html!);
}
