/**
 * Request shapes of the chunk routes (API.md §7). zod decides presence (101) and plain types (100);
 * the list-valued fields carry the contract's own 102 messages, so they are checked by hand here.
 */
import { z } from 'zod';
import { RetCode } from '@lectern/shared';
import { ApiError, errors } from '../../http/envelope.js';

/** Present with any value; absent → 101 (a present `null` passes, API.md §1.5). */
const present = z.custom<unknown>((v) => v !== undefined);

export const listBody = z.object({
  doc_id: z.string(),
  page: z.unknown().optional(),
  size: z.unknown().optional(),
  keywords: z.string().nullable().optional(),
  available_int: z.unknown().optional(),
});

export const getQuery = z.object({ chunk_id: z.string() });

export const createBody = z.object({
  doc_id: z.string(),
  content_with_weight: z.string(),
  important_kwd: z.unknown().optional(),
  question_kwd: z.unknown().optional(),
  tag_kwd: z.unknown().optional(),
  tag_feas: z.unknown().optional(),
});
export type CreateBody = z.infer<typeof createBody>;

export const setBody = z.object({
  doc_id: z.string(),
  chunk_id: z.string(),
  content_with_weight: z.string(),
  important_kwd: z.unknown().optional(),
  question_kwd: z.unknown().optional(),
  tag_kwd: z.unknown().optional(),
  tag_feas: z.unknown().optional(),
  available_int: z.unknown().optional(),
  image_base64: z.string().nullable().optional(),
  img_id: z.string().nullable().optional(),
});
export type SetBody = z.infer<typeof setBody>;

export const switchBody = z.object({
  chunk_ids: z.array(z.string()),
  available_int: present,
  doc_id: z.string(),
});

export const rmBody = z.object({
  chunk_ids: z.array(z.string()),
  doc_id: z.string(),
});

export const knowledgeGraphQuery = z.object({ doc_id: z.string() });

export const retrievalBody = z.object({
  kb_id: present,
  question: present,
  page: z.unknown().optional(),
  size: z.unknown().optional(),
  doc_ids: z.array(z.string()).nullable().optional(),
  similarity_threshold: z.unknown().optional(),
  vector_similarity_weight: z.unknown().optional(),
  top_k: z.unknown().optional(),
  rerank_id: z.string().nullable().optional(),
  keyword: z.boolean().nullable().optional(),
  highlight: z.boolean().nullable().optional(),
  cross_languages: z.array(z.string()).nullable().optional(),
  use_kg: z.boolean().nullable().optional(),
  meta_data_filter: z.record(z.string(), z.unknown()).nullable().optional(),
  search_id: z.string().nullable().optional(),
});
export type RetrievalBody = z.infer<typeof retrievalBody>;

/**
 * A keyword list of create/set: absent → [], not a list → 102 with the route's own wording
 * ("is required to be a list" on create, "should be a list" on set), an item that is not a string → 100.
 */
export function keywordList(name: string, value: unknown, listMessage: string): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw errors.data(`\`${name}\` ${listMessage}`);
  if (!value.every((v) => typeof v === 'string')) {
    throw new ApiError(RetCode.EXCEPTION_ERROR, `\`${name}\` items must be strings.`);
  }
  return value.map((v) => (v as string).trim()).filter((v) => v.length > 0);
}

/** `tag_feas`: an object of finite numbers (tag → weight). */
export function tagFeatures(value: unknown): Record<string, number> | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value))
    throw errors.exception('`tag_feas` must be an object.');
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
    if (!Number.isFinite(n)) throw errors.exception('`tag_feas` values must be numbers.');
    out[k] = n;
  }
  return out;
}

/** `available_int`: 0 or 1 (also "0"/"1" and booleans); anything else → 100. */
export function availability(value: unknown): 0 | 1 {
  if (value === 1 || value === '1' || value === true) return 1;
  if (value === 0 || value === '0' || value === false) return 0;
  throw errors.exception('`available_int` must be 0 or 1.');
}

/** A positive integer paging field (numbers or numeric strings); absent → fallback. */
export function positiveInt(name: string, value: unknown, fallback: number): number {
  if (value === undefined || value === null || value === '') return fallback;
  const n =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && value.trim() !== ''
        ? Number(value)
        : NaN;
  if (!Number.isInteger(n)) throw errors.exception(`\`${name}\` must be an integer.`);
  if (n <= 0) throw errors.exception(`\`${name}\` must be greater than 0.`);
  return n;
}
