/** The metadata editor's check (API.md §6 set_meta): a JSON object whose values are strings, numbers or lists of those. */

export type MetaProblem =
  { kind: 'syntax'; detail: string } | { kind: 'notObject' } | { kind: 'badValue'; key: string };

const scalar = (v: unknown) => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));

export function metaProblem(text: string): MetaProblem | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { kind: 'syntax', detail: err instanceof Error ? err.message : String(err) };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { kind: 'notObject' };
  for (const [key, v] of Object.entries(value)) {
    if (scalar(v)) continue;
    if (Array.isArray(v) && v.every(scalar)) continue;
    return { kind: 'badValue', key };
  }
  return null;
}

/** The editor's starting text: the stored metadata, pretty-printed. */
export function metaText(meta: Record<string, unknown> | null | undefined): string {
  return JSON.stringify(meta ?? {}, null, 2);
}
