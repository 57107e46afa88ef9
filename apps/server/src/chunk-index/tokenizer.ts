/**
 * Tokenizer shared by indexing and querying (API.md §19.1/§19.2). Text is tokenized here, in Node,
 * and handed to the engine as space-joined tokens, so stemming and Chinese segmentation are ours:
 * - normalization: NFKC (full-width → half-width), lower case, traditional → simplified Chinese
 *   (character table, see t2s-table.ts), Latin diacritics removed;
 * - Latin/other scripts: words and numbers (decimals kept whole, "women's" → "women"), Porter stemming
 *   of pure a–z words (package `stemmer`);
 * - Han/kana runs: dictionary segmentation with jieba's default dictionary (loaded once, lazily,
 *   no HMM so that the same text always cuts the same way);
 * - Latin and CJK runs are always separate tokens ("iphone15发布会" → "iphone15 发布会");
 * - stop words dropped (same list for index and query), fine-grained sub-tokens for long CJK tokens.
 */
import { createRequire } from 'node:module';
import type { Jieba as JiebaType } from '@node-rs/jieba';
import { stemmer } from 'stemmer';
import { QUESTION_WORDS, STOP_WORDS } from './stopwords.js';
import { SIMPLIFIED, TRADITIONAL } from './t2s-table.js';

const require = createRequire(import.meta.url);

let jieba: JiebaType | null = null;
let dictFreq: Map<string, number> | null = null;

/** The jieba instance with its default dictionary (≈250 ms the first time). */
export function getJieba(): JiebaType {
  if (!jieba) {
    const { Jieba } = require('@node-rs/jieba') as typeof import('@node-rs/jieba');
    const { dict } = require('@node-rs/jieba/dict') as { dict: Uint8Array };
    jieba = Jieba.withDict(dict);
  }
  return jieba;
}

/** Frequency of a word in jieba's dictionary (0 when absent); the dictionary is parsed once. */
export function dictionaryFrequency(word: string): number {
  if (!dictFreq) {
    const { dict } = require('@node-rs/jieba/dict') as { dict: Uint8Array };
    dictFreq = new Map();
    const text = Buffer.from(dict).toString('utf8');
    for (const line of text.split('\n')) {
      const a = line.indexOf(' ');
      if (a <= 0) continue;
      const b = line.indexOf(' ', a + 1);
      dictFreq.set(line.slice(0, a), Number(line.slice(a + 1, b > 0 ? b : undefined)) || 0);
    }
  }
  return dictFreq.get(word) ?? 0;
}

let t2s: Map<string, string> | null = null;

function traditionalToSimplified(text: string): string {
  if (!t2s) {
    t2s = new Map();
    for (let i = 0; i < TRADITIONAL.length; i++) t2s.set(TRADITIONAL[i], SIMPLIFIED[i]);
  }
  let out = '';
  let changed = false;
  for (const ch of text) {
    const s = ch.charCodeAt(0) >= 0x3400 ? t2s.get(ch) : undefined;
    if (s) {
      out += s;
      changed = true;
    } else out += ch;
  }
  return changed ? out : text;
}

const HAS_LATIN_ACCENT = /[\u00C0-\u024F\u1E00-\u1EFF]/;
const HAS_HAN = /[\u3400-\u9FFF\uF900-\uFAFF]/;

/** NFKC + lower case + traditional→simplified + Latin diacritics removed. */
export function normalizeText(text: string): string {
  let s = text.normalize('NFKC').toLowerCase();
  if (HAS_HAN.test(s)) s = traditionalToSimplified(s);
  if (HAS_LATIN_ACCENT.test(s)) {
    s = s.replace(/[\u00C0-\u024F\u1E00-\u1EFF]/g, (ch) => ch.normalize('NFD').replace(/\p{M}+/gu, ''));
  }
  return s;
}

/** True when the character is one that jieba segments (Han, kana). */
export function isCjkChar(ch: string): boolean {
  return /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u30FC]/u.test(ch);
}

/** True when the text contains Han characters (chooses the CJK query path). */
export function hasHan(text: string): boolean {
  return /\p{Script=Han}/u.test(text);
}

