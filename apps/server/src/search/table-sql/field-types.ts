/**
 * One type per table column across a KB (API.md §19.7). The Table method detects column types per
 * document, so one sheet's whole-number prices give `price_long` and another's decimals `price_flt`.
 * Keys that share a column name (the key without its type suffix) become one column of the widest
 * type, RAGFlow-like: integer + float → float; anything + text → text; anything else + keywords →
 * keywords; numbers + date-time → text. Stored row fields keep their keys: a row's value for a wide
 * column is read from any key of the same name (`sourceKeysOf`) and converted (`cellFor`).
 */

/** Type suffixes of field keys (chunkers/table.ts TYPE_SUFFIX; `_int` as written by older parsers). */
const SUFFIXES = ['_long', '_int', '_flt', '_dt', '_kwd', '_tks'] as const;
type Suffix = (typeof SUFFIXES)[number];

const NUMERIC = new Set<Suffix>(['_long', '_int', '_flt']);

/** A field key's column name and type suffix, or null for a key without a known suffix. */
export function splitFieldKey(key: string): { name: string; suffix: Suffix } | null {
  for (const suffix of SUFFIXES) {
    if (key.endsWith(suffix) && key.length > suffix.length) {
      return { name: key.slice(0, -suffix.length), suffix };
    }
  }
  return null;
}

/** The suffix of the type that holds the values of both. */
export function widerSuffix(a: Suffix, b: Suffix): Suffix {
  if (a === b) return a;
  if (a === '_tks' || b === '_tks') return '_tks';
  if (a === '_kwd' || b === '_kwd') return '_kwd';
  if (NUMERIC.has(a) && NUMERIC.has(b)) return a === '_flt' || b === '_flt' ? '_flt' : '_long';
  return '_tks'; // numbers and date-times share no narrower type
}

/**
 * The field maps merged with one key per column name, of the widest type, in order of first
 * appearance; a later map's header wins (a re-parsed document renames its column).
 */
export function widenFieldMap(...maps: Array<Record<string, string>>): Record<string, string> {
  const columns = new Map<string, { suffix: Suffix | null; header: string }>();
  for (const map of maps) {
    for (const [key, header] of Object.entries(map)) {
      const split = splitFieldKey(key);
      // A key without a known suffix is its own column.
      const name = split ? split.name : key;
      const seen = columns.get(name);
      if (!seen || !split || !seen.suffix) {
        columns.set(name, { suffix: split?.suffix ?? null, header });
      } else {
        columns.set(name, { suffix: widerSuffix(seen.suffix, split.suffix), header });
      }
    }
  }
  const out: Record<string, string> = {};
  for (const [name, { suffix, header }] of columns) out[suffix ? name + suffix : name] = header;
  return out;
}

/** Row-field keys that may hold a wide column's value: the key itself first, then its other types. */
export function sourceKeysOf(key: string): string[] {
  const split = splitFieldKey(key);
  if (!split) return [key];
  return [key, ...SUFFIXES.filter((s) => s !== split.suffix).map((s) => split.name + s)];
}

/** A stored field value as a cell of the wide column `key` (numbers become text in text columns). */
export function cellFor(key: string, v: unknown): string | number | null {
  if (v === undefined || v === null) return null;
  const suffix = splitFieldKey(key)?.suffix;
  const numeric = suffix !== undefined && NUMERIC.has(suffix);
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) return null;
    return numeric ? v : String(v);
  }
  if (typeof v === 'string') {
    if (!numeric) return v;
    const n = Number(v.replace(/,/g, ''));
    return v.trim() !== '' && Number.isFinite(n) ? n : null;
  }
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (Array.isArray(v)) return v.map(String).join(', ');
  return JSON.stringify(v);
}
