/**
 * Term similarity of API.md §19.4 (engine-neutral): the share of the question's weighted items found in
 * a chunk's token bag. It lives beside the index so that a search thread can compute it for the rows it
 * returns (hitTerms), sparing the API's event loop the tokenizing of every row of the scoring window.
 */
import type { ChunkRecord, HitTerms } from './chunk-index.js';
import { tokenFields, type TokenFields } from './fields.js';

/** Query items of term similarity with their weights (and the prefixes of joined pairs). */
export interface QueryItems {
  weights: Map<string, number>;
  /** Every token that can start a joined item: only those are joined with their neighbour. */
  heads: Set<string>;
  total: number;
}

/**
 * Query items of term similarity: every token at 0.4·w, every adjacent pair as one joined token at
 * 0.6·max(w_i, w_i+1). Joined pairs also bridge segmentation differences in Chinese (a query word
 * 人工智能 matches a chunk cut as 人工 智能).
 */
export function queryItems(weighted: Array<[string, number]>): QueryItems {
  const weights = new Map<string, number>();
  const add = (k: string, v: number) => weights.set(k, (weights.get(k) ?? 0) + v);
  for (let i = 0; i < weighted.length; i++) {
    const [t, w] = weighted[i];
    add(t, 0.4 * w);
    if (i + 1 < weighted.length) {
      const [t2, w2] = weighted[i + 1];
      add(t + t2, 0.6 * Math.max(w, w2));
    }
  }
  const heads = new Set<string>();
  for (const k of weights.keys()) for (let n = 1; n < k.length; n++) heads.add(k.slice(0, n));
  let total = 0;
  for (const v of weights.values()) total += v;
  return { weights, heads, total };
}

export type BagFields = Pick<
  TokenFields,
  'content_ltks' | 'title_tks' | 'important_kwd' | 'important_tks' | 'question_tks'
>;

/**
 * term_similarity = Σ weights of the query items present in the chunk's bag / Σ all query weights
 * (0..1). The bag: content tokens, title tokens, important keywords and question tokens, each with its
 * adjacent joined pairs. (The contract's multiplicities ×2/×5/×6 only matter to an engine that counts;
 * the measure tests presence, so they do not change it.)
 */
export function termSimilarity(q: QueryItems, f: BagFields): number {
  if (q.total <= 0) return 0;
  const found = new Set<string>();
  const scan = (tokens: string[]) => {
    for (let i = 0; i < tokens.length; i++) {
      const t = tokens[i];
      if (q.weights.has(t)) found.add(t);
      if (i + 1 < tokens.length && q.heads.has(t)) {
        const joined = t + tokens[i + 1];
        if (q.weights.has(joined)) found.add(joined);
      }
    }
  };
  scan(f.content_ltks);
  scan(f.title_tks);
  for (const k of f.important_kwd) if (q.weights.has(k)) found.add(k);
  scan(f.important_tks);
  scan(f.question_tks);
  let s = 0;
  for (const k of found) s += q.weights.get(k)!;
  return s / q.total;
}

/** Term similarity and content tokens of one chunk for the weighted question. */
export function hitTerms(items: QueryItems, chunk: ChunkRecord): HitTerms {
  const fields = tokenFields(chunk);
  return { similarity: termSimilarity(items, fields), contentTokens: fields.content_ltks.join(' ') };
}
