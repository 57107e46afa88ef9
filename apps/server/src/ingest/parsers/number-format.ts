/**
 * Spreadsheet cell values → the text people expect, shared by the XLSX and XLS readers. Numbers print with
 * at most 15 significant digits (as Excel's General format does), percent formats as percentages, and
 * date/time formats as ISO `YYYY-MM-DD`, `HH:MM:SS` or `YYYY-MM-DD HH:MM:SS`. Other decorations of number
 * formats (thousands separators, currency signs, fixed decimals) are deliberately not reproduced.
 */

/** Built-in number format ids that are dates or times (ECMA-376 §18.8.30 plus the East Asian ids). */
const BUILTIN_DATE_IDS = new Set([
  14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51, 52, 53, 54,
  55, 56, 57, 58,
]);
const BUILTIN_PERCENT_IDS = new Set([9, 10]);

function stripLiterals(code: string): string {
  return code
    .replace(/"[^"]*"/g, '')
    .replace(/\\./g, '')
    .replace(/_./g, '')
    .replace(/\*./g, '');
}

/** Codes of the built-in date/time formats (ECMA-376 §18.8.30), used when a file gives only the id. */
const BUILTIN_CODES: Record<number, string> = {
  14: 'yyyy-mm-dd',
  15: 'd-mmm-yy',
  16: 'd-mmm',
  17: 'mmm-yy',
  18: 'h:mm AM/PM',
  19: 'h:mm:ss AM/PM',
  20: 'h:mm',
  21: 'h:mm:ss',
  22: 'yyyy-mm-dd h:mm',
  45: 'mm:ss',
  46: '[h]:mm:ss',
  47: 'mm:ss.0',
};

/** The format code of a number format: the file's own code, else the built-in one (if any). */
export function numberFormatCode(id: number, custom: string | undefined): string | undefined {
  return custom ?? BUILTIN_CODES[id];
}

export type ValueKind = 'date' | 'percent' | 'general';

/** Classifies a number format by its id and (for custom formats) its code. */
export function formatKind(id: number, code: string | undefined): ValueKind {
  if (BUILTIN_DATE_IDS.has(id)) return 'date';
  if (BUILTIN_PERCENT_IDS.has(id)) return 'percent';
  if (!code) return 'general';
  // Only the first section (positive numbers) matters; drop colours/conditions but keep elapsed-time [h].
  const first = stripLiterals(code.split(';')[0]).replace(/\[(?![hms]+\])[^\]]*\]/gi, '');
  if (/general/i.test(first)) return 'general';
  if (/[dmyhs]/i.test(first.replace(/\[[hms]+\]/gi, 'h'))) return 'date';
  if (first.includes('%')) return 'percent';
  return 'general';
}

export function formatGeneral(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  if (Number.isInteger(n) && Math.abs(n) < 1e15) return String(n);
  return String(Number(n.toPrecision(15)));
}

const pad = (n: number) => String(n).padStart(2, '0');

interface DateShape {
  hasDate: boolean;
  hasTime: boolean;
  elapsedHours: boolean;
}
const shapes = new Map<string, DateShape>();

/** What a date format shows (analysed once per format code). */
function dateShape(code: string): DateShape {
  let shape = shapes.get(code);
  if (!shape) {
    const c = stripLiterals(code.split(';')[0]).replace(/\[(?![hms]+\])[^\]]*\]/gi, '');
    const hasTime = /[hs]/i.test(c);
    shape = {
      hasDate: /[dy]/i.test(c) || (/m/i.test(c) && !hasTime),
      hasTime,
      elapsedHours: /\[h+\]/i.test(c),
    };
    if (shapes.size < 1000) shapes.set(code, shape);
  }
  return shape;
}

/** Excel serial date → ISO text. `hasDate`/`hasTime` come from the format; both when unsure. */
export function formatSerialDate(serial: number, date1904: boolean, code?: string): string {
  if (!Number.isFinite(serial) || serial < 0 || serial > 2958466) return formatGeneral(serial);
  // 1900 system: day 1 is 1900-01-01 and day 60 is the fictitious 1900-02-29 (a Lotus compatibility bug).
  const days = date1904 ? serial + 1462 : serial < 60 ? serial + 1 : serial;
  const totalSeconds = Math.round(days * 86400);
  const ms = (totalSeconds - 25569 * 86400) * 1000;
  const d = new Date(ms);
  const datePart = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  const timePart = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  const shape = code ? dateShape(code) : undefined;
  const codeHasDate = shape?.hasDate ?? false;
  const codeHasTime = shape?.hasTime ?? false;
  const isTimeOnly = code ? codeHasTime && !codeHasDate : serial < 1 && serial > 0;
  if (isTimeOnly) {
    if (shape?.elapsedHours) {
      const h = Math.floor(Math.round(serial * 86400) / 3600);
      return `${h}:${timePart.slice(3)}`;
    }
    return timePart;
  }
  const withTime = code ? codeHasTime : totalSeconds % 86400 !== 0;
  return withTime ? `${datePart} ${timePart}` : datePart;
}

/** Formats a numeric cell by the kind of its number format. */
export function formatNumberCell(n: number, kind: ValueKind, date1904: boolean, code?: string): string {
  if (kind === 'date') return formatSerialDate(n, date1904, code);
  if (kind === 'percent') return `${formatGeneral(Number((n * 100).toPrecision(15)))}%`;
  return formatGeneral(n);
}

/**
 * The typed value of a numeric cell for RowFields.cells: a Date (UTC) for date or date-time formats, the
 * display text for time-only formats (a bare time is not a date), otherwise the number itself.
 */
export function typedNumber(
  n: number,
  kind: ValueKind,
  date1904: boolean,
  code?: string,
): number | Date | string {
  if (kind !== 'date') return n;
  const text = formatSerialDate(n, date1904, code);
  if (!/^\d{4}-\d{2}-\d{2}/.test(text)) return text;
  const d = new Date(text.length > 10 ? `${text.replace(' ', 'T')}Z` : `${text}T00:00:00Z`);
  return Number.isNaN(d.getTime()) ? text : d;
}

/** "B12" → { row: 11, col: 1 } (0-based); null when not an A1 reference. */
export function parseCellRef(ref: string): { row: number; col: number } | null {
  const m = /^\$?([A-Za-z]{1,3})\$?(\d+)$/.exec(ref);
  if (!m) return null;
  let col = 0;
  for (const ch of m[1].toUpperCase()) col = col * 26 + (ch.charCodeAt(0) - 64);
  return { row: Number(m[2]) - 1, col: col - 1 };
}

/** 0 → "A", 27 → "AB". */
export function columnLetter(col: number): string {
  let s = '';
  let n = col + 1;
  while (n > 0) {
    const r = (n - 1) % 26;
    s = String.fromCharCode(65 + r) + s;
    n = Math.floor((n - 1) / 26);
  }
  return s;
}
