/**
 * The tokenized fields of a chunk record (API.md §19.1), computed from its stored text. They are
 * indexed by the engine and recomputed when needed (term similarity of the scoring window), never
 * stored twice.
 */
import type { ChunkRecord } from './chunk-index.js';
import { fineGrained, tokenize } from './tokenizer.js';

export interface TokenFields {
  title_tks: string[];
  title_sm_tks: string[];
  /** Each keyword as one token (its tokens joined by `_`): matches a query term equal to it. */
  important_kwd: string[];
  important_tks: string[];
  question_tks: string[];
  content_ltks: string[];
  content_sm_ltks: string[];
}

/** Document name without its extension (`report.final.pdf` → `report.final`). */
export function titleOf(docName: string): string {
  return docName.replace(/\.[a-zA-Z0-9]{1,8}$/, '');
}

export function keywordToken(keyword: string): string {
  return tokenize(keyword).join('_');
}

export type FieldSource = Pick<
  ChunkRecord,
  'docnm_kwd' | 'content_with_weight' | 'important_kwd' | 'question_kwd'
> & {
  search_text?: string;
  extra?: Record<string, unknown>;
};

/**
 * `extra` key of a parent chunk (`children_delimiter`, API.md §19.1): the ids of its child chunks.
 * A parent is what chunk lists show and retrieval returns, but its children are what is matched, so
 * a parent has no searchable tokens (and no vector): it can never be a search candidate itself.
 */
export const CHILD_IDS_FIELD = 'child_ids';

export function childIdsOf(r: { extra?: Record<string, unknown> }): string[] | null {
  const ids = r.extra?.[CHILD_IDS_FIELD];
  return Array.isArray(ids) ? ids.filter((x): x is string => typeof x === 'string') : null;
}

const NO_TOKENS: TokenFields = {
  title_tks: [],
  title_sm_tks: [],
  important_kwd: [],
  important_tks: [],
  question_tks: [],
  content_ltks: [],
  content_sm_ltks: [],
};

export function tokenFields(r: FieldSource): TokenFields {
  if (childIdsOf(r)) return { ...NO_TOKENS };
  const title = tokenize(titleOf(r.docnm_kwd ?? ''));
  const content = tokenize(r.search_text || r.content_with_weight || '');
  const important = r.important_kwd ?? [];
  return {
    title_tks: title,
    title_sm_tks: fineGrained(title),
    important_kwd: important.map(keywordToken).filter(Boolean),
    important_tks: tokenize(important.join(' \n ')),
    question_tks: tokenize((r.question_kwd ?? []).join(' \n ')),
    content_ltks: content,
    content_sm_ltks: fineGrained(content),
  };
}

/** The fields tokenFields reads (what crosses to the tokenizer thread). */
export function fieldSource(r: ChunkRecord): FieldSource {
  return {
    docnm_kwd: r.docnm_kwd,
    content_with_weight: r.content_with_weight,
    search_text: r.search_text,
    important_kwd: r.important_kwd,
    question_kwd: r.question_kwd,
    // A parent chunk is not searchable (tokenFields): its marker must reach the tokenizer thread.
    ...(childIdsOf(r) ? { extra: r.extra } : {}),
  };
}
