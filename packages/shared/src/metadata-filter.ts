/**
 * The metadata filter of dialogs, search apps, retrieval testing and the agent Retrieval component
 * (`meta_data_filter`, AGENTS.md Retrieval), as both sides see them. The public `metadata_condition`
 * of API.md §6, §17 is `MetadataCondition` in contract/document.ts. The server resolves either into
 * the documents whose metadata match (apps/server/src/search/metadata-filter.ts); the web builds
 * `meta_data_filter` with these names (features/metadata).
 */

/** Comparison operators, in the order the UI offers them. `empty`/`not empty` take no value. */
export const META_OPERATORS = [
  'is',
  'is not',
  'contains',
  'not contains',
  'start with',
  'end with',
  'empty',
  'not empty',
  '=',
  '≠',
  '>',
  '<',
  '≥',
  '≤',
] as const;
export type MetaOperator = (typeof META_OPERATORS)[number];

/** Operators that compare without a value. */
export const VALUELESS_META_OPERATORS: readonly MetaOperator[] = ['empty', 'not empty'];

export type MetaLogic = 'and' | 'or';

/** `disabled` (or an absent filter) = no filtering; `semi_auto` = auto over the keys in `semi_auto`. */
export const META_FILTER_METHODS = ['disabled', 'manual', 'auto', 'semi_auto'] as const;
export type MetaFilterMethod = (typeof META_FILTER_METHODS)[number];

/** One manual condition: `{key, op, value}`. */
export type ManualMetaCondition = {
  key: string;
  op: MetaOperator;
  value: string | number;
};

/** `meta_data_filter` as stored on a dialog / search app and sent to retrieval testing. */
export type MetaDataFilter = {
  method?: MetaFilterMethod;
  manual?: ManualMetaCondition[];
  logic?: MetaLogic;
  semi_auto?: string[];
};