const NON_ASCII = /[^\p{ASCII}]/u;
const WORD_CHAR = /[\p{L}\p{N}\p{M}]/u;
const DIGIT_CHAR = /\p{N}/u;
const CJK_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u30FC]/u;
const SEP = 0;
const WORD = 1;
const DIGIT = 2;
const CJK = 3;
const charClasses = new Map<number, number>();

/** Class of a UTF-16 code unit / code point: separator, word letter, digit, or CJK. */
function classOf(code: number, ch: string): number {
  if (code < 128) {
    if (code >= 97 && code <= 122) return WORD;
    if (code >= 48 && code <= 57) return DIGIT;
    if (code >= 65 && code <= 90) return WORD;
    return SEP;
  }
  let c = charClasses.get(code);
  if (c === undefined) {
    c = CJK_CHAR.test(ch) ? CJK : DIGIT_CHAR.test(ch) ? DIGIT : WORD_CHAR.test(ch) ? WORD : SEP;
    charClasses.set(code, c);
  }
  return c;
}
const MAX_TOKEN_LENGTH = 48;
/** Porter stem of a lower-case a–z word; other tokens unchanged. */
export function stem(word: string): string {
  if (word.length < 3 || !/^[a-z]+$/.test(word)) return word;
  return stemmer(word);
}

// Raw word → indexed token ('' for a stop word), found without allocating: an open hash table keyed by
// the word's FNV-1a hash (computed while scanning), checked char by char at the word's offset.
// Slicing and hashing a new string per word cost more than the rest of the tokenizer together.
const CACHE_BITS = 18;
const CACHE_MASK = (1 << CACHE_BITS) - 1;
const cacheKeys: Array<string | undefined> = new Array<string | undefined>(1 << CACHE_BITS);
const cacheValues: string[] = new Array<string>(1 << CACHE_BITS);

function indexTokenAt(src: string, start: number, end: number, hash: number): string {
  const slot = hash & CACHE_MASK;
  const key = cacheKeys[slot];
  if (key !== undefined && key.length === end - start) {
    // (A char loop: String.prototype.startsWith with an offset is several times slower here.)
    let k = 0;
    while (k < key.length && key.charCodeAt(k) === src.charCodeAt(start + k)) k++;
    if (k === key.length) return cacheValues[slot];
  }
  const raw = src.slice(start, end);
  const value = STOP_WORDS.has(raw) ? '' : stem(raw);
  cacheKeys[slot] = raw;
  cacheValues[slot] = value;
  return value;
}

export interface TokenizeOptions {
  /** Also drop question words (what, how, 什么…): the query side. */
  question?: boolean;
  /** Keep stop words (used for highlighting offsets, never for matching). */
  keepStopWords?: boolean;
}

/**
 * Coarse tokens of a text (the `*_tks` / `*_ltks` fields). Works on raw text: HTML tags are dropped,
 * normalization is applied here.
 */
