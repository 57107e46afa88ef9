/**
 * Structure-aware parsing settings of the configuration form (API.md §19.6, §19.7): the child-chunk
 * delimiter, the metadata fields extracted when `enable_metadata` is on, and the Table method's
 * detected field map (shown, not edited: API.md defines no way to change a column's type).
 */

export type MetaFieldType = 'string' | 'number' | 'list';

/** One metadata field the chat model extracts per document (a row of the form). */
export interface MetaSettingRow {
  key: string;
  description: string;
  type: MetaFieldType;
  /** Allowed values; empty = any value. */
  enum: string[];
}

/** The stored form of a metadata setting: a list the server reads as `[{key, description, type, enum}]`. */
export interface StoredMetaField {
  key: string;
  description: string;
  type: MetaFieldType;
  enum?: string[];
}

function isObj(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function rowOf(key: unknown, spec: unknown): MetaSettingRow | null {
  if (typeof key !== 'string' || key.trim() === '') return null;
  const s = isObj(spec) ? spec : { description: spec };
  const raw = typeof s.type === 'string' ? s.type.toLowerCase() : 'string';
  const type: MetaFieldType =
    raw === 'number' || raw === 'integer' ? 'number' : raw === 'array' || raw === 'list' ? 'list' : 'string';
  const items = isObj(s.items) ? s.items : {};
  const options = Array.isArray(s.enum) ? s.enum : Array.isArray(items.enum) ? items.enum : [];
  return {
    key: key.trim(),
    description: typeof s.description === 'string' ? s.description : '',
    type,
    enum: options.map(String),
  };
}

/**
 * The rows of a stored setting, read the way the server reads it (ingest/stages/metadata.ts): a list
 * `[{key, description, enum}]`, a JSON schema `{properties: {key: {type, description, enum}}}` or a map
 * `{key: description}`. Duplicate keys keep the first.
 */
export function metaSettingRows(setting: unknown): MetaSettingRow[] {
  let rows: Array<MetaSettingRow | null> = [];
  if (Array.isArray(setting)) {
    rows = setting.map((item) => (isObj(item) ? rowOf(item.key ?? item.name, item) : null));
  } else if (isObj(setting)) {
    const props = isObj(setting.properties) ? setting.properties : setting.type === undefined ? setting : {};
    rows = Object.entries(props).map(([k, v]) => rowOf(k, v));
  }
  const seen = new Set<string>();
  return rows.filter((r): r is MetaSettingRow => r !== null && !seen.has(r.key) && !!seen.add(r.key));
}

/** Form rows → the stored list (keys and descriptions trimmed, empty enumerations left out). */
export function toMetaSetting(rows: Partial<MetaSettingRow>[] | undefined): StoredMetaField[] {
  return (rows ?? []).map((r) => {
    const options = (r.enum ?? []).map((o) => o.trim()).filter(Boolean);
    return {
      key: (r.key ?? '').trim(),
      description: (r.description ?? '').trim(),
      type: r.type ?? 'string',
      ...(options.length > 0 ? { enum: [...new Set(options)] } : {}),
    };
  });
}

export type MetaRowProblem = 'keyRequired' | 'keyDuplicate';

/** What is wrong with row `index` of the metadata fields, if anything. */
export function metaRowProblem(rows: Partial<MetaSettingRow>[], index: number): MetaRowProblem | null {
  const key = (rows[index]?.key ?? '').trim();
  if (!key) return 'keyRequired';
  const earlier = rows.slice(0, index).some((r) => (r?.key ?? '').trim() === key);
  return earlier ? 'keyDuplicate' : null;
}

/** With extraction on, at least one field must be listed (otherwise nothing would be extracted). */
export function metaListProblem(
  enabled: boolean,
  rows: Partial<MetaSettingRow>[] | undefined,
): 'noFields' | null {
  return enabled && (rows ?? []).length === 0 ? 'noFields' : null;
}

export type ChildDelimiterProblem = 'unclosedBacktick' | 'emptyToken';

/**
 * The child-chunk delimiter reads like `delimiter` (ingest/chunkers/delimiter.ts): back-quoted tokens
 * cut at every occurrence, other characters are single-character delimiters. An unclosed backtick or
 * an empty pair would silently turn into plain characters, so the form refuses them.
 */
export function childDelimiterProblem(value: string | null | undefined): ChildDelimiterProblem | null {
  const text = value ?? '';
  if (((text.match(/`/g) ?? []).length & 1) === 1) return 'unclosedBacktick';
  if (text.includes('``')) return 'emptyToken';
  return null;
}

export type ColumnKind = 'text' | 'integer' | 'float' | 'datetime' | 'keyword';

/** Field-key suffixes of typed table columns (ingest/chunkers/table.ts `TYPE_SUFFIX`; `_int` as RAGFlow names it). */
const SUFFIX_KIND: ReadonlyArray<[string, ColumnKind]> = [
  ['_tks', 'text'],
  ['_long', 'integer'],
  ['_int', 'integer'],
  ['_flt', 'float'],
  ['_dt', 'datetime'],
  ['_kwd', 'keyword'],
];

export interface FieldMapRow {
  /** The stored field key, e.g. `age_long`. */
  key: string;
  /** The column header as written in the table. */
  header: string;
  kind: ColumnKind;
}

/** The KB's `field_map` (`{ "<column>_<type>": "<header>" }`) as rows, in stored order. */
export function fieldMapRows(fieldMap: unknown): FieldMapRow[] {
  if (!isObj(fieldMap)) return [];
  return Object.entries(fieldMap).map(([key, header]) => {
    const hit = SUFFIX_KIND.find(([suffix]) => key.endsWith(suffix));
    return {
      key,
      header: typeof header === 'string' && header ? header : key,
      kind: hit ? hit[1] : 'text',
    };
  });
}
