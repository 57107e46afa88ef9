/**
 * XLSX (SpreadsheetML) → sheets, read directly from the package with a streaming XML scan (large worksheets
 * never become element trees): shared and inline strings, booleans, errors, cached formula results,
 * numbers formatted through the cell's number format (dates, percentages), merged ranges, 1904 dates.
 * Worksheets follow the workbook order; chart sheets are skipped.
 */
import { progressMessage } from '@lectern/shared';
import { ParseError } from '../errors.js';
import {
  formatKind,
  formatNumberCell,
  numberFormatCode,
  parseCellRef,
  typedNumber,
  type ValueKind,
} from './number-format.js';
import { mainPart, openPackage, readRels, readXmlPart, relOfType } from './ooxml.js';
import type { CellValue, Merge, SheetData } from './spreadsheet.js';
import {
  attr,
  child,
  childrenNamed,
  localName,
  onOffAttr,
  prefixedAttr,
  scanXml,
  xmlBufferToString,
} from './xml.js';
import type { ZipArchive } from './zip.js';

const LABEL = 'XLSX file';

function readSharedStrings(zip: ZipArchive, part: string | undefined): string[] {
  const buf = part ? zip.read(part) : null;
  if (!buf) return [];
  const out: string[] = [];
  let cur: string | null = null;
  let inT = 0;
  let inPhonetic = 0;
  scanXml(xmlBufferToString(buf), part!, {
    open(name) {
      const l = localName(name);
      if (l === 'si') cur = '';
      else if (l === 'rPh') inPhonetic++;
      else if (l === 't') inT++;
    },
    close(name) {
      const l = localName(name);
      if (l === 'si') {
        out.push(cur ?? '');
        cur = null;
      } else if (l === 'rPh') inPhonetic--;
      else if (l === 't') inT--;
    },
    text(t) {
      if (cur !== null && inT > 0 && inPhonetic === 0) cur += t;
    },
  });
  return out;
}

interface StyleInfo {
  kind: ValueKind;
  code?: string;
}

function readStyles(zip: ZipArchive, part: string | undefined): StyleInfo[] {
  const root = part ? readXmlPart(zip, part) : null;
  if (!root) return [];
  const codes = new Map<number, string>();
  for (const f of childrenNamed(child(root, 'numFmts'), 'numFmt')) {
    codes.set(Number(attr(f, 'numFmtId')), attr(f, 'formatCode') ?? '');
  }
  return childrenNamed(child(root, 'cellXfs'), 'xf').map((xf) => {
    const id = Number(attr(xf, 'numFmtId') ?? 0);
    const code = numberFormatCode(id, codes.get(id));
    return { kind: formatKind(id, code), code };
  });
}

function parseRange(ref: string): Merge | null {
  const [a, b] = ref.split(':');
  const p = parseCellRef(a);
  const q = parseCellRef(b ?? a);
  if (!p || !q) return null;
  return {
    r1: Math.min(p.row, q.row),
    c1: Math.min(p.col, q.col),
    r2: Math.max(p.row, q.row),
    c2: Math.max(p.col, q.col),
  };
}

function readSheet(
  xml: string,
  part: string,
  name: string,
  strings: string[],
  styles: StyleInfo[],
  date1904: boolean,
): SheetData {
  const grid: Array<string[] | undefined> = [];
  const values: Array<CellValue[] | undefined> = [];
  const merges: Merge[] = [];
  let row = -1;
  let col = -1;
  let cell: { type: string; style: number } | null = null;
  let value = '';
  let inline = '';
  let inV = false;
  let inIs = 0;
  let inT = 0;
  let inPhonetic = 0;
  scanXml(xml, part, {
    open(qname, attrs) {
      const l = localName(qname);
      if (l === 'row') {
        const r = Number(attrs.r);
        row = Number.isFinite(r) && r > 0 ? r - 1 : row + 1;
        col = -1;
      } else if (l === 'c') {
        const ref = attrs.r ? parseCellRef(attrs.r) : null;
        if (ref) {
          row = ref.row;
          col = ref.col;
        } else col++;
        cell = { type: attrs.t ?? 'n', style: Number(attrs.s ?? 0) };
        value = '';
        inline = '';
      } else if (l === 'v' && cell) inV = true;
      else if (l === 'is' && cell) inIs++;
      else if (l === 't' && inIs) inT++;
      else if (l === 'rPh') inPhonetic++;
      else if (l === 'mergeCell' && attrs.ref) {
        const m = parseRange(attrs.ref);
        if (m) merges.push(m);
      }
    },
    close(qname) {
      const l = localName(qname);
      if (l === 'v') inV = false;
      else if (l === 'is') inIs--;
      else if (l === 't' && inIs) inT--;
      else if (l === 'rPh') inPhonetic--;
      else if (l === 'c' && cell) {
        const v = cellValue(cell.type, cell.style, value, inline, strings, styles, date1904);
        if (v.text !== '' && row >= 0 && col >= 0 && col < 16384) {
          const cells = grid[row] ?? (grid[row] = []);
          while (cells.length < col) cells.push('');
          cells[col] = v.text;
          if (v.value !== undefined) (values[row] ?? (values[row] = []))[col] = v.value;
        }
        cell = null;
      }
    },
    text(t) {
      if (inV) value += t;
      else if (inIs && inT && !inPhonetic) inline += t;
    },
  });
  for (const cells of grid) if (cells) for (let i = 0; i < cells.length; i++) cells[i] ??= '';
  return { name, grid, values, merges };
}

