/**
 * FTS5's NEAR groups (`NEAR("a" "b" "c", N)`, the proximity clauses of CJK questions), evaluated in
 * Node over positions read from the tsvectors: PostgreSQL's `<N>` means "exactly N apart", and a group
 * of k words within a window has no tsquery form. This is a port of fts5ExprNearIsMatch (SQLite's
 * fts5_expr.c): it decides whether a row matches and keeps, for each phrase, only the instances that
 * are part of a match — the instances bm25() then counts.
 */

const END = Number.MAX_SAFE_INTEGER;

/** Start positions where the terms of a phrase follow each other (`byTerm`: sorted positions per term). */
export function phrasePositions(terms: string[], byTerm: ReadonlyMap<string, readonly number[]>): number[] {
  if (terms.length === 0) return [];
  const first = byTerm.get(terms[0]) ?? [];
  if (terms.length === 1) return [...first];
  const sets = terms.slice(1).map((t) => new Set(byTerm.get(t) ?? []));
  return first.filter((p) => sets.every((s, j) => s.has(p + j + 1)));
}

interface Reader {
  list: readonly number[];
  next: number;
  pos: number;
  lookahead: number;
}

function reader(list: readonly number[]): Reader {
  return { list, next: 2, pos: list[0], lookahead: list.length > 1 ? list[1] : END };
}

/** Advances to the next position; true at the end (fts5LookaheadReaderNext). */
function advance(r: Reader): boolean {
  if (r.lookahead === END) return true;
  r.pos = r.lookahead;
  r.lookahead = r.next < r.list.length ? r.list[r.next] : END;
  r.next++;
  return false;
}

/**
 * Instances of each phrase that take part in a NEAR match (`nTerms[i]`: terms of phrase i), or null
 * when the group does not match. Phrases without terms are left out, as FTS5's parser drops them.
 */
export function nearMatch(
  phrases: ReadonlyArray<readonly number[]>,
  nTerms: readonly number[],
  near: number,
): number[][] | null {
  const kept = phrases.map((_, i) => i).filter((i) => nTerms[i] > 0);
  if (kept.length === 0 || kept.some((i) => phrases[i].length === 0)) return null;
  const readers = kept.map((i) => reader(phrases[i]));
  const out = kept.map(() => [] as number[]);
  for (;;) {
    let max = readers[0].pos;
    let matched: boolean;
    do {
      matched = true;
      for (let k = 0; k < readers.length; k++) {
        const r = readers[k];
        const min = max - nTerms[kept[k]] - near;
        if (r.pos < min || r.pos > max) {
          matched = false;
          while (r.pos < min) if (advance(r)) return finish();
          if (r.pos > max) max = r.pos;
        }
      }
    } while (!matched);
    for (let k = 0; k < readers.length; k++) {
      const o = out[k];
      if (o.length === 0 || o[o.length - 1] !== readers[k].pos) o.push(readers[k].pos);
    }
    let adv = 0;
    let lowest = readers[0].lookahead;
    for (let k = 1; k < readers.length; k++) {
      if (readers[k].lookahead < lowest) {
        lowest = readers[k].lookahead;
        adv = k;
      }
    }
    if (advance(readers[adv])) return finish();
  }

  function finish(): number[][] | null {
    if (out[0].length === 0) return null;
    const all = phrases.map(() => [] as number[]);
    kept.forEach((i, k) => (all[i] = out[k]));
    return all;
  }
}
