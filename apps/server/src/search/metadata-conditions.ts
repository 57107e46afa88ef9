/**
 * The metadata condition language, pure (no DB, no model): one comparison (`matchCondition`), a set
 * of conditions joined by `and`/`or` over one document's metadata (`metaHolds`), and the three ways a
 * filter arrives:
 * - `meta_data_filter` of dialogs, search apps, retrieval testing and the agent Retrieval component
 *   (AGENTS.md Retrieval): `{method: "disabled"|"manual"|"auto"|"semi_auto", manual: [{key, op, value}],
 *   logic: "and"|"or", semi_auto: [keys]}`;
 * - `metadata_condition` of `document/list`, `/api/v1/retrieval` and `chats_openai` `extra_body`
 *   (API.md §6, §17): `{logic, conditions: [{name, comparison_operator, value}]}`;
 * - the chat model's answer for `auto` (`parseAutoConditions`).
 * Operators: is / is not / contains / not contains / start with / end with / empty / not empty /
 * = ≠ > < ≥ ≤ (with the ASCII spellings `!=`, `>=`, `<=`, `not is`), case-insensitive for text;
 * numbers compare as numbers when both sides are numeric. A list value matches when any item does
 * (for negative operators: when no item does).
 */

import { META_OPERATORS, type MetaLogic, type MetaOperator } from '@lectern/shared';

export { META_OPERATORS, type MetaLogic, type MetaOperator };

/**
 * An operator a person sent that the language does not know: the condition matches no document (a
 * filter narrows; it never silently widens to everything).
 */
export const UNKNOWN_OPERATOR = 'unknown';
export type ConditionOperator = MetaOperator | typeof UNKNOWN_OPERATOR;

/** One condition of a filter. */
export interface MetaCondition {
  key: string;
  op: ConditionOperator;
  value: unknown;
}

/** A filter in one shape: manual conditions, or auto (model-made, optionally over chosen keys). */
export type NormalizedMetaFilter =
  | { method: 'manual'; logic: MetaLogic; conditions: MetaCondition[] }
  | { method: 'auto'; keys: string[] | null };

const ALIASES: Record<string, MetaOperator> = {
  '!=': '≠',
  '<>': '≠',
  '>=': '≥',
  '<=': '≤',
  '==': '=',
  'not is': 'is not',
  'not equal': '≠',
  'starts with': 'start with',
  'ends with': 'end with',
  'is empty': 'empty',
  'is not empty': 'not empty',
  'not contain': 'not contains',
  contain: 'contains',
};

/** The operator a spelling names, or null for an unknown one. */
export function operatorOf(raw: unknown): MetaOperator | null {
  if (typeof raw !== 'string') return null;
  const o = raw.toLowerCase().replace(/\s+/g, ' ').trim();
  if ((META_OPERATORS as readonly string[]).includes(o)) return o as MetaOperator;
  return ALIASES[o] ?? null;
}

