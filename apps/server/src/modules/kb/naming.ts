/**
 * Name rules shared by knowledge bases and documents: byte limits, sanitising uploaded file names,
 * and the `name(1)`, `name(2)`… suffixing of duplicates (extension kept: `a.txt` → `a(1).txt`).
 */

export const KB_NAME_LIMIT_BYTES = 128;
export const FILE_NAME_LIMIT_BYTES = 255;

export function utf8Bytes(value: string): number {
  return Buffer.byteLength(value, 'utf8');
}

/** Lower-case extension without the dot ("" when there is none). */
export function extensionOf(name: string): string {
  const base = name.split('/').pop() ?? name;
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}

/**
 * The last path segment of an uploaded file name with control characters removed and
 * whitespace collapsed, so a name can never point into another folder.
 */
export function sanitizeFileName(raw: string): string {
  const base = raw.split(/[\\/]/).pop() ?? '';
  const cleaned = base
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (cleaned === '.' || cleaned === '..') return '';
  return cleaned;
}

/**
 * The first of `name`, `name(1)`, `name(2)`… not in `taken` (compared case-insensitively).
 * With `keepExtension` the counter goes before the extension; an existing `(n)` is counted on from.
 */
export function uniqueName(name: string, taken: Iterable<string>, keepExtension: boolean): string {
  const used = new Set<string>();
  for (const t of taken) used.add(t.toLowerCase());
  if (!used.has(name.toLowerCase())) return name;
  const ext = keepExtension && extensionOf(name) ? name.slice(name.lastIndexOf('.')) : '';
  let stem = ext ? name.slice(0, -ext.length) : name;
  let counter = 0;
  const numbered = /\((\d+)\)$/.exec(stem);
  if (numbered) {
    counter = Number(numbered[1]);
    stem = stem.slice(0, -numbered[0].length);
  }
  for (;;) {
    counter += 1;
    const candidate = `${stem}(${counter})${ext}`;
    if (!used.has(candidate.toLowerCase())) return candidate;
  }
}