/** Display text and, when it differs, the typed value of one cell. */
function cellValue(
  type: string,
  style: number,
  value: string,
  inline: string,
  strings: string[],
  styles: StyleInfo[],
  date1904: boolean,
): { text: string; value?: CellValue } {
  switch (type) {
    case 's':
      return { text: strings[Number(value)] ?? '' };
    case 'inlineStr':
      return { text: inline };
    case 'str':
    case 'e':
      return { text: value };
    case 'b':
      return value === '1' || value === '0'
        ? { text: value === '1' ? 'TRUE' : 'FALSE', value: value === '1' }
        : { text: value };
    case 'd': {
      const text = value.replace(/T00:00:00(\.0+)?Z?$/, '');
      const d = new Date(
        /Z$|[+-]\d\d:\d\d$/.test(value) ? value : `${value}${value.length > 10 ? 'Z' : 'T00:00:00Z'}`,
      );
      return Number.isNaN(d.getTime()) ? { text } : { text, value: d };
    }
    default: {
      if (value.trim() === '') return { text: '' };
      const n = Number(value);
      if (!Number.isFinite(n)) return { text: value };
      const s = styles[style];
      const kind = s?.kind ?? 'general';
      return {
        text: formatNumberCell(n, kind, date1904, s?.code),
        value: typedNumber(n, kind, date1904, s?.code),
      };
    }
  }
}

export interface XlsxSheets {
  sheets: SheetData[];
  notes: string[];
}

export async function readXlsx(
  buf: Buffer,
  onSheet?: (done: number, total: number) => Promise<void> | void,
): Promise<XlsxSheets> {
  const zip = openPackage(buf, LABEL);
  const wbPart = mainPart(zip, 'xl/workbook.xml', LABEL);
  const wb = readXmlPart(zip, wbPart);
  if (!wb || wb.local !== 'workbook')
    throw new ParseError(`The ${LABEL} is damaged: "${wbPart}" is not a workbook.`);
  const rels = readRels(zip, wbPart);
  const date1904 = onOffAttr(child(wb, 'workbookPr'), 'date1904');
  const strings = readSharedStrings(zip, relOfType(rels, 'sharedStrings')?.target);
  const styles = readStyles(zip, relOfType(rels, 'styles')?.target);
  const list = childrenNamed(child(wb, 'sheets'), 'sheet');
  const sheets: SheetData[] = [];
  const notes: string[] = [];
  let skipped = 0;
  for (let i = 0; i < list.length; i++) {
    const s = list[i];
    const rel = rels.get(prefixedAttr(s, 'id') ?? '');
    if (!rel || !rel.type.endsWith('/worksheet')) {
      skipped++;
      continue;
    }
    const data = zip.read(rel.target);
    if (!data) throw new ParseError(`The ${LABEL} is damaged: the worksheet "${rel.target}" is missing.`);
    sheets.push(
      readSheet(
        xmlBufferToString(data),
        rel.target,
        attr(s, 'name') ?? `Sheet${i + 1}`,
        strings,
        styles,
        date1904,
      ),
    );
    await onSheet?.(i + 1, list.length);
  }
  if (skipped) notes.push(progressMessage('xlsxSheetsSkipped', { count: skipped }));
  return { sheets, notes };
}
