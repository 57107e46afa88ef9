/**
 * JSON / JSON Lines → readable `text` sections that keep key paths: every leaf becomes one line
 * `path: value` (`user.address.city: Paris`, `items[2].name: Pen`, `["odd key"].x: 1`; strings unquoted,
 * short arrays of plain values inline as JSON, empty objects/arrays as `{}`/`[]`). Lines are grouped into
 * sections of at most ~1000 tokens without ever splitting a line (a single larger value stands alone).
 * JSON Lines (jsonl/ldjson): each record is grouped on its own, `fields.record` = its 1-based line number.
 */
import { ParseError } from '../errors.js';
import { countTokens } from '../tokens.js';
import type { ParsedDocument, ParseOptions, Section } from '../types.js';
import { readTextFile } from './text-decode.js';

export const JSON_SECTION_TOKENS = 1000;
const INLINE_ARRAY_CHARS = 200;

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

function keyPath(parent: string, key: string): string {
  if (/^[A-Za-z_$\p{L}][\w$\p{L}\p{N}-]*$/u.test(key)) return parent ? `${parent}.${key}` : key;
  return `${parent}[${JSON.stringify(key)}]`;
}

function scalar(v: Json): string {
  if (typeof v === 'string') return v;
  return JSON.stringify(v);
}

/** `path: value` lines of every leaf, in document order. */
export function jsonLines(value: Json, path = ''): string[] {
  const out: string[] = [];
  const label = (p: string) => p || '$';
  const visit = (v: Json, p: string) => {
    if (Array.isArray(v)) {
      if (v.length === 0) return void out.push(`${label(p)}: []`);
      if (v.every((x) => x === null || typeof x !== 'object')) {
        const inline = JSON.stringify(v);
        if (inline.length <= INLINE_ARRAY_CHARS) return void out.push(`${label(p)}: ${inline}`);
      }
      v.forEach((x, i) => visit(x, `${p}[${i}]`));
    } else if (v !== null && typeof v === 'object') {
      const keys = Object.keys(v);
      if (keys.length === 0) return void out.push(`${label(p)}: {}`);
      for (const k of keys) visit(v[k], keyPath(p, k));
    } else out.push(`${label(p)}: ${scalar(v)}`);
  };
  visit(value, path);
  return out;
}

/** Groups lines into sections of ≤ `budget` tokens (a line over budget alone). */
export function groupLines(
  lines: string[],
  budget = JSON_SECTION_TOKENS,
  fields?: Record<string, unknown>,
): Section[] {
  const sections: Section[] = [];
  let cur: string[] = [];
  let tokens = 0;
  const flush = () => {
    if (cur.length)
      sections.push({ kind: 'text', text: cur.join('\n'), fields: fields ? { ...fields } : undefined });
    cur = [];
    tokens = 0;
  };
  for (const line of lines) {
    const t = countTokens(line) + 1;
    if (cur.length && tokens + t > budget) flush();
    cur.push(line);
    tokens += t;
  }
  flush();
  return sections;
}

function describe(err: unknown, text: string): string {
  const msg = err instanceof Error ? err.message : String(err);
  const pos = /position (\d+)/.exec(msg);
  if (pos) {
    const at = Number(pos[1]);
    const before = text.slice(0, at);
    const line = before.split('\n').length;
    const col = at - before.lastIndexOf('\n');
    return `${msg.replace(/ in JSON at position \d+.*$/, '')} at line ${line}, column ${col}`;
  }
  return msg.split(', "')[0];
}

export async function parseJson(buffer: Buffer, opts: ParseOptions): Promise<ParsedDocument> {
  if (buffer.length === 0) throw new ParseError('The file is empty.');
  const { text } = readTextFile(buffer, 'JSON file');
  if (opts.ext === 'jsonl' || opts.ext === 'ldjson') {
    const sections: Section[] = [];
    const lines = text.split('\n');
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i].trim();
      if (!line) continue;
      let value: Json;
      try {
        value = JSON.parse(line) as Json;
      } catch (err) {
        throw new ParseError(
          `Line ${i + 1} of the JSON Lines file is not valid JSON: ${describe(err, line)}.`,
        );
      }
      sections.push(...groupLines(jsonLines(value), JSON_SECTION_TOKENS, { record: i + 1 }));
    }
    return { sections };
  }
  if (!text.trim()) throw new ParseError('The file is empty.');
  let value: Json;
  try {
    value = JSON.parse(text) as Json;
  } catch (err) {
    throw new ParseError(`The JSON file is not valid: ${describe(err, text)}.`);
  }
  return { sections: groupLines(jsonLines(value)) };
}