function isObj(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function present(actual: unknown): boolean {
  return (
    actual !== undefined &&
    actual !== null &&
    actual !== '' &&
    !(Array.isArray(actual) && actual.filter((v) => v !== null && v !== '').length === 0)
  );
}

function asNumber(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string' && v.trim() !== '') {
    const n = Number(v);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

/** The expected value of a condition, prepared once: lower-cased text and number (if numeric). */
interface Expected {
  text: string;
  num: number | null;
}

const expectedOf = (value: unknown): Expected => ({
  text: String(value ?? '').toLowerCase(),
  num: asNumber(value),
});

/** One scalar against the expected value. */
function scalarHolds(item: unknown, op: ConditionOperator, exp: Expected): boolean {
  const text = String(item).toLowerCase();
  const a = asNumber(item);
  const b = exp.num;
  const numeric = a !== null && b !== null;
  switch (op) {
    case 'contains':
      return text.includes(exp.text);
    case 'start with':
      return text.startsWith(exp.text);
    case 'end with':
      return text.endsWith(exp.text);
    case 'is':
    case '=':
      return numeric ? a === b : text === exp.text;
    case '>':
      return numeric ? a > b : text > exp.text;
    case '<':
      return numeric ? a < b : text < exp.text;
    case '≥':
      return numeric ? a >= b : text >= exp.text;
    case '≤':
      return numeric ? a <= b : text <= exp.text;
    default:
      return false;
  }
}

/** Negative operators and the positive one they negate. */
const NEGATED: Partial<Record<ConditionOperator, MetaOperator>> = {
  'is not': 'is',
  '≠': '=',
  'not contains': 'contains',
};

function holds(actual: unknown, op: ConditionOperator, exp: Expected): boolean {
  if (op === 'empty') return !present(actual);
  if (op === 'not empty') return present(actual);
  const items = Array.isArray(actual) ? actual : [actual];
  const positive = NEGATED[op];
  const test = (v: unknown) => v !== null && v !== undefined && scalarHolds(v, positive ?? op, exp);
  return positive ? !items.some(test) : items.some(test);
}

/** One comparison of a document's metadata value (scalar or list) with the condition's value. */
export function matchCondition(actual: unknown, op: ConditionOperator, expected: unknown): boolean {
  return holds(actual, op, expectedOf(expected));
}

/**
 * A test of documents' metadata against the conditions, expectations prepared once (for filtering
 * many documents); no condition → every document passes.
 */
export function metaPredicate(
  conditions: readonly MetaCondition[],
  logic: MetaLogic = 'and',
): (meta: Record<string, unknown>) => boolean {
  const prepared = conditions.map((c) => ({ key: c.key, op: c.op, exp: expectedOf(c.value) }));
  if (prepared.length === 0) return () => true;
  return (meta) => {
    const test = (c: (typeof prepared)[number]) => holds(meta[c.key], c.op, c.exp);
    return logic === 'or' ? prepared.some(test) : prepared.every(test);
  };
}

/** Whether a document's metadata satisfies the conditions (no condition → true). */
export function metaHolds(
  meta: Record<string, unknown>,
  conditions: readonly MetaCondition[],
  logic: MetaLogic = 'and',
): boolean {
  return metaPredicate(conditions, logic)(meta);
}

function logicOf(raw: unknown): MetaLogic {
  return typeof raw === 'string' && raw.toLowerCase() === 'or' ? 'or' : 'and';
}

/**
 * Conditions from `{key|name, op|comparison_operator, value}` items. Items without a key or an
 * operator are dropped; an operator spelled but unknown is kept as UNKNOWN_OPERATOR (matches nothing)
 * when `unknownOps` is "keep" — what people send — and dropped for a model's answer ("drop").
 */
export function conditionsOf(items: unknown, unknownOps: 'keep' | 'drop' = 'keep'): MetaCondition[] {
  if (!Array.isArray(items)) return [];
  const out: MetaCondition[] = [];
  for (const item of items) {
    if (!isObj(item)) continue;
    const key = typeof item.key === 'string' ? item.key : item.name;
    if (typeof key !== 'string' || key.trim() === '') continue;
    const raw = item.op ?? item.comparison_operator;
    const spelled = typeof raw === 'string' && raw.trim() !== '';
    const op = operatorOf(raw) ?? (spelled && unknownOps === 'keep' ? UNKNOWN_OPERATOR : null);
    if (!op) continue;
    out.push({ key: key.trim(), op, value: item.value ?? '' });
  }
  return out;
}

/**
 * A `meta_data_filter` as stored or sent: absent, `{}`, `method: "disabled"`, an unknown method, or
 * manual without a usable condition → null (no filtering).
 */
export function normalizeMetaDataFilter(raw: unknown): NormalizedMetaFilter | null {
  if (!isObj(raw)) return null;
  const method = typeof raw.method === 'string' ? raw.method : '';
  if (method === 'manual') {
    const conditions = conditionsOf(raw.manual);
    return conditions.length > 0 ? { method: 'manual', logic: logicOf(raw.logic), conditions } : null;
  }
  if (method === 'auto') return { method: 'auto', keys: null };
  if (method === 'semi_auto') {
    const keys = Array.isArray(raw.semi_auto)
      ? raw.semi_auto.map((k) => (isObj(k) ? k.key : k)).filter((k): k is string => typeof k === 'string')
      : [];
    return keys.length > 0 ? { method: 'auto', keys } : { method: 'auto', keys: null };
  }
  return null;
}

/** `metadata_condition` (API.md §6, §17) as a manual filter; null when it holds no usable condition. */
export function fromMetadataCondition(raw: unknown): NormalizedMetaFilter | null {
  if (!isObj(raw)) return null;
  const conditions = conditionsOf(raw.conditions);
  return conditions.length > 0 ? { method: 'manual', logic: logicOf(raw.logic), conditions } : null;
}

/** `{key: [[value, count], …]}` summary of the metadata of some documents (most frequent first). */
export type MetaSummary = Record<string, Array<[string, number]>>;

export function summarizeMetadata(metas: Iterable<Record<string, unknown>>): MetaSummary {
  const counts = new Map<string, Map<string, number>>();
  for (const meta of metas) {
    for (const [key, value] of Object.entries(meta)) {
      const perKey = counts.get(key) ?? new Map<string, number>();
      counts.set(key, perKey);
      for (const v of Array.isArray(value) ? value : [value]) {
        if (v === null || v === undefined || typeof v === 'object') continue;
        perKey.set(String(v), (perKey.get(String(v)) ?? 0) + 1);
      }
    }
  }
  return Object.fromEntries(
    [...counts].map(([key, values]) => [
      key,
      [...values].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)),
    ]),
  );
}