export function tokenize(text: string, opts: TokenizeOptions = {}): string[] {
  if (!text) return [];
  const stripped = text.includes('<') ? text.replace(/<[^>]{0,200}>/g, ' ') : text;
  const ascii = !NON_ASCII.test(stripped);
  // ASCII is unchanged by NFKC, t2s and accent folding: lower-casing is the whole normalization.
  const src = (ascii ? stripped.toLowerCase() : normalizeText(stripped)).replace(/(\p{L})['’]s\b/gu, '$1');
  const out: string[] = [];
  if (ascii && !opts.keepStopWords && !opts.question) {
    asciiWords(src, out);
    return out;
  }
  // One pass over the text: runs of CJK characters go to jieba; words are runs of letters/digits/marks
  // (a number keeps its decimal points: "3.5").
  let start = -1;
  let runCjk = false;
  let numeric = true;
  let hash = 0;
  const flush = (end: number) => {
    if (start < 0) return;
    if (runCjk) {
      for (const w of getJieba().cut(src.slice(start, end), false)) pushToken(out, w, opts);
    } else if (end - start <= MAX_TOKEN_LENGTH) {
      if (opts.keepStopWords || opts.question) pushToken(out, src.slice(start, end), opts);
      else {
        const t = indexTokenAt(src, start, end, hash);
        if (t !== '') out.push(t);
      }
    }
    start = -1;
  };
  for (let i = 0; i < src.length; i++) {
    let code = src.charCodeAt(i);
    const wide = code >= 0xd800 && code <= 0xdbff && i + 1 < src.length;
    if (wide) code = src.codePointAt(i)!;
    const cls = classOf(code, code >= 128 ? String.fromCodePoint(code) : '');
    if (cls === SEP) {
      const decimal =
        code === 46 &&
        start >= 0 &&
        !runCjk &&
        numeric &&
        i + 1 < src.length &&
        classOf(src.charCodeAt(i + 1), src[i + 1]) === DIGIT;
      if (decimal) hash = Math.imul(hash ^ code, 16777619);
      else flush(i);
    } else if (start >= 0 && (cls === CJK) === runCjk) {
      if (cls !== DIGIT) numeric = false;
      hash = Math.imul(hash ^ code, 16777619);
    } else {
      flush(i);
      start = i;
      runCjk = cls === CJK;
      numeric = cls === DIGIT;
      hash = Math.imul(2166136261 ^ code, 16777619);
    }
    if (wide) i++;
  }
  flush(src.length);
  return out;
}

/** The ASCII path of `tokenize` (index side): same tokens, no per-character calls. */
function asciiWords(src: string, out: string[]): void {
  const n = src.length;
  let i = 0;
  while (i < n) {
    let c = src.charCodeAt(i);
    if (!((c >= 97 && c <= 122) || (c >= 48 && c <= 57))) {
      i++;
      continue;
    }
    const start = i;
    let numeric = c <= 57;
    let hash = Math.imul(2166136261 ^ c, 16777619);
    i++;
    while (i < n) {
      c = src.charCodeAt(i);
      if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) {
        if (c > 57) numeric = false;
      } else if (
        c === 46 &&
        numeric &&
        i + 1 < n &&
        src.charCodeAt(i + 1) >= 48 &&
        src.charCodeAt(i + 1) <= 57
      ) {
        // decimal point inside a number
      } else break;
      hash = Math.imul(hash ^ c, 16777619);
      i++;
    }
    if (i - start <= MAX_TOKEN_LENGTH) {
      const t = indexTokenAt(src, start, i, hash);
      if (t !== '') out.push(t);
    }
  }
}

function pushToken(out: string[], raw: string, opts: TokenizeOptions): void {
  if (raw.length > MAX_TOKEN_LENGTH) return;
  if (!opts.keepStopWords) {
    if (STOP_WORDS.has(raw)) return;
    if (opts.question && QUESTION_WORDS.has(raw)) return;
  }
  out.push(stem(raw));
}

/** True for tokens that get fine-grained sub-tokens: CJK words of three characters or more. */
export function needsFineGrained(token: string): boolean {
  return token.length >= 3 && isCjkChar(token[0]) && [...token].every(isCjkChar);
}

/**
 * Sub-tokens of one long CJK token: a non-overlapping left-to-right cut into the longest dictionary
 * words shorter than the token (中华人民共和国 → 中华 人民 共和国). Empty when there is no finer cut.
 */
export function subTokens(token: string): string[] {
  if (!needsFineGrained(token)) return [];
  const parts = getJieba()
    .cutForSearch(token, false)
    .filter((w) => w.length >= 2 && w.length < token.length);
  if (parts.length === 0) return [];
  const out: string[] = [];
  let i = 0;
  while (i < token.length) {
    let best = '';
    for (const p of parts) if (p.length > best.length && token.startsWith(p, i)) best = p;
    if (!best) best = token[i];
    out.push(best);
    i += best.length;
  }
  return out.length > 1 ? out : [];
}

/** Fine-grained field (`*_sm_*`): the sub-tokens of every long CJK token, in order. */
export function fineGrained(tokens: string[]): string[] {
  const out: string[] = [];
  for (const t of tokens) if (needsFineGrained(t)) for (const s of subTokens(t)) out.push(s);
  return out;
}
