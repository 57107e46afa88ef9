/**
 * table (API.md §19.7): first row = headers (`a/b` synonyms, `(v1,v2)` enumerations); one chunk per
 * row with "header: value" lines; typed columns stored as `<column>_<type>` fields:
 * `_tks` text, `_long` integer, `_flt` float, `_dt` date-time, `_kwd` keywords (booleans, enumerations).
 */
import type { ChunkContext, ChunkDraft, ParsedDocument } from '../types.js';
import { finalizeDrafts, mergePositions } from './common.js';
import { cellText, tablesOf } from './rows.js';

export type ColumnType = 'text' | 'int' | 'float' | 'datetime' | 'bool' | 'keyword';

export const TYPE_SUFFIX: Record<ColumnType, string> = {
  text: '_tks',
  int: '_long',
  float: '_flt',
  datetime: '_dt',
  bool: '_kwd',
  keyword: '_kwd',
};

export interface TableColumn {
  /** Header as written (synonyms and enumeration included). */
  header: string;
  /** Field key `<name>_<type>`. */
  key: string;
  type: ColumnType;
  /** Synonyms from `a/b` (the first is the column's name). */
  names: string[];
  /** Values listed in `(v1,v2)`. */
  enumeration: string[];
}

const INT_RE = /^[+-]?(?:0|[1-9][0-9]*|[1-9][0-9]{0,2}(?:,[0-9]{3})+)$/;
const FLOAT_RE = /^[+-]?(?:[0-9]+\.[0-9]*|\.[0-9]+|[0-9]+(?:\.[0-9]+)?[eE][+-]?[0-9]+)$/;
const DATE_RE =
  /^([0-9]{4})[-/.年]([0-9]{1,2})[-/.月]([0-9]{1,2})日?(?:[ T]([0-9]{1,2}):([0-9]{2})(?::([0-9]{2}))?(?:\.[0-9]+)?Z?)?$/;
const TRUE_RE = /^(true|yes|y|是|\*|✓|✔|☑|✅|√)$/i;
const FALSE_RE = /^(false|no|n|否|⍻|×|✗)$/i;

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** `YYYY-MM-DD HH:MM:SS` for a date cell or date-like text, else undefined. */
export function toDateTime(v: unknown): string | undefined {
  if (v instanceof Date) {
    if (Number.isNaN(v.getTime())) return undefined;
    return `${v.getUTCFullYear()}-${pad(v.getUTCMonth() + 1)}-${pad(v.getUTCDate())} ${pad(v.getUTCHours())}:${pad(v.getUTCMinutes())}:${pad(v.getUTCSeconds())}`;
  }
  const m = DATE_RE.exec(cellText(v));
  if (!m) return undefined;
  const [y, mo, d, h = '0', mi = '0', s = '0'] = m.slice(1).map((x) => x ?? '0');
  if (
    Number(mo) < 1 ||
    Number(mo) > 12 ||
    Number(d) < 1 ||
    Number(d) > 31 ||
    Number(h) > 23 ||
    Number(mi) > 59
  ) {
    return undefined;
  }
  return `${y}-${pad(Number(mo))}-${pad(Number(d))} ${pad(Number(h))}:${pad(Number(mi))}:${pad(Number(s))}`;
}

function valueKind(v: unknown): Exclude<ColumnType, 'keyword'> | undefined {
  if (v === null || v === undefined) return undefined;
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return Number.isFinite(v) ? (Number.isInteger(v) ? 'int' : 'float') : undefined;
  if (v instanceof Date) return 'datetime';
  const s = cellText(v);
  if (!s) return undefined;
  if (INT_RE.test(s)) return 'int';
  if (FLOAT_RE.test(s)) return 'float';
  if (TRUE_RE.test(s) || FALSE_RE.test(s)) return 'bool';
  if (toDateTime(s)) return 'datetime';
  return 'text';
}

/** Majority type of a column; ties prefer the type that loses less (text > datetime > float > int > bool). */
export function columnType(values: unknown[]): Exclude<ColumnType, 'keyword'> {
  const counts = { text: 0, datetime: 0, float: 0, int: 0, bool: 0 };
  for (const v of values) {
    const k = valueKind(v);
    if (k) counts[k]++;
  }
  let best: keyof typeof counts = 'text';
  for (const k of ['text', 'datetime', 'float', 'int', 'bool'] as const)
    if (counts[k] > counts[best]) best = k;
  if (best === 'int' && counts.float > 0) return 'float';
  return best;
}

/** Parses `supplier/vendor`, `color(yellow, red)`, `学历（本科，硕士）`. */
export function parseHeader(header: string): { names: string[]; enumeration: string[] } {
  const h = header.trim();
  const enumMatch = /[(（]([^()（）]*)[)）]\s*$/.exec(h);
  const enumeration = enumMatch
    ? enumMatch[1]
        .split(/[,，、;；]/)
        .map((s) => s.trim())
        .filter(Boolean)
    : [];
  const base = enumMatch ? h.slice(0, enumMatch.index) : h;
  const names = base
    .split('/')
    .map((s) => s.trim())
    .filter(Boolean);
  return { names: names.length ? names : [h], enumeration };
}

