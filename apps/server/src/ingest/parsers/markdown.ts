/**
 * Markdown / MDX → sections, block by block (CommonMark block structure plus GFM tables):
 * ATX and setext headings → `title` with `level`; fenced code (``` or ~~~) → `code` with
 * `fields.language`; pipe tables → `table` with `html` (alignment row removed); list blocks → `list`
 * (markers and nesting kept); blockquotes and paragraphs → `text` (inline markup kept as written);
 * embedded HTML tables → `table`; YAML front matter is dropped (its `title` becomes the document title).
 * MDX: top-level `import`/`export` lines, JSX-only lines and `{/* comments *\/}` are removed.
 */
import { ParseError } from '../errors.js';
import type { ParsedDocument, ParseOptions, Section } from '../types.js';
import { htmlToSections } from './html.js';
import { escapeHtml, tableHtml, tableText, type TableRow } from './table-html.js';
import { readTextFile } from './text-decode.js';

const FENCE = /^( {0,3})(`{3,}|~{3,})\s*([^`\s]*)?.*$/;
const ATX = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const LIST = /^( *)([-*+]|\d{1,9}[.)])[ \t]+\S/;
const HR = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const TABLE_DELIM = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;

function splitRow(line: string): string[] {
  let s = line.trim();
  if (s.startsWith('|')) s = s.slice(1);
  if (s.endsWith('|') && !s.endsWith('\\|')) s = s.slice(0, -1);
  const cells: string[] = [];
  let cur = '';
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '\\' && s[i + 1] === '|') {
      cur += '|';
      i++;
    } else if (s[i] === '|') {
      cells.push(cur.trim());
      cur = '';
    } else cur += s[i];
  }
  cells.push(cur.trim());
  return cells;
}

function stripMdx(text: string): string {
  const out: string[] = [];
  let fence: string | null = null;
  for (const line of text.replace(/\{\/\*[\s\S]*?\*\/\}/g, '').split('\n')) {
    const f = FENCE.exec(line);
    if (f && (fence === null || f[2].startsWith(fence))) fence = fence === null ? f[2] : null;
    if (fence === null && !f) {
      if (/^(import|export)\s/.test(line)) continue;
      if (/^\s*<\/?[A-Z][\w.]*(\s[^>]*)?\/?>\s*$/.test(line)) continue;
    }
    out.push(line);
  }
  return out.join('\n');
}

export function markdownToSections(input: string, mdx = false): { sections: Section[]; title?: string } {
  let text = input;
  let title: string | undefined;
  const front = /^---\n([\s\S]*?)\n(---|\.\.\.)\n/.exec(text);
  if (front) {
    title = /^title:\s*["']?(.*?)["']?\s*$/m.exec(front[1])?.[1] || undefined;
    text = text.slice(front[0].length);
  }
  if (mdx) text = stripMdx(text);
  const lines = text.split('\n');
  const sections: Section[] = [];
  let para: string[] = [];
  const flushPara = () => {
    const t = para.join('\n').trim();
    para = [];
    if (t) sections.push({ kind: 'text', text: t });
  };
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    const fence = FENCE.exec(line);
    if (fence) {
      flushPara();
      const marker = fence[2];
      const code: string[] = [];
      i++;
      while (
        i < lines.length &&
        !new RegExp(`^ {0,3}${marker[0] === '`' ? '`' : '~'}{${marker.length},}\\s*$`).test(lines[i])
      ) {
        code.push(lines[i]);
        i++;
      }
      i++; // closing fence (or end of file)
      const body = code.join('\n').replace(/\s+$/, '');
      if (body.trim())
        sections.push({ kind: 'code', text: body, fields: fence[3] ? { language: fence[3] } : undefined });
      continue;
    }
    const atx = ATX.exec(line);
    if (atx) {
      flushPara();
      const t = (atx[2] ?? '').trim();
      if (t) sections.push({ kind: 'title', text: t, level: atx[1].length });
      i++;
      continue;
    }
    if (para.length === 1 && /^ {0,3}(=+|-+)[ \t]*$/.test(line) && !LIST.test(para[0])) {
      const t = para[0].trim();
      para = [];
      sections.push({ kind: 'title', text: t, level: line.trim()[0] === '=' ? 1 : 2 });
      i++;
      continue;
    }
    if (HR.test(line)) {
      flushPara();
      i++;
      continue;
    }
    if (
      line.includes('|') &&
      i + 1 < lines.length &&
      TABLE_DELIM.test(lines[i + 1]) &&
      lines[i + 1].includes('-')
    ) {
      flushPara();
      const header = splitRow(line);
      const rows: TableRow[] = [header.map((c) => ({ text: c, html: escapeHtml(c), header: true }))];
      i += 2;
      while (i < lines.length && lines[i].trim() !== '' && lines[i].includes('|')) {
        const cells = splitRow(lines[i]);
        rows.push(Array.from({ length: header.length }, (_, k) => ({ text: cells[k] ?? '' })));
        i++;
      }
      sections.push({ kind: 'table', text: tableText(rows), html: tableHtml(rows) });
      continue;
    }
    if (/^\s*<table[\s>]/i.test(line)) {
      flushPara();
      const block: string[] = [];
      while (i < lines.length) {
        block.push(lines[i]);
        i++;
        if (/<\/table>/i.test(block[block.length - 1])) break;
      }
      sections.push(...htmlToSections(block.join('\n')).sections);
      continue;
    }
    if (LIST.test(line) && (para.length === 0 || /^ {0,3}([-*+]|1[.)])[ \t]/.test(line))) {
      flushPara();
      const items: string[] = [];
      const kind = (l: string) => {
        const m = LIST.exec(l);
        return m ? { indent: m[1].length, ordered: /\d/.test(m[2]) } : null;
      };
      const first = kind(line)!;
      // Another list starts when an item at the outer level switches between bullets and numbers.
      const foreign = (l: string) => {
        const k = kind(l);
        return !!k && k.indent <= first.indent && k.ordered !== first.ordered;
      };
      while (i < lines.length) {
        const l = lines[i];
        if (l.trim() === '') {
          // A blank line ends the list unless an item of this list or an indented continuation follows.
          const next = lines[i + 1] ?? '';
          if ((LIST.test(next) && !foreign(next)) || /^ {2,}\S/.test(next)) {
            i++;
            continue;
          }
          break;
        }
        if (items.length > 0 && foreign(l)) break;
        if (!LIST.test(l) && !/^\s+\S/.test(l) && (ATX.test(l) || FENCE.test(l) || HR.test(l))) break;
        items.push(l.replace(/\s+$/, ''));
        i++;
      }
      sections.push({ kind: 'list', text: items.join('\n') });
      continue;
    }
    if (/^ {0,3}>/.test(line)) {
      flushPara();
      const quote: string[] = [];
      while (i < lines.length && /^ {0,3}>/.test(lines[i])) {
        quote.push(lines[i].replace(/^ {0,3}> ?/, ''));
        i++;
      }
      const t = quote.join('\n').trim();
      if (t) sections.push({ kind: 'text', text: t });
      continue;
    }
    if (line.trim() === '') flushPara();
    else para.push(line);
    i++;
  }
  flushPara();
  title ??= sections.find((s) => s.kind === 'title' && s.level === 1)?.text;
  return { sections, title };
}

export async function parseMarkdown(buffer: Buffer, opts: ParseOptions): Promise<ParsedDocument> {
  if (buffer.length === 0) throw new ParseError('The file is empty.');
  const { text } = readTextFile(buffer, 'Markdown file');
  return markdownToSections(text, opts.ext === 'mdx');
}
