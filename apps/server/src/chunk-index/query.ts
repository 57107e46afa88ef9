/**
 * The weighted full-text query of a question (API.md §19.2), engine-neutral: the adapters turn its
 * clauses into FTS5 MATCH expressions (SQLite) or tsquery/ts_rank expressions (PostgreSQL).
 * - Latin-script questions: one clause per term `t^w` and one per adjacent pair as a phrase
 *   `"t1 t2"^(2·max(w1,w2))`; a row must match at least one of them. (No synonym dictionary ships,
 *   so the `w/4` synonym clauses are absent.)
 * - Questions with Han characters: the question is cut into phrases (whitespace, punctuation, and
 *   Latin/CJK boundaries); per phrase, each token `t^w` OR its fine-grained sub-tokens as a phrase,
 *   plus their proximity `("sm"~2)^0.5·w`, plus the whole phrase's proximity `^1.5`; phrases are OR-ed
 *   with minimum-should-match 30 % (over the tokens when there is one phrase).
 * At most 256 terms; at most 32 keywords kept for highlighting.
 */
import type { ChunkIndex, PlanOptions, QueryPlan, TermStats, TextClause } from './chunk-index.js';

// The plan's types live with the port (ChunkIndex.planQuery returns one).
export type { PlanOptions, QueryPlan } from './chunk-index.js';
import { posTags, termWeights } from './term-weight.js';
import { hasHan, normalizeText, subTokens, tokenize } from './tokenizer.js';

export const MAX_TERMS = 256;
export const MAX_KEYWORDS = 32;
export const MIN_SHOULD_MATCH = 0.3;
export const MIN_SHOULD_MATCH_RETRY = 0.1;

const SEPARATORS = /[\s:|,，。？?/`!！&^%()[\]{}<>;；:：、"“”'‘’《》【】]+/gu;

/** Splits a normalized question into phrases: separators, and Latin/CJK boundaries. */
export function splitPhrases(question: string): string[] {
  const s = normalizeText(question)
    .replace(
      /([\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}])([^\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\s])/gu,
      '$1 $2',
    )
    .replace(
      /([^\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\s])([\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}])/gu,
      '$1 $2',
    )
    .replace(SEPARATORS, ' ');
  return s.split(' ').filter(Boolean);
}

/** Number of groups a row must match for a fraction of `groups` (at least one). */
export function minimumShouldMatchCount(fraction: number, groups: number): number {
  return Math.max(1, Math.floor(fraction * groups + 1e-9));
}

function pushKeyword(keywords: string[], k: string): void {
  if (keywords.length < MAX_KEYWORDS && !keywords.includes(k)) keywords.push(k);
}

/**
 * Builds the query; `stats` gives the index's document frequencies. Null when nothing searchable
 * is left (a question of stop words only).
 */
export async function planQuery(
  question: string,
  stats: (tokens: string[]) => Promise<TermStats>,
  options: PlanOptions = {},
): Promise<QueryPlan | null> {
  const keep = (t: string) => options.keepSingleChars === true || !/^[a-z0-9]$/.test(t);
  if (hasHan(question)) return planCjk(question, stats, keep);
  return planLatin(question, stats, keep);
}

/**
 * Plans a question against an index: where the index plans it itself (off the event loop, see
 * ChunkIndex.planQuery), else here over its termStats.
 */
export function planSearch(
  index: Pick<ChunkIndex, 'termStats' | 'planQuery'>,
  question: string,
  options: PlanOptions = {},
): Promise<QueryPlan | null> {
  if (index.planQuery) return index.planQuery(question, options);
  return planQuery(question, (tokens) => index.termStats(tokens), options);
}

async function planLatin(
  question: string,
  statsOf: (t: string[]) => Promise<TermStats>,
  keep: (token: string) => boolean,
): Promise<QueryPlan | null> {
  const tokens = tokenize(question, { question: true }).filter(keep).slice(0, MAX_TERMS);
  if (tokens.length === 0) return null;
  const stats = await statsOf([...new Set(tokens)]);
  const weighted = termWeights(tokens, stats);
  const clauses: TextClause[] = [];
  const termIndex = new Map<string, TextClause>();
  for (const [t, w] of weighted) {
    const existing = termIndex.get(t);
    if (existing) {
      existing.boost += w;
      continue;
    }
    const clause: TextClause = {
      tokens: [t],
      kind: 'term',
      boost: w,
      group: clauses.length,
      df: stats.df[t] ?? 0,
    };
    termIndex.set(t, clause);
    clauses.push(clause);
  }
  const pairs = new Set<string>();
  for (let i = 1; i < weighted.length; i++) {
    const [a, wa] = weighted[i - 1];
    const [b, wb] = weighted[i];
    if (a === b || pairs.has(`${a} ${b}`)) continue;
    pairs.add(`${a} ${b}`);
    clauses.push({
      tokens: [a, b],
      kind: 'phrase',
      boost: 2 * Math.max(wa, wb),
      group: clauses.length,
      df: Math.min(stats.df[a] ?? 0, stats.df[b] ?? 0),
    });
  }
  const keywords: string[] = [];
  for (const t of tokens) pushKeyword(keywords, t);
  return {
    text: { clauses, groups: clauses.length, minimumShouldMatch: 0, indexRows: stats.total },
    keywords,
    weighted,
    cjk: false,
  };
}

async function planCjk(
  question: string,
  statsOf: (t: string[]) => Promise<TermStats>,
  keep: (token: string) => boolean,
): Promise<QueryPlan | null> {
  const phrases: Array<{ text: string; tokens: string[] }> = [];
  let count = 0;
  for (const p of splitPhrases(question)) {
    if (count >= MAX_TERMS) break;
    const tokens = tokenize(p, { question: true })
      .filter(keep)
      .slice(0, MAX_TERMS - count);
    if (tokens.length === 0) continue;
    count += tokens.length;
    phrases.push({ text: p, tokens });
  }
  if (phrases.length === 0) return null;
  const all = phrases.flatMap((p) => p.tokens);
  const sub = new Map<string, string[]>();
  for (const t of new Set(all)) sub.set(t, subTokens(t));
  const stats = await statsOf([...new Set([...all, ...[...sub.values()].flat()])]);
  const tags = posTags(phrases.map((p) => p.text).join(' '));
  const clauses: TextClause[] = [];
  const keywords: string[] = [];
  const single = phrases.length === 1;
  let group = 0;
  for (const phrase of phrases) {
    const weights = termWeights(phrase.tokens, stats, tags).sort((a, b) => b[1] - a[1]);
    for (const [t, w] of weights) {
      const sm = sub.get(t) ?? [];
      pushKeyword(keywords, t);
      for (const s of sm) if (s.length > 1) pushKeyword(keywords, s);
      clauses.push({ tokens: [t], kind: 'term', boost: w, group });
      if (sm.length > 1) {
        clauses.push({ tokens: sm, kind: 'phrase', boost: w, group });
        clauses.push({ tokens: sm, kind: 'near', slop: 2, boost: 0.5 * w, group });
      }
      if (single) group++;
    }
    if (phrase.tokens.length > 1) {
      clauses.push({ tokens: phrase.tokens, kind: 'near', slop: 2, boost: 1.5, group });
      if (single) group++;
    }
    if (!single) group++;
  }
  return {
    text: { clauses, groups: group, minimumShouldMatch: MIN_SHOULD_MATCH },
    keywords,
    weighted: termWeights(all, stats, tags),
    cjk: true,
  };
}
