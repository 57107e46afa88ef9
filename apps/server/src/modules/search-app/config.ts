/**
 * The keys of an incoming `search_config` (API.md §15) checked one by one: known keys must have
 * their type (else 100 with a clean message naming the key, API.md §1.5); unknown keys are kept as
 * given (the update shallow-merges what the client sends).
 */
import { MAX_COUNT, type SearchConfig } from '@lectern/shared';
import { errors } from '../../http/envelope.js';

function isObj(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

const BOOLEAN_KEYS = [
  'use_kg',
  'summary',
  'highlight',
  'keyword',
  'web_search',
  'related_search',
  'query_mindmap',
] as const;
const STRING_LIST_KEYS = ['kb_ids', 'doc_ids', 'cross_languages'] as const;
/** `tavily_api_key`: the app's web-search key (as an assistant's `prompt_config` has one), used with `web_search`. */
const STRING_KEYS = ['rerank_id', 'chat_id', 'tavily_api_key'] as const;
const OBJECT_KEYS = ['llm_setting', 'meta_data_filter'] as const;

function fraction(key: string, v: unknown): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw errors.exception(`\`${key}\` must be a number.`);
  if (v < 0 || v > 1) throw errors.exception(`\`${key}\` must be between 0 and 1.`);
  return v;
}

export function checkSearchConfig(input: Record<string, unknown>): Partial<SearchConfig> {
  const out: Record<string, unknown> = { ...input };
  for (const key of BOOLEAN_KEYS) {
    if (key in input && typeof input[key] !== 'boolean')
      throw errors.exception(`\`${key}\` must be a boolean.`);
  }
  for (const key of STRING_LIST_KEYS) {
    if (!(key in input)) continue;
    const v = input[key];
    if (v === null) out[key] = [];
    else if (!Array.isArray(v) || !v.every((x) => typeof x === 'string'))
      throw errors.exception(`\`${key}\` must be a list of strings.`);
  }
  for (const key of STRING_KEYS) {
    if (!(key in input)) continue;
    if (input[key] === null) out[key] = '';
    else if (typeof input[key] !== 'string') throw errors.exception(`\`${key}\` must be a string.`);
  }
  for (const key of OBJECT_KEYS) {
    if (!(key in input)) continue;
    if (input[key] === null) out[key] = {};
    else if (!isObj(input[key])) throw errors.exception(`\`${key}\` must be an object.`);
  }
  if ('similarity_threshold' in input)
    out.similarity_threshold = fraction('similarity_threshold', input.similarity_threshold);
  if ('vector_similarity_weight' in input)
    out.vector_similarity_weight = fraction('vector_similarity_weight', input.vector_similarity_weight);
  if ('top_k' in input) {
    const v = input.top_k;
    if (typeof v !== 'number' || !Number.isInteger(v)) throw errors.exception('`top_k` must be an integer.');
    if (v < 1) throw errors.exception('`top_k` must be greater than 0.');
    if (v > MAX_COUNT) throw errors.exception(`\`top_k\` must be at most ${MAX_COUNT}.`);
  }
  return out as Partial<SearchConfig>;
}