/** Values shown to the model per key. */
const SAMPLE_VALUES = 12;

/** The prompt that turns a question into conditions over the KBs' metadata keys (method `auto`). */
export function autoFilterPrompt(question: string, summary: MetaSummary): { system: string; user: string } {
  const fields = Object.entries(summary)
    .map(([key, values]) => {
      const sample = values.slice(0, SAMPLE_VALUES).map(([v]) => JSON.stringify(v));
      return `- ${JSON.stringify(key)}: ${sample.join(', ')}${values.length > SAMPLE_VALUES ? ', …' : ''}`;
    })
    .join('\n');
  return {
    system: [
      'You turn a question into filter conditions over document metadata.',
      'Only use the metadata keys listed. Only add a condition when the question clearly restricts that key;',
      'prefer values exactly as listed. Operators: ' + META_OPERATORS.join(', ') + '.',
      'Answer with JSON only: {"logic": "and" or "or", "conditions": [{"key": ..., "op": ..., "value": ...}]}.',
      'When the question does not restrict any key, answer {"logic": "and", "conditions": []}.',
    ].join('\n'),
    user: `Metadata keys with some of their values:\n${fields}\n\nQuestion: ${question}\n\nJSON:`,
  };
}

/** The first JSON object in a model answer (code fences and reasoning tolerated), or null. */
function firstJsonObject(text: string): unknown {
  const clean = text.replace(/<think>[\s\S]*?<\/think>/g, '');
  const start = clean.indexOf('{');
  const end = clean.lastIndexOf('}');
  if (start < 0 || end <= start) return null;
  try {
    return JSON.parse(clean.slice(start, end + 1)) as unknown;
  } catch {
    return null;
  }
}

/**
 * The model's conditions restricted to `keys`: null when the answer is not usable JSON, an empty
 * list when the question restricts nothing (then no filter applies).
 */
export function parseAutoConditions(
  answer: string,
  keys: readonly string[],
): { logic: MetaLogic; conditions: MetaCondition[] } | null {
  const parsed = firstJsonObject(answer);
  if (!isObj(parsed)) return null;
  const allowed = new Set(keys);
  const conditions = conditionsOf(parsed.conditions, 'drop').filter((c) => allowed.has(c.key));
  return { logic: logicOf(parsed.logic), conditions };
}
