/**
 * Variable references (AGENTS.md §4): `{<component_id>@<output>[.path]}`, `{sys.*}`, `{env.*}` inside
 * text params, and bare references (no braces) in fields that pick a variable.
 */

const REF_BODY = '[a-zA-Z:0-9]+@[A-Za-z0-9_.-]+|sys\\.[A-Za-z0-9_.]+|env\\.[A-Za-z0-9_.]+';

/** RAGFlow's scanning pattern: takes in extra braces and spaces around the reference. */
export const SCAN_PATTERN = new RegExp(`\\{* *\\{(${REF_BODY})\\} *\\}*`, 'gis');

/**
 * What Lectern replaces: the `{ref}` itself plus any extra braces directly around it, never the
 * surrounding spaces (the Quirk of §4 that glued words together is not reproduced).
 */
export const REPLACE_PATTERN = new RegExp(`\\{*\\{(${REF_BODY})\\}\\}*`, 'gis');

/** References found in a text, in order of appearance, without duplicates. */
export function findRefs(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(SCAN_PATTERN)) if (!out.includes(m[1])) out.push(m[1]);
  return out;
}

export interface RefPiece {
  kind: 'text' | 'ref';
  /** literal text, or the reference (without braces) */
  value: string;
}

/** Split text into literal runs and references (for the streaming Message path). */
export function splitRefs(text: string): RefPiece[] {
  const pieces: RefPiece[] = [];
  let last = 0;
  for (const m of text.matchAll(REPLACE_PATTERN)) {
    const at = m.index ?? 0;
    if (at > last) pieces.push({ kind: 'text', value: text.slice(last, at) });
    pieces.push({ kind: 'ref', value: m[1] });
    last = at + m[0].length;
  }
  if (last < text.length) pieces.push({ kind: 'text', value: text.slice(last) });
  return pieces;
}

/** Replace every reference in `text` with `render(ref)`. */
export function replaceRefs(text: string, render: (ref: string) => string): string {
  return text.replace(REPLACE_PATTERN, (_m, ref: string) => render(ref));
}

/** Strip braces and spaces around a bare or braced reference. */
export function cleanRef(ref: string): string {
  return ref
    .trim()
    .replace(/^[{\s]+/, '')
    .replace(/[}\s]+$/, '');
}

export interface ParsedRef {
  /** a `globals` key (sys.* / env.* or any other exact key) */
  global?: string;
  componentId?: string;
  output?: string;
  /** path below the root output: keys and list indexes */
  path?: string[];
}

/** Parse a cleaned reference. More than one `@` is an error (§4 Resolution). */
export function parseRef(ref: string): ParsedRef {
  const r = cleanRef(ref);
  const at = r.split('@');
  if (at.length === 1) return { global: r };
  if (at.length > 2) throw new Error(`Invalid variable reference: '${r}'`);
  const [componentId, rest] = at;
  const [output, ...path] = rest.split('.');
  return { componentId, output, path };
}

/** The component ids a text refers to (for the skip rule and validation); sys/env are not components. */
export function componentRefs(text: string): string[] {
  const ids: string[] = [];
  for (const ref of findRefs(text)) {
    const at = ref.indexOf('@');
    if (at > 0) {
      const id = ref.slice(0, at);
      if (!ids.includes(id)) ids.push(id);
    }
  }
  return ids;
}
