/**
 * Reading tool params and call arguments: DSLs store numbers as strings, booleans as "true", lists as
 * comma-separated text, and a reference may resolve to a text stream.
 */
export function text(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

export function int(v: unknown, fallback: number): number {
  const n = typeof v === 'number' ? v : Number(String(v ?? '').trim());
  return Number.isFinite(n) && String(v ?? '').trim() !== '' ? Math.trunc(n) : fallback;
}

export function bool(v: unknown, fallback: boolean): boolean {
  if (typeof v === 'boolean') return v;
  if (v === null || v === undefined || v === '') return fallback;
  const s = String(v).trim().toLowerCase();
  if (['true', '1', 'yes', 'y', 'on'].includes(s)) return true;
  if (['false', '0', 'no', 'n', 'off'].includes(s)) return false;
  return fallback;
}

/** A list argument: an array, or a comma-separated string (TavilyExtract `urls`, Email `cc_email`). */
export function list(v: unknown): string[] {
  if (Array.isArray(v))
    return v
      .map(text)
      .map((s) => s.trim())
      .filter(Boolean);
  return text(v)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** A resolved reference's value, a text stream read to its end. */
export async function settled(v: unknown): Promise<unknown> {
  if (v && typeof v === 'object' && typeof (v as { text?: unknown }).text === 'function')
    return (v as { text(): Promise<string> }).text();
  return v;
}

export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
