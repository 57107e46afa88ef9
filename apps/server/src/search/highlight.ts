/**
 * Highlighting (API.md §19.5): the query's keywords are wrapped in `<em>…</em>` in the original text.
 * Words are compared the way they were indexed (normalized, stemmed), so "Chunks" is marked for the
 * keyword "chunk"; CJK keywords are found as substrings. Text without Han characters is re-highlighted
 * sentence by sentence and the hit sentences are joined with "..." (never "....": a hit's closing
 * period gives way to the join); a text without any hit is
 * returned whole. Markup inside `<…>` tags is never touched.
 */
import { normalizeText, stem } from '../chunk-index/tokenizer.js';

const WORD =
  /\p{N}+(?:\.\p{N}+)+|(?:(?![\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}])[\p{L}\p{N}\p{M}])+/gu;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

interface Normalized {
  text: string;
  /** For each UTF-16 unit of `text`: [start, end) in the original string. */
  start: number[];
  end: number[];
}

function normalizeWithOffsets(src: string): Normalized {
  let text = '';
  const start: number[] = [];
  const end: number[] = [];
  let i = 0;
  for (const ch of src) {
    const n = normalizeText(ch);
    for (let k = 0; k < n.length; k++) {
      start.push(i);
      end.push(i + ch.length);
    }
    text += n;
    i += ch.length;
  }
  return { text, start, end };
}

function tagRanges(src: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const m of src.matchAll(/<[^>]{0,400}>/g)) out.push([m.index!, m.index! + m[0].length]);
  return out;
}

/** Ranges [start, end) of the original text that match a keyword. */
export function keywordRanges(src: string, keywords: string[]): Array<[number, number]> {
  const latin = new Set(keywords.filter((k) => !CJK.test(k)));
  const cjk = keywords.filter((k) => CJK.test(k)).sort((a, b) => b.length - a.length);
  const norm = normalizeWithOffsets(src);
  const ranges: Array<[number, number]> = [];
  if (latin.size > 0) {
    for (const m of norm.text.matchAll(WORD)) {
      const w = m[0].replace(/['’]s$/, '');
      if (latin.has(w) || latin.has(stem(w))) {
        ranges.push([norm.start[m.index!], norm.end[m.index! + m[0].length - 1]]);
      }
    }
  }
  for (const k of cjk) {
    let from = 0;
    for (;;) {
      const at = norm.text.indexOf(k, from);
      if (at < 0) break;
      ranges.push([norm.start[at], norm.end[at + k.length - 1]]);
      from = at + k.length;
    }
  }
  const tags = tagRanges(src);
  const clean = ranges
    .filter(([s, e]) => !tags.some(([ts, te]) => s < te && e > ts))
    .sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const merged: Array<[number, number]> = [];
  for (const r of clean) {
    const last = merged[merged.length - 1];
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else merged.push([r[0], r[1]]);
  }
  return merged;
}

function wrap(src: string, ranges: Array<[number, number]>): string {
  let out = '';
  let at = 0;
  for (const [s, e] of ranges) {
    out += `${src.slice(at, s)}<em>${src.slice(s, e)}</em>`;
    at = e;
  }
  return out + src.slice(at);
}

/** The text with keywords wrapped in <em>; Latin text reduced to its hit sentences. */
export function highlight(text: string, keywords: string[]): string {
  if (!text || keywords.length === 0) return text;
  if (CJK.test(text)) {
    const ranges = keywordRanges(text, keywords);
    return ranges.length > 0 ? wrap(text, ranges) : text;
  }
  const sentences = text.split(/(?<=[.?!;])(?=\s)|(?<=\n)/);
  const hits: string[] = [];
  for (const s of sentences) {
    const ranges = keywordRanges(s, keywords);
    if (ranges.length > 0) hits.push(wrap(s, ranges).trim());
  }
  if (hits.length === 0) return text;
  // Joined with "..." (API.md §19.5); a sentence's own closing period is dropped first so a join never
  // reads "....".
  return hits.map((h, i) => (i < hits.length - 1 ? h.replace(/\.+$/, '') : h)).join('...');
}
