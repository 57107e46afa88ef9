/**
 * Spreadsheets (xlsx, xls, csv) → `table` sections of 12 data rows (see spreadsheet.ts for the rules).
 * The container decides the reader, not only the extension: an .xls that is really an .xlsx (zip) or a
 * text export (CSV/TSV) is read as what it is.
 */
import { progressMessage } from '@lectern/shared';
import { ParseError } from '../errors.js';
import type { ParsedDocument, ParseOptions } from '../types.js';
import { looksLikeCfb } from './cfb.js';
import { parseDelimited } from './csv.js';
import { decodeHtml, htmlTablesToSheets } from './html.js';
import { sheetsToSections, type SheetData } from './spreadsheet.js';
import { looksBinary, readTextFile } from './text-decode.js';
import { readXls } from './xls-biff.js';
import { readXlsx } from './xlsx-reader.js';
import { looksLikeZip } from './zip.js';

/** CSV text → one unnamed sheet (an unnamed sheet adds no ` ——<sheet>` suffix to row lines). */
export function csvToSheet(buf: Buffer, delimiter?: string): SheetData {
  const { text } = readTextFile(buf, 'CSV file');
  const rows = parseDelimited(text, delimiter);
  return { name: '', grid: rows.map((r) => r.map((v) => v.trim())), merges: [] };
}

export async function readSheets(
  buffer: Buffer,
  ext: string,
  onProgress?: ParseOptions['onProgress'],
): Promise<{ sheets: SheetData[]; notes: string[] }> {
  if (buffer.length === 0) throw new ParseError('The file is empty.');
  if (ext === 'xls' && !looksLikeCfb(buffer) && !looksLikeZip(buffer) && looksBinary(buffer)) {
    throw new ParseError('This is not a valid XLS file (it is neither an Excel workbook nor a text export).');
  }
  if (ext === 'xls' && !looksLikeCfb(buffer) && !looksLikeZip(buffer)) {
    const html = decodeHtml(buffer);
    if (/<table[\s>]/i.test(html)) {
      return {
        sheets: htmlTablesToSheets(html),
        notes: [progressMessage('xlsHtmlExport')],
      };
    }
    return {
      sheets: [csvToSheet(buffer)],
      notes: [progressMessage('xlsTextExport')],
    };
  }
  if (ext === 'csv') return { sheets: [csvToSheet(buffer)], notes: [] };
  if (ext === 'xls' && looksLikeCfb(buffer)) return readXls(buffer);
  return readXlsx(buffer, async (done, total) => {
    await onProgress?.((0.8 * done) / Math.max(total, 1), progressMessage('xlsxSheetRead', { done, total }));
  });
}

export async function parseSpreadsheet(buffer: Buffer, opts: ParseOptions): Promise<ParsedDocument> {
  const { sheets, notes } = await readSheets(buffer, opts.ext, opts.onProgress);
  const { sections, rowCount } = sheetsToSections(
    sheets,
    opts.fromPage ?? 0,
    opts.toPage ?? Number.MAX_SAFE_INTEGER,
  );
  return { sections, rowCount, notes: notes.length ? notes : undefined };
}

/**
 * Data rows of a spreadsheet (xlsx/xls/csv) across all sheets, as parseSpreadsheet counts them, for task
 * splitting (API.md §19.8: the `table` method queues one task per 3000 rows). Same safety limits as parsing.
 */
export async function countSpreadsheetRows(buffer: Buffer, ext: string): Promise<number> {
  const { sheets } = await readSheets(buffer, ext);
  return sheetsToSections(sheets, 0, 0).rowCount;
}
