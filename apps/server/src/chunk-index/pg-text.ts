/**
 * The full text of a chunk as the PostgreSQL index stores it, and the tsquery of a clause.
 *
 * A record's seven token fields (search/fields.ts, in TEXT_COLUMNS order) become FTS5 terms (fts-terms.ts)
 * at FTS5's positions, in two tsvectors whose labels carry the field weights of API.md §19.2:
 * - `tsv` (coarse fields): important_kwd A (30), important_tks B (20), question_tks B (20), title_tks
 *   C (10), content_ltks D (2);
 * - `tsv_sm` (fine-grained fields): title_sm_tks A (5), content_sm_ltks D (1).
 * `ts_rank_cd(weights, tsv, 'term')` over a one-term or phrase query sums the label weight of each
 * instance (each is one cover of its own), which is FTS5's column-weighted phrase frequency; the
 * weights are given relative to the largest (ts_rank_cd takes weights ≤ 1) and the sum, an integer, is
 * rounded back. Fields start FIELD_GAP positions apart so that no phrase or proximity group spans two.
 *
 * Limits of tsvector (PostgreSQL's, documented in the README): positions stop at 16,383 (later terms of
 * a very long chunk share the last position, so their phrases no longer match), a term keeps its first
 * 256 positions, and a term longer than 2,046 bytes is not indexed (it still counts in the length).
 */
import { FIELD_WEIGHTS, type TextClause } from './chunk-index.js';
import { tokenFields, type FieldSource } from './fields.js';
import { columnTexts, TEXT_COLUMNS } from './sqlite-schema.js';
import { ftsTerms } from './fts-terms.js';
import { isCjkChar } from './tokenizer.js';

export const FIELD_GAP = 100;
const MAX_POSITION = 16_383;
const MAX_POSITIONS_PER_TERM = 256;
const MAX_TERM_BYTES = 2_046;
/** tsvector holds at most 1 MiB of term text. */
const MAX_TERM_TEXT_BYTES = 1_000_000;

type Label = 'A' | 'B' | 'C' | 'D';
type TextColumn = (typeof TEXT_COLUMNS)[number];

interface FieldSlot {
  column: TextColumn;
  label: Label;
}

const COARSE: FieldSlot[] = [
  { column: 'important_kwd', label: 'A' },
  { column: 'important_tks', label: 'B' },
  { column: 'question_tks', label: 'B' },
  { column: 'title_tks', label: 'C' },
  { column: 'content_ltks', label: 'D' },
];
const FINE: FieldSlot[] = [
  { column: 'title_sm_tks', label: 'A' },
  { column: 'content_sm_ltks', label: 'D' },
];

function weightsOf(slots: FieldSlot[]): Record<Label, number> {
  const w: Record<Label, number> = { A: 0, B: 0, C: 0, D: 0 };
  for (const s of slots) w[s.label] = FIELD_WEIGHTS[s.column];
  return w;
}

/** Weight of an instance by its label, in each tsvector. */
export const COARSE_WEIGHTS = weightsOf(COARSE);
export const FINE_WEIGHTS = weightsOf(FINE);

/** `ts_rank_cd` weight array ({D, C, B, A}, each ≤ 1) and the scale that gives back the weight sum. */
function rankWeights(w: Record<Label, number>): { array: string; scale: number } {
  const scale = Math.max(w.A, w.B, w.C, w.D);
  const rel = (x: number) => (x > 0 ? x / scale : 1); // unused labels: any valid weight
  return { array: `{${[rel(w.D), rel(w.C), rel(w.B), rel(w.A)].join(',')}}`, scale };
}
export const COARSE_RANK = rankWeights(COARSE_WEIGHTS);
export const FINE_RANK = rankWeights(FINE_WEIGHTS);

export interface StoredText {
  tsv: string;
  tsvSm: string | null;
  /** FTS5's row length: every term of every column, plus the document term of its `flt` column. */
  dl: number;
}

function quoteLexeme(term: string): string {
  return term.includes("'") || term.includes('\\')
    ? `'${term.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`
    : `'${term}'`;
}

