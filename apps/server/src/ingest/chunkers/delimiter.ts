/**
 * The `delimiter` setting (API.md §19.7, SPEC §5): characters outside backticks are single-character
 * sentence delimiters; each back-quoted token (`` `##` ``, several characters allowed) is a custom
 * delimiter, and any custom delimiter switches chunking to "cut at every occurrence".
 */

export interface ParsedDelimiter {
  /** Single-character delimiters (outside backticks). */
  chars: Set<string>;
  /** Back-quoted tokens, longest first. */
  tokens: string[];
}

/** Typed escape sequences ("\n" written as backslash + n) count as the character they name. */
function unescape(text: string): string {
  return text.replace(/\\([ntr])/g, (_, c: string) => (c === 'n' ? '\n' : c === 't' ? '\t' : '\r'));
}

export function parseDelimiter(delimiter: string): ParsedDelimiter {
  const tokens = new Set<string>();
  let rest = '';
  let last = 0;
  const re = /`([^`]+)`/g;
  for (let m = re.exec(delimiter); m; m = re.exec(delimiter)) {
    rest += delimiter.slice(last, m.index);
    const token = unescape(m[1]);
    if (token) tokens.add(token);
    last = m.index + m[0].length;
  }
  rest += delimiter.slice(last);
  const chars = new Set<string>();
  for (const ch of unescape(rest)) if (ch !== '`') chars.add(ch);
  return { chars, tokens: [...tokens].sort((a, b) => b.length - a.length || (a < b ? -1 : a > b ? 1 : 0)) };
}

/**
 * Cuts `text` after every run of delimiter characters; the delimiters stay with the piece they end,
 * so joining the pieces gives the text back exactly.
 */
export function splitAtChars(text: string, chars: Set<string>): string[] {
  if (chars.size === 0) return [text];
  const pieces: string[] = [];
  let start = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    if (chars.has(text[i])) {
      let j = i + 1;
      while (j < n && chars.has(text[j])) j++;
      pieces.push(text.slice(start, j));
      start = j;
      i = j;
    } else {
      i++;
    }
  }
  if (start < n) pieces.push(text.slice(start));
  return pieces;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** [start, end) ranges of the text between occurrences of the custom tokens (tokens themselves removed). */
export function rangesBetweenTokens(text: string, tokens: string[]): Array<[number, number]> {
  if (tokens.length === 0) return [[0, text.length]];
  const re = new RegExp(tokens.map(escapeRegExp).join('|'), 'g');
  const ranges: Array<[number, number]> = [];
  let start = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    ranges.push([start, m.index]);
    start = m.index + m[0].length;
  }
  ranges.push([start, text.length]);
  return ranges;
}
