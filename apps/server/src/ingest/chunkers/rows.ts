/**
 * Row access for the row-based methods (qa, table, tag): spreadsheet rows (RowFields sections or
 * html4excel tables of parsers/spreadsheet.ts), other HTML tables, CSV text and tab-separated lines.
 */
import type { RowFields, Section } from '../types.js';
import { extensionOf, isPageFurniture } from './common.js';

export interface SheetRows {
  sheet: string;
  /** Header row as the parser gave it, when it separated one. */
  headers?: string[];
  rows: unknown[][];
  sections: Section[];
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** A cell as text: dates as `YYYY-MM-DD[ HH:MM:SS]` (UTC), numbers without exponent noise. */
export function cellText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (v instanceof Date) {
    if (Number.isNaN(v.getTime())) return '';
    const day = `${v.getUTCFullYear()}-${pad(v.getUTCMonth() + 1)}-${pad(v.getUTCDate())}`;
    const h = v.getUTCHours();
    const m = v.getUTCMinutes();
    const s = v.getUTCSeconds();
    return h || m || s ? `${day} ${pad(h)}:${pad(m)}:${pad(s)}` : day;
  }
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
  if (typeof v === 'string') return v.trim();
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'object' && v !== null && 'text' in v) return cellText((v as { text: unknown }).text);
  return String(v).trim();
}

function rowFieldsOf(s: Section): RowFields | undefined {
  const f = s.fields;
  if (!f || s.kind !== 'text' || (!Array.isArray(f.cells) && !Array.isArray(f.headers))) return undefined;
  return f as unknown as RowFields;
}

/**
 * Spreadsheet rows grouped by sheet (consecutive sections of one sheet), from the parser's per-row
 * sections (RowFields; parsers/spreadsheet.ts), or [] when no section carries cells.
 */
export function spreadsheetRows(sections: Section[]): SheetRows[] {
  const out: SheetRows[] = [];
  for (const s of sections) {
    const f = rowFieldsOf(s);
    if (!f) continue;
    const sheet = typeof f.sheet === 'string' ? f.sheet : '';
    let last = out[out.length - 1];
    if (!last || last.sheet !== sheet) {
      last = {
        sheet,
        headers: Array.isArray(f.headers) ? f.headers.map(cellText) : undefined,
        rows: [],
        sections: [],
      };
      out.push(last);
    }
    if (Array.isArray(f.cells)) {
      last.rows.push(f.cells);
      last.sections.push(s);
    }
  }
  return out;
}

/** True for the 12-row HTML tables the spreadsheet parser makes with html4excel. */
export function isExcelHtml(s: Section): boolean {
  return s.kind === 'table' && s.fields?.html4excel === true && typeof s.html === 'string';
}

/** Sheets of html4excel tables: each table's first row is its (repeated) header. */
export function excelHtmlSheets(sections: Section[]): SheetRows[] {
  const out: SheetRows[] = [];
  for (const s of sections) {
    if (!isExcelHtml(s)) continue;
    const [headers, ...rows] = htmlTableRows(s.html ?? '');
    if (!headers) continue;
    const sheet = typeof s.fields?.sheet === 'string' ? s.fields.sheet : '';
    let last = out[out.length - 1];
    if (!last || last.sheet !== sheet) {
      last = { sheet, headers, rows: [], sections: [] };
      out.push(last);
    }
    for (const row of rows) {
      last.rows.push(row);
      last.sections.push(s);
    }
  }
  return out;
}

function decodeEntities(text: string): string {
  return text
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&amp;/g, '&');
}

/** Rows of an HTML `<table>` (cells' text, tags stripped). */
export function htmlTableRows(html: string): string[][] {
  const rows: string[][] = [];
  for (const tr of html.match(/<tr[\s>][\s\S]*?<\/tr>/gi) ?? []) {
    const cells = (tr.match(/<t[hd][\s>][\s\S]*?<\/t[hd]>/gi) ?? []).map((c) =>
      decodeEntities(c.replace(/<br\s*\/?>/gi, '\n').replace(/<[^>]+>/g, '')).trim(),
    );
    rows.push(cells);
  }
  return rows;
}

/** Minimal RFC 4180 CSV reader (quoted fields, doubled quotes, newlines inside quotes). */
export function parseCsv(text: string, sep = ','): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += ch;
    } else if (ch === '"' && field === '') quoted = true;
    else if (ch === sep) {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += ch;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((r) => r.some((c) => c.trim() !== ''));
}

/** All non-furniture text of the document, one string (sections joined by newlines). */
export function documentText(sections: Section[]): string {
  return sections
    .filter((s) => !isPageFurniture(s) && s.kind !== 'table' && s.kind !== 'figure')
    .map((s) => s.text ?? '')
    .join('\n');
}

/**
 * Every table of the document as rows of cells: spreadsheet rows, then HTML tables, then — when the
 * document has neither — its text as CSV (`.csv`) or tab-separated lines. The header row, when the
 * parser separated it, is returned in `headers`.
 */
export function tablesOf(sections: Section[], docName: string): SheetRows[] {
  const sheets = spreadsheetRows(sections);
  if (sheets.length > 0) return sheets;
  const excel = excelHtmlSheets(sections);
  if (excel.length > 0) return excel;
  const html = sections.filter((s) => s.kind === 'table' && s.html);
  if (html.length > 0) {
    return html.map((s) => ({ sheet: '', rows: htmlTableRows(s.html ?? ''), sections: [s] }));
  }
  const text = documentText(sections);
  const nonEmpty = sections.filter((s) => (s.text ?? '').trim() !== '');
  if (extensionOf(docName) === 'csv' && !text.includes('\t')) {
    return [{ sheet: '', rows: parseCsv(text), sections: nonEmpty }];
  }
  const rows = text
    .split(/\r\n|\r|\n/)
    .filter((l) => l.trim() !== '')
    .map((l) => l.split('\t'));
  return [{ sheet: '', rows, sections: nonEmpty }];
}

/**
 * Rows including the separated header row unless it reads like a header (one of `headerWords`),
 * for methods whose files often have no header (qa, tag).
 */
export function rowsWithHeader(sheet: SheetRows, headerWords: RegExp): unknown[][] {
  if (!sheet.headers || sheet.headers.length === 0) return sheet.rows;
  const looksLikeHeader = sheet.headers
    .filter((h) => h.trim() !== '')
    .every((h) => headerWords.test(h.trim()));
  return looksLikeHeader ? sheet.rows : [sheet.headers, ...sheet.rows];
}
