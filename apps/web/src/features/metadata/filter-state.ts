import {
  META_OPERATORS,
  VALUELESS_META_OPERATORS,
  type MetaDataFilter,
  type MetaFilterMethod,
  type MetaLogic,
  type MetaOperator,
} from '@lectern/shared';

/**
 * Pure state of the metadata filter builder: a stored `meta_data_filter` as an editable draft and
 * back, the rows' problems, and key/value suggestions from the selected knowledge bases' metadata
 * summaries (`document/metadata/summary`).
 */

export interface FilterRow {
  key: string;
  op: MetaOperator;
  value: string;
}

export interface FilterDraft {
  method: MetaFilterMethod;
  logic: MetaLogic;
  rows: FilterRow[];
  /** Keys an automatic filter may use (`semi_auto`). */
  keys: string[];
}

/** `{key: [[value, count], …]}` of one knowledge base. */
export type MetaSummary = Record<string, Array<[string, number]>>;

const METHODS: readonly MetaFilterMethod[] = ['disabled', 'manual', 'auto', 'semi_auto'];

function isObj(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

export const emptyRow = (): FilterRow => ({ key: '', op: 'is', value: '' });

/** A stored filter (any shape, `{}` included) as a draft; unknown operators become `is`. */
export function draftOf(filter: unknown): FilterDraft {
  const f = isObj(filter) ? filter : {};
  const method = METHODS.find((m) => m === f.method) ?? 'disabled';
  const rows = Array.isArray(f.manual)
    ? f.manual.filter(isObj).map((c) => ({
        key: typeof c.key === 'string' ? c.key : '',
        op: (META_OPERATORS as readonly string[]).includes(String(c.op)) ? (c.op as MetaOperator) : 'is',
        value: c.value === undefined || c.value === null ? '' : String(c.value),
      }))
    : [];
  const keys = Array.isArray(f.semi_auto)
    ? f.semi_auto.filter((k): k is string => typeof k === 'string')
    : [];
  return { method, logic: f.logic === 'or' ? 'or' : 'and', rows, keys };
}

/** The filter to store: disabled → `{}`; manual keeps rows with a key (valueless operators send ""). */
export function filterOf(draft: FilterDraft): MetaDataFilter {
  switch (draft.method) {
    case 'manual':
      return {
        method: 'manual',
        logic: draft.logic,
        manual: draft.rows
          .filter((r) => r.key.trim() !== '')
          .map((r) => ({
            key: r.key.trim(),
            op: r.op,
            value: VALUELESS_META_OPERATORS.includes(r.op) ? '' : r.value.trim(),
          })),
      };
    case 'auto':
      return { method: 'auto' };
    case 'semi_auto':
      return { method: 'semi_auto', semi_auto: draft.keys };
    default:
      return {};
  }
}

export type RowProblem = 'keyRequired' | 'valueRequired';

/** What is wrong with each manual row (null = fine); a manual filter needs at least one condition. */
export function rowProblems(draft: FilterDraft): Array<RowProblem | null> {
  if (draft.method !== 'manual') return [];
  return draft.rows.map((r) => {
    if (r.key.trim() === '') return 'keyRequired';
    if (!VALUELESS_META_OPERATORS.includes(r.op) && r.value.trim() === '') return 'valueRequired';
    return null;
  });
}

/** The draft's first problem, as an i18n key of the builder, or null when it can be saved. */
export function draftProblem(draft: FilterDraft): string | null {
  if (draft.method === 'manual' && draft.rows.length === 0) return 'noCondition';
  if (draft.method === 'semi_auto' && draft.keys.length === 0) return 'noKeys';
  return rowProblems(draft).find((p) => p !== null) ?? null;
}

/** Keys of several summaries, most documents first, then by name. */
export function keySuggestions(summaries: MetaSummary[]): string[] {
  const docs = new Map<string, number>();
  for (const s of summaries) {
    for (const [key, values] of Object.entries(s)) {
      docs.set(key, (docs.get(key) ?? 0) + values.reduce((n, [, c]) => n + c, 0));
    }
  }
  return [...docs].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([k]) => k);
}

/** Values a key takes across the summaries, most frequent first (at most `limit`). */
export function valueSuggestions(summaries: MetaSummary[], key: string, limit = 50): string[] {
  const counts = new Map<string, number>();
  for (const s of summaries) for (const [v, c] of s[key] ?? []) counts.set(v, (counts.get(v) ?? 0) + c);
  return [...counts]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, limit)
    .map(([v]) => v);
}
