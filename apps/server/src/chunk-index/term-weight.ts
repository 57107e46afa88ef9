/**
 * Term weights of query tokens (API.md §19.2):
 *   w(t) = (0.3·idf(freq_t, 10⁷) + 0.7·idf(df_t, N)) · ner(t) · pos(t),  normalized to sum 1,
 *   idf(s, N) = log10(10 + (N − s + 0.5)/(s + 0.5)).
 * - df_t and N come from the index (rows containing t, rows in the index). The contract's N = 10⁹
 *   belongs to a document-frequency table counted over a web-scale corpus; with the index's own
 *   counts the faithful N is the index size, otherwise every weight collapses to the same value.
 * - freq_t is the word's frequency in jieba's dictionary for CJK words (a long unknown word takes
 *   its rarest sub-word's frequency / 6, at least 10, as in the reference implementation). Latin
 *   words have no dictionary here, so their first idf reuses the index df scaled to 10⁷.
 * - ner: numbers 2, words of 1–2 Latin letters 0.01 (names of organisations/places need a NER
 *   dictionary we do not ship: they fall to the part-of-speech factor below).
 * - pos (jieba's tags for CJK words): pronoun/conjunction/adverb 0.3, place/organisation noun 3,
 *   noun 2, numeral 2; Latin numbers 2; other words 1.
 */
import { dictionaryFrequency, getJieba, subTokens } from './tokenizer.js';
import type { TermStats } from './chunk-index.js';

export function idf(s: number, n: number): number {
  return Math.log10(10 + (n - s + 0.5) / (s + 0.5));
}

const NUMBER = /^[0-9.,\- ]+$/;
const SHORT_LATIN = /^[a-z]{1,2}$/;

function isCjkWord(t: string): boolean {
  return /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u30FC]+$/u.test(t);
}

function ner(t: string): number {
  if (NUMBER.test(t)) return 2;
  if (SHORT_LATIN.test(t)) return 0.01;
  return 1;
}

function pos(t: string, tags: ReadonlyMap<string, string>): number {
  if (/^[0-9-]+/.test(t)) return 2;
  const tag = tags.get(t);
  if (!tag) return 1;
  if (tag === 'r' || tag === 'c' || tag === 'd') return 0.3;
  if (tag === 'ns' || tag === 'nt') return 3;
  if (tag === 'n') return 2;
  if (tag === 'm') return 2;
  return 1;
}

function dictFreq(t: string): number {
  let s = dictionaryFrequency(t);
  if (!s && t.length >= 4) {
    const parts = subTokens(t).filter((p) => p.length > 1);
    if (parts.length > 1) s = Math.min(...parts.map((p) => dictionaryFrequency(p) || 10)) / 6;
  }
  return Math.max(s, 10);
}

/** Part-of-speech tags of the CJK words of a text (jieba, no HMM, same cut as the tokenizer). */
export function posTags(text: string): Map<string, string> {
  const out = new Map<string, string>();
  if (!/\p{Script=Han}/u.test(text)) return out;
  for (const { word, tag } of getJieba().tag(text, false)) out.set(word, tag);
  return out;
}

/** Raw (un-normalized) weight of one token. */
export function rawWeight(t: string, stats: TermStats, tags: ReadonlyMap<string, string>): number {
  const n = Math.max(stats.total, 1);
  const df = Math.min(stats.df[t] ?? 0, n);
  const idf2 = idf(df, n);
  const idf1 = isCjkWord(t) ? idf(dictFreq(t), 1e7) : idf((df * 1e7) / n, 1e7);
  return (0.3 * idf1 + 0.7 * idf2) * ner(t) * pos(t, tags);
}

/** Weights of the tokens, normalized to sum 1 (same order, duplicates kept). */
export function termWeights(
  tokens: string[],
  stats: TermStats,
  tags: ReadonlyMap<string, string> = new Map(),
): Array<[string, number]> {
  const raw = tokens.map((t) => rawWeight(t, stats, tags));
  const sum = raw.reduce((a, b) => a + b, 0) || 1;
  return tokens.map((t, i) => [t, raw[i] / sum]);
}
