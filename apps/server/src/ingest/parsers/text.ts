/**
 * Plain text and source code. Text files become one `text` section per paragraph (blank-line separated;
 * very long paragraphs are split at line ends); tabs and line breaks inside a paragraph are kept, so
 * tab-separated Q&A/table files stay readable for the row-based methods. Source and configuration files
 * become `code` sections of whole blank-line-separated blocks (≤ ~60 lines each, never split inside a
 * line unless a single line is enormous), with `fields.language`.
 */
import { ParseError } from '../errors.js';
import type { ParsedDocument, ParseOptions, Section } from '../types.js';
import { readTextFile } from './text-decode.js';

/** Code and configuration extensions → language name. */
export const CODE_LANGUAGES: Readonly<Record<string, string>> = {
  py: 'python',
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  jsx: 'javascript',
  ts: 'typescript',
  tsx: 'typescript',
  java: 'java',
  c: 'c',
  cpp: 'cpp',
  cc: 'cpp',
  h: 'c',
  hpp: 'cpp',
  go: 'go',
  php: 'php',
  sh: 'shell',
  bash: 'shell',
  cs: 'csharp',
  kt: 'kotlin',
  sql: 'sql',
  rb: 'ruby',
  rs: 'rust',
  swift: 'swift',
  scala: 'scala',
  yml: 'yaml',
  yaml: 'yaml',
  xml: 'xml',
  ini: 'ini',
  toml: 'toml',
  conf: 'ini',
  cfg: 'ini',
  properties: 'properties',
};

export const TEXT_EXTENSIONS: readonly string[] = ['txt', 'text', 'log', 'tsv'];

const MAX_PARAGRAPH_CHARS = 4000;
const MAX_CODE_LINES = 60;
const MAX_CODE_CHARS = 4000;

/** Splits a long block at line ends into pieces of at most `maxChars` (a single longer line stays whole). */
function splitLines(block: string, maxChars: number, maxLines = Number.MAX_SAFE_INTEGER): string[] {
  if (block.length <= maxChars && block.split('\n').length <= maxLines) return [block];
  const out: string[] = [];
  let cur: string[] = [];
  let size = 0;
  for (const line of block.split('\n')) {
    if (cur.length > 0 && (size + line.length + 1 > maxChars || cur.length >= maxLines)) {
      out.push(cur.join('\n'));
      cur = [];
      size = 0;
    }
    cur.push(line);
    size += line.length + 1;
  }
  if (cur.length) out.push(cur.join('\n'));
  return out;
}

/** Paragraphs of plain text as `text` sections. */
export function textSections(text: string): Section[] {
  const sections: Section[] = [];
  for (const para of text.split(/\n(?:[ \t]*\n)+/)) {
    const p = para.replace(/^(?:[ \t]*\n)+|\s+$/g, '');
    if (!p.trim()) continue;
    for (const piece of splitLines(p, MAX_PARAGRAPH_CHARS)) sections.push({ kind: 'text', text: piece });
  }
  return sections;
}

/** Code as `code` sections: blank-line-separated blocks grouped up to the line/character budget. */
export function codeSections(text: string, language: string): Section[] {
  const sections: Section[] = [];
  let cur: string[] = [];
  let lines = 0;
  let chars = 0;
  const flush = () => {
    if (cur.length) sections.push({ kind: 'code', text: cur.join('\n\n'), fields: { language } });
    cur = [];
    lines = 0;
    chars = 0;
  };
  for (const raw of text.split(/\n(?:[ \t]*\n)+/)) {
    const block = raw.replace(/^(?:[ \t]*\n)+|\s+$/g, '');
    if (!block.trim()) continue;
    for (const piece of splitLines(block, MAX_CODE_CHARS, MAX_CODE_LINES)) {
      const n = piece.split('\n').length;
      if (cur.length && (lines + n > MAX_CODE_LINES || chars + piece.length > MAX_CODE_CHARS)) flush();
      cur.push(piece);
      lines += n + 1;
      chars += piece.length + 2;
    }
  }
  flush();
  return sections;
}

export async function parseText(buffer: Buffer, opts: ParseOptions): Promise<ParsedDocument> {
  if (buffer.length === 0) throw new ParseError('The file is empty.');
  const language = CODE_LANGUAGES[opts.ext];
  const { text, encoding } = readTextFile(buffer, language ? `${opts.ext.toUpperCase()} file` : 'text file');
  const sections = language ? codeSections(text, language) : textSections(text);
  const notes = encoding === 'utf-8' ? undefined : [`Text decoded as ${encoding}.`];
  return { sections, notes };
}
