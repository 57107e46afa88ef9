/**
 * The terms an FTS5 column holds for a Lectern token (fts-chars.ts): the SQLite index hands FTS5 the
 * tokens joined by spaces, and FTS5's unicode61 tokenizer splits a token again where it holds a
 * character it treats as a separator (most combining marks of Indic scripts, say) and folds a few
 * characters. The PostgreSQL index stores exactly these terms, so a word counts, matches and is
 * positioned the same in both engines.
 */
import { CONTINUATION_RANGES, FOLDS, SEPARATOR_RANGES } from './fts-chars.js';

const TOKEN = 1;
const CONTINUATION = 2;
const SEPARATOR = 0;

const FOLD_MAP = new Map<number, string>(FOLDS.map(([c, f]) => [c, f]));
/** Characters a Lectern token can hold besides ASCII (tokenizer.ts: letters, numbers, marks, Han, kana). */
const TOKEN_DOMAIN = /[\p{L}\p{N}\p{M}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

function inRanges(ranges: readonly number[], cp: number): boolean {
  let lo = 0;
  let hi = ranges.length / 2 - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (cp < ranges[2 * mid]) hi = mid - 1;
    else if (cp > ranges[2 * mid + 1]) lo = mid + 1;
    else return true;
  }
  return false;
}

const classCache = new Map<number, number>();

function classOf(cp: number): number {
  if (cp < 128) {
    if ((cp >= 97 && cp <= 122) || (cp >= 48 && cp <= 57) || (cp >= 65 && cp <= 90)) return TOKEN;
    return cp === 46 || cp === 95 ? TOKEN : SEPARATOR;
  }
  let c = classCache.get(cp);
  if (c === undefined) {
    if (inRanges(SEPARATOR_RANGES, cp)) c = SEPARATOR;
    else if (inRanges(CONTINUATION_RANGES, cp)) c = CONTINUATION;
    else c = TOKEN_DOMAIN.test(String.fromCodePoint(cp)) ? TOKEN : SEPARATOR;
    if (classCache.size < 65_536) classCache.set(cp, c);
  }
  return c;
}

function isPlainAscii(token: string): boolean {
  for (let i = 0; i < token.length; i++) {
    const c = token.charCodeAt(i);
    if (!((c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 46 || c === 95)) return false;
  }
  return token.length > 0;
}

function fold(cp: number): string {
  if (cp >= 65 && cp <= 90) return String.fromCharCode(cp + 32);
  return FOLD_MAP.get(cp) ?? String.fromCodePoint(cp);
}

/** Appends the FTS5 terms of one token (usually the token itself). */
export function pushTerms(token: string, out: string[]): void {
  if (isPlainAscii(token)) {
    out.push(token);
    return;
  }
  let current = '';
  for (const ch of token) {
    const cp = ch.codePointAt(0)!;
    const c = classOf(cp);
    if (c === TOKEN || (c === CONTINUATION && current !== '')) current += fold(cp);
    else if (c === SEPARATOR && current !== '') {
      out.push(current);
      current = '';
    }
  }
  if (current !== '') out.push(current);
}

/** FTS5 terms of a token, or of space-joined tokens (a column text), in order. */
export function ftsTerms(text: string): string[] {
  const out: string[] = [];
  for (const token of text.split(' ')) if (token) pushTerms(token, out);
  return out;
}
