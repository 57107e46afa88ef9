/**
 * CodeExec output mapping (AGENTS.md §10.4): the value `main` returned is spread over the component's
 * declared outputs. A dict fills each output (names starting with `_` excepted) by dotted path
 * (`a.b.0`), or whole when only one output is declared and its path is missing; a list fills outputs in
 * order; a scalar goes to the first output. Each value is then coerced to the output's declared type.
 */
export interface DeclaredOutput {
  value?: unknown;
  /** `string`, `number`, `boolean`, `object`, `array<string|number|boolean|object>` (any case). */
  type?: string;
}

function atPath(value: unknown, path: string): { found: boolean; value?: unknown } {
  let cur: unknown = value;
  for (const part of path.split('.')) {
    if (Array.isArray(cur) && /^\d+$/.test(part) && Number(part) < cur.length) cur = cur[Number(part)];
    else if (cur && typeof cur === 'object' && !Array.isArray(cur) && Object.hasOwn(cur, part))
      cur = (cur as Record<string, unknown>)[part];
    else return { found: false };
  }
  return { found: true, value: cur };
}

const TRUE = new Set(['true', '1', 'yes', 'y', 'on']);
const FALSE = new Set(['false', '0', 'no', 'n', 'off']);

function parseJsonish(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
}

/** Coerces a value to a declared output type; a value that cannot be coerced is kept as it is. */
export function coerceOutput(value: unknown, type: string | undefined): unknown {
  const t = (type ?? '').trim().toLowerCase();
  if (value === null || value === undefined) return value ?? null;
  if (t === 'string') return typeof value === 'string' ? value : JSON.stringify(value);
  if (t === 'number') {
    const n = typeof value === 'number' ? value : Number(String(value).trim());
    return Number.isFinite(n) && String(value).trim() !== '' ? n : value;
  }
  if (t === 'boolean') {
    if (typeof value === 'boolean') return value;
    const s = String(value).trim().toLowerCase();
    return TRUE.has(s) ? true : FALSE.has(s) ? false : value;
  }
  if (t === 'object') return parseJsonish(value);
  const arr = /^array<(.+)>$/.exec(t);
  if (arr || t === 'array') {
    const parsed = parseJsonish(value);
    const list = Array.isArray(parsed) ? parsed : [parsed];
    return arr ? list.map((x) => coerceOutput(x, arr[1])) : list;
  }
  return value;
}

/** The declared outputs' values for what `main` returned. */
export function mapCodeOutputs(
  result: unknown,
  outputs: Record<string, DeclaredOutput>,
): Record<string, unknown> {
  const names = Object.keys(outputs).filter((n) => !n.startsWith('_'));
  const mapped: Record<string, unknown> = {};
  if (names.length === 0) return mapped;
  if (result && typeof result === 'object' && !Array.isArray(result)) {
    for (const name of names) {
      const hit = atPath(result, name);
      mapped[name] = hit.found ? hit.value : names.length === 1 ? result : null;
    }
  } else if (Array.isArray(result)) {
    names.forEach((name, i) => (mapped[name] = i < result.length ? result[i] : null));
  } else {
    names.forEach((name, i) => (mapped[name] = i === 0 ? result : null));
  }
  for (const name of names) mapped[name] = coerceOutput(mapped[name], outputs[name].type);
  return mapped;
}
