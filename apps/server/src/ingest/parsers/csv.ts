/**
 * Delimited text (RFC 4180): quoted fields with doubled quotes and line breaks inside quotes, CRLF/LF/CR
 * line ends, a BOM, and the delimiter sniffed from the first lines (comma, semicolon, tab, or pipe).
 * A quote that is never closed is an error; text after a closing quote is kept (as Excel does).
 */
import { ParseError } from '../errors.js';

const CANDIDATES = [',', ';', '\t', '|'];

/** Counts each candidate per line outside quotes over the first lines; picks the most consistent one. */
export function sniffDelimiter(text: string): string {
  const lines: string[] = [];
  let cur = '';
  let inQuotes = false;
  for (let i = 0; i < text.length && lines.length < 20; i++) {
    const ch = text[i];
    if (ch === '"') inQuotes = !inQuotes;
    if (!inQuotes && ch === '\n') {
      if (cur.trim()) lines.push(cur);
      cur = '';
    } else cur += ch;
  }
  if (cur.trim() && lines.length < 20) lines.push(cur);
  let best = ',';
  let bestScore = -1;
  for (const d of CANDIDATES) {
    const counts = lines.map((l) => {
      let n = 0;
      let q = false;
      for (const ch of l) {
        if (ch === '"') q = !q;
        else if (!q && ch === d) n++;
      }
      return n;
    });
    if (counts.length === 0 || counts[0] === 0) continue;
    const same = counts.filter((c) => c === counts[0]).length / counts.length;
    const score = same * 1000 + counts[0];
    if (score > bestScore) {
      bestScore = score;
      best = d;
    }
  }
  return best;
}

/** Parses delimited text into rows of fields. */
export function parseDelimited(input: string, delimiter?: string): string[][] {
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  const d = delimiter ?? sniffDelimiter(text);
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let i = 0;
  let line = 1;
  const n = text.length;
  let fieldStarted = false;
  while (i < n) {
    const ch = text[i];
    if (ch === '"' && field === '' && !fieldStarted) {
      const openLine = line;
      i++;
      let closed = false;
      while (i < n) {
        const c = text[i];
        if (c === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          closed = true;
          break;
        }
        if (c === '\n') line++;
        field += c === '\r' ? (text[i + 1] === '\n' ? '' : '\n') : c;
        i++;
      }
      if (!closed) {
        throw new ParseError(
          `The CSV file is malformed: the quoted field that starts on line ${openLine} is never closed.`,
        );
      }
      fieldStarted = true;
      continue;
    }
    if (ch === d) {
      row.push(field);
      field = '';
      fieldStarted = false;
      i++;
    } else if (ch === '\n' || ch === '\r') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      fieldStarted = false;
      i += ch === '\r' && text[i + 1] === '\n' ? 2 : 1;
      line++;
    } else {
      // Unquoted run: take everything up to the next delimiter or line end in one slice.
      let j = i + 1;
      while (j < n) {
        const c = text[j];
        if (c === d || c === '\n' || c === '\r') break;
        j++;
      }
      field += text.slice(i, j);
      fieldStarted = true;
      i = j;
    }
  }
  if (field !== '' || fieldStarted || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}