const LABEL_SUFFIX: Record<Label, string> = { A: 'A', B: 'B', C: 'C', D: '' };

/** tsvector literal of the slots' fields (`'term':1A,7A 'other':2 …`). */
function tsvectorOf(slots: FieldSlot[], terms: Map<TextColumn, string[]>): string {
  // Per term, its positions as text ("12A") in order; built as one string per term.
  const entries = new Map<string, { text: string; count: number; last: number }>();
  let bytes = 0;
  let pos = 1;
  for (const slot of slots) {
    const list = terms.get(slot.column)!;
    const suffix = LABEL_SUFFIX[slot.label];
    for (let i = 0; i < list.length; i++) {
      const term = list[i];
      const at = Math.min(pos + i, MAX_POSITION);
      const e = entries.get(term);
      if (!e) {
        // UTF-8 bytes: at most 3 per UTF-16 unit, counted exactly only near the limit.
        const size = term.length * 3 > MAX_TERM_BYTES ? Buffer.byteLength(term) : term.length * 3;
        if (size > MAX_TERM_BYTES || bytes + size > MAX_TERM_TEXT_BYTES) continue;
        bytes += size;
        entries.set(term, { text: `${quoteLexeme(term)}:${at}${suffix}`, count: 1, last: at });
        continue;
      }
      if (e.count >= MAX_POSITIONS_PER_TERM || e.last === at) continue;
      e.text += `,${at}${suffix}`;
      e.count++;
      e.last = at;
    }
    if (list.length > 0) pos += list.length + FIELD_GAP;
  }
  let out = '';
  for (const e of entries.values()) out += out ? ` ${e.text}` : e.text;
  return out;
}

/** The stored full text of a record from its column texts (search/sqlite-schema.ts `columnTexts`). */
export function storedText(columnTexts: string[]): StoredText {
  const terms = new Map<TextColumn, string[]>();
  let dl = 1;
  TEXT_COLUMNS.forEach((column, i) => {
    const t = ftsTerms(columnTexts[i] ?? '');
    terms.set(column, t);
    dl += t.length;
  });
  const sm = tsvectorOf(FINE, terms);
  return { tsv: tsvectorOf(COARSE, terms), tsvSm: sm === '' ? null : sm, dl };
}

/** The stored full text of a record's fields (tokenized here). */
export function storedTextOf(r: FieldSource): StoredText {
  return storedText(columnTexts(tokenFields(r)));
}

/**
 * The FTS5 phrases of a clause as the SQLite index writes it (search/sqlite-search.ts
 * `clauseExpression`): a term clause is its first token, a phrase clause all its tokens in a row, a
 * proximity group one phrase per token.
 */
export function clausePhrases(c: TextClause): string[][] {
  if (c.kind === 'term' || c.tokens.length === 1) return [ftsTerms(c.tokens[0] ?? '')];
  if (c.kind === 'phrase') return [ftsTerms(c.tokens.join(' '))];
  return c.tokens.map((t) => ftsTerms(t));
}

/** tsquery of one phrase (terms in a row); null for a phrase without terms (it matches nothing). */
export function phraseQuery(terms: string[]): string | null {
  if (terms.length === 0) return null;
  return terms.map(quoteLexeme).join(' <-> ');
}

/** tsquery that every row holding all the terms matches (the candidates of a proximity group). */
export function allTermsQuery(terms: string[]): string | null {
  const unique = [...new Set(terms)];
  return unique.length === 0 ? null : unique.map(quoteLexeme).join(' & ');
}

/** tsquery matching any of the given ones. */
export function anyQuery(queries: string[]): string {
  return queries.map((q) => `(${q})`).join(' | ');
}

/**
 * Whether terms can be in the fine-grained fields at all: those hold only sub-words of CJK words
 * (tokenizer.ts `fineGrained`), so a query without a CJK character reads `tsv` alone.
 */
export function mayBeFine(terms: string[]): boolean {
  return terms.some((t) => [...t].some(isCjkChar));
}