function keyBase(name: string, j: number): string {
  const k = name
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '_')
    .replace(/^_+|_+$/g, '');
  return k || `column_${j + 1}`;
}

/** Columns of a table with their inferred types and unique field keys. */
export function inferColumns(headers: string[], rows: unknown[][]): TableColumn[] {
  const used = new Set<string>();
  return headers.map((header, j) => {
    const { names, enumeration } = parseHeader(header || `Column_${j + 1}`);
    const inferred = columnType(rows.map((r) => r[j]));
    const type: ColumnType = enumeration.length > 0 && inferred === 'text' ? 'keyword' : inferred;
    let key = keyBase(names[0], j) + TYPE_SUFFIX[type];
    for (let n = 2; used.has(key); n++) key = `${keyBase(names[0], j)}_${n}${TYPE_SUFFIX[type]}`;
    used.add(key);
    return { header: header || `Column_${j + 1}`, key, type, names, enumeration };
  });
}

/** A cell converted to its column type, or undefined when it cannot be represented. */
export function typedValue(v: unknown, type: ColumnType): unknown {
  const s = cellText(v);
  if (!s) return undefined;
  switch (type) {
    case 'int': {
      const n = typeof v === 'number' ? v : Number(s.replace(/,/g, ''));
      return Number.isInteger(n) ? n : undefined;
    }
    case 'float': {
      const n = typeof v === 'number' ? v : Number(s.replace(/,/g, ''));
      return Number.isFinite(n) ? n : undefined;
    }
    case 'datetime':
      return toDateTime(v);
    case 'bool':
      if (v === true || TRUE_RE.test(s)) return 'yes';
      if (v === false || FALSE_RE.test(s)) return 'no';
      return undefined;
    case 'keyword':
      return s
        .split(/[,，、;；/]/)
        .map((x) => x.trim())
        .filter(Boolean);
    default:
      return s;
  }
}

export interface InferredTable {
  sheet: string;
  columns: TableColumn[];
}

/** One chunk per data row; also usable for the KB field map via `tableFieldMap`. */
function tableChunksWithSchema(
  doc: ParsedDocument,
  ctx: ChunkContext,
): { drafts: ChunkDraft[]; tables: InferredTable[] } {
  const drafts: ChunkDraft[] = [];
  const tables: InferredTable[] = [];
  for (const sheet of tablesOf(doc.sections, ctx.docName)) {
    let headers = sheet.headers;
    let rows = sheet.rows;
    let rowSections = sheet.sections.length === rows.length ? sheet.sections : undefined;
    if (!headers || headers.length === 0) {
      if (rows.length === 0) continue;
      headers = rows[0].map(cellText);
      rows = rows.slice(1);
      rowSections = rowSections?.slice(1);
    }
    const width = Math.max(headers.length, ...rows.map((r) => r.length));
    const fullHeaders = Array.from({ length: width }, (_, j) => headers[j] ?? '');
    const columns = inferColumns(fullHeaders, rows);
    tables.push({ sheet: sheet.sheet, columns });
    rows.forEach((row, r) => {
      const lines: string[] = [];
      const fields: Record<string, unknown> = {};
      columns.forEach((col, j) => {
        const text = cellText(row[j]);
        if (!text) return;
        lines.push(`${col.header}: ${text}`);
        const value = typedValue(row[j], col.type);
        if (value !== undefined && !(Array.isArray(value) && value.length === 0)) fields[col.key] = value;
      });
      if (lines.length === 0) return;
      drafts.push({
        content_with_weight: lines.join('\n'),
        positions: mergePositions([
          rowSections
            ? rowSections[r]?.positions
            : sheet.sections.length === 1
              ? sheet.sections[0].positions
              : [],
        ]),
        fields,
      });
    });
  }
  return { drafts: finalizeDrafts(drafts), tables };
}

export function chunkTable(doc: ParsedDocument, ctx: ChunkContext): ChunkDraft[] {
  return tableChunksWithSchema(doc, ctx).drafts;
}

/** Inferred columns per table (the pipeline stores `{key: header}` on the KB as its field map). */
export function inferTables(doc: ParsedDocument, ctx: ChunkContext): InferredTable[] {
  return tableChunksWithSchema(doc, ctx).tables;
}

/** `{ "<column>_<type>": "<header>" }` over every table of the document. */
export function tableFieldMap(doc: ParsedDocument, ctx: ChunkContext): Record<string, string> {
  const map: Record<string, string> = {};
  for (const t of inferTables(doc, ctx)) for (const c of t.columns) map[c.key] = c.header;
  return map;
}
