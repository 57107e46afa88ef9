/**
 * HTML → readable sections (htmlparser2 DOM): scripts, styles, forms controls and other non-content are
 * dropped; h1–h6 → `title` with `level`; ul/ol → `list` (nested lists indented); tables → `table` with a
 * clean `html` (only table/caption/tr/th/td and colspan/rowspan) — tables with one cell per row are page
 * layout and are read as ordinary blocks; pre → `code`; every other block element → `text`, whitespace
 * collapsed and `<br>` kept as a line break. The charset comes from a BOM, then `<meta charset>`, then
 * the text heuristics of text-decode.ts.
 */
import { parseDocument } from 'htmlparser2';
import { ParseError } from '../errors.js';
import type { ParsedDocument, ParseOptions, Section } from '../types.js';
import type { SheetData } from './spreadsheet.js';
import { tableHtml, tableText, type TableCell, type TableRow } from './table-html.js';
import { decodeText, looksBinary } from './text-decode.js';

type HtmlDocument = ReturnType<typeof parseDocument>;
type HtmlNode = HtmlDocument['children'][number];
interface HtmlElement {
  type: string;
  name: string;
  attribs: Record<string, string>;
  children: HtmlNode[];
}

const SKIP = new Set([
  'script', 'style', 'noscript', 'template', 'svg', 'math', 'head', 'iframe', 'object', 'embed', 'canvas',
  'button', 'select', 'option', 'input', 'textarea', 'map', 'audio', 'video',
]); // prettier-ignore
const BLOCK = new Set([
  'p', 'div', 'section', 'article', 'main', 'header', 'footer', 'nav', 'aside', 'blockquote', 'figure',
  'figcaption', 'address', 'dd', 'dt', 'dl', 'details', 'summary', 'fieldset', 'form', 'center', 'li', 'body',
  'html', 'caption', 'tr', 'td', 'th', 'tbody', 'thead', 'tfoot', 'legend',
]); // prettier-ignore

function isElement(n: HtmlNode): n is HtmlNode & HtmlElement {
  return n.type === 'tag' || n.type === 'script' || n.type === 'style';
}

function textOf(n: HtmlNode): string {
  return n.type === 'text' ? (n as unknown as { data: string }).data : '';
}

const collapse = (s: string) =>
  s
    .replace(/[ \t\r\f\v\u00a0]+/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();

/** Inline text of an element: whitespace collapsed, `<br>` as a line break, nested lists/tables flattened. */
function inlineText(el: HtmlElement | HtmlNode, skipLists = false): string {
  let out = '';
  const visit = (n: HtmlNode) => {
    if (n.type === 'text') out += textOf(n).replace(/\s+/g, ' ');
    else if (isElement(n)) {
      if (SKIP.has(n.name)) return;
      if (skipLists && (n.name === 'ul' || n.name === 'ol')) return;
      if (n.name === 'br') out += '\n';
      else if (BLOCK.has(n.name) || /^h[1-6]$/.test(n.name) || n.name === 'table') {
        out += '\n';
        n.children.forEach(visit);
        out += '\n';
      } else if (n.name === 'td' || n.name === 'th') {
        n.children.forEach(visit);
        out += ' ';
      } else n.children.forEach(visit);
    }
  };
  if ('children' in el) (el as HtmlElement).children.forEach(visit);
  return collapse(out);
}

function rawText(el: HtmlElement): string {
  let out = '';
  const visit = (n: HtmlNode) => {
    if (n.type === 'text') out += textOf(n);
    else if (isElement(n)) {
      if (n.name === 'br') out += '\n';
      else n.children.forEach(visit);
    }
  };
  el.children.forEach(visit);
  return out.replace(/^\n/, '').replace(/\s+$/, '');
}

function childElements(el: HtmlElement): HtmlElement[] {
  return el.children.filter(isElement) as HtmlElement[];
}

/** Rows of a table (thead/tbody/tfoot or direct), not descending into nested tables. */
function tableRows(table: HtmlElement): { rows: TableRow[]; caption?: string } {
  const rows: TableRow[] = [];
  let caption: string | undefined;
  const visit = (el: HtmlElement) => {
    for (const c of childElements(el)) {
      if (c.name === 'caption') caption = inlineText(c);
      else if (c.name === 'thead' || c.name === 'tbody' || c.name === 'tfoot') visit(c);
      else if (c.name === 'tr') {
        const row: TableRow = [];
        for (const cell of childElements(c)) {
          if (cell.name !== 'td' && cell.name !== 'th') continue;
          const span = (v: string | undefined) =>
            Math.min(1000, Math.max(1, Number.parseInt(v ?? '1', 10) || 1));
          const tc: TableCell = { text: inlineText(cell), header: cell.name === 'th' || undefined };
          const colspan = span(cell.attribs.colspan);
          const rowspan = span(cell.attribs.rowspan);
          if (colspan > 1) tc.colspan = colspan;
          if (rowspan > 1) tc.rowspan = rowspan;
          row.push(tc);
        }
        rows.push(row);
      }
    }
  };
  visit(table);
  return { rows, caption };
}

class HtmlWalker {
  readonly sections: Section[] = [];
  private inline = '';

  flush(): void {
    const text = collapse(this.inline);
    this.inline = '';
    if (text) this.sections.push({ kind: 'text', text });
  }

  walk(nodes: HtmlNode[]): void {
    for (const n of nodes) {
      if (n.type === 'text') {
        this.inline += textOf(n).replace(/\s+/g, ' ');
        continue;
      }
      if (!isElement(n) || SKIP.has(n.name)) continue;
      const name = n.name;
      const h = /^h([1-6])$/.exec(name);
      if (h) {
        this.flush();
        const text = inlineText(n).replace(/\s*\n\s*/g, ' ');
        if (text) this.sections.push({ kind: 'title', text, level: Number(h[1]) });
      } else if (name === 'br') this.inline += '\n';
      else if (name === 'hr') this.flush();
      else if (name === 'ul' || name === 'ol') {
        this.flush();
        const lines = this.listLines(n, 0);
        if (lines.length) this.sections.push({ kind: 'list', text: lines.join('\n') });
      } else if (name === 'table') this.table(n);
      else if (name === 'pre') {
        this.flush();
        const text = rawText(n);
        const cls = `${n.attribs.class ?? ''} ${childElements(n).find((c) => c.name === 'code')?.attribs.class ?? ''}`;
        const lang = /(?:language|lang)-([\w+#-]+)/.exec(cls)?.[1];
        if (text.trim())
          this.sections.push({ kind: 'code', text, fields: lang ? { language: lang } : undefined });
      } else if (BLOCK.has(name)) {
        this.flush();
        this.walk(n.children);
        this.flush();
      } else this.walk(n.children);
    }
  }

  private listLines(list: HtmlElement, depth: number): string[] {
    const lines: string[] = [];
    let n = Number.parseInt(list.attribs.start ?? '1', 10) || 1;
    for (const li of childElements(list)) {
      if (li.name !== 'li') {
        if (li.name === 'ul' || li.name === 'ol') lines.push(...this.listLines(li, depth + 1));
        continue;
      }
      const marker = list.name === 'ol' ? `${n++}.` : '-';
      const text = inlineText(li, true).replace(/\s*\n\s*/g, ' ');
      if (text) lines.push(`${'  '.repeat(depth)}${marker} ${text}`);
      for (const sub of childElements(li))
        if (sub.name === 'ul' || sub.name === 'ol') lines.push(...this.listLines(sub, depth + 1));
    }
    return lines;
  }

  private table(el: HtmlElement): void {
    const { rows, caption } = tableRows(el);
    if (rows.length === 0 || rows.every((r) => r.length <= 1)) {
      // Layout table: read its cells as ordinary content.
      this.flush();
      this.walk(el.children);
      this.flush();
      return;
    }
    this.flush();
    const text = tableText(rows);
    if (text)
      this.sections.push({
        kind: 'table',
        text: caption ? `${caption}\n${text}` : text,
        html: tableHtml(rows, caption),
      });
  }
}

function findTitle(nodes: HtmlNode[]): string | undefined {
  for (const n of nodes) {
    if (!isElement(n)) continue;
    if (n.name === 'title') return inlineText(n) || undefined;
    if (n.name === 'body') continue;
    const t = findTitle(n.children);
    if (t) return t;
  }
  return undefined;
}

/** HTML text → sections and the document title (`<title>`, else the first h1). */
export function htmlToSections(html: string): { sections: Section[]; title?: string } {
  const dom = parseDocument(html, {
    decodeEntities: true,
    lowerCaseTags: true,
    lowerCaseAttributeNames: true,
  });
  const walker = new HtmlWalker();
  walker.walk(dom.children);
  walker.flush();
  const h1 = walker.sections.find((s) => s.kind === 'title' && s.level === 1)?.text;
  return { sections: walker.sections, title: findTitle(dom.children) ?? h1 };
}

/** Decodes HTML bytes: BOM, then `<meta charset>`, then text heuristics. */
export function decodeHtml(buf: Buffer): string {
  const hasBom =
    (buf[0] === 0xef && buf[1] === 0xbb) ||
    (buf[0] === 0xff && buf[1] === 0xfe) ||
    (buf[0] === 0xfe && buf[1] === 0xff);
  if (!hasBom) {
    const head = buf.subarray(0, 4096).toString('latin1');
    const m = /<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(head);
    if (m) {
      try {
        return new TextDecoder(m[1].toLowerCase()).decode(buf);
      } catch {
        // unknown label: fall through to the heuristics
      }
    }
  }
  return decodeText(buf).text;
}

/** The tables of an HTML document as sheets (for .xls files that are HTML exports). */
export function htmlTablesToSheets(html: string): SheetData[] {
  const dom = parseDocument(html, { decodeEntities: true });
  const tables: HtmlElement[] = [];
  const find = (nodes: HtmlNode[]) => {
    for (const n of nodes) {
      if (!isElement(n)) continue;
      if (n.name === 'table') tables.push(n);
      else find(n.children);
    }
  };
  find(dom.children);
  return tables.map((t, i) => {
    const { rows, caption } = tableRows(t);
    const grid: string[][] = [];
    const merges: SheetData['merges'] = [];
    rows.forEach((row, r) => {
      grid[r] ??= [];
      let c = 0;
      for (const cell of row) {
        while (grid[r][c] !== undefined) c++;
        const cs = cell.colspan ?? 1;
        const rs = cell.rowspan ?? 1;
        for (let dr = 0; dr < rs; dr++)
          for (let dc = 0; dc < cs; dc++)
            (grid[r + dr] ??= [])[c + dc] = dr === 0 && dc === 0 ? cell.text : '';
        if (cs > 1 || rs > 1) merges.push({ r1: r, c1: c, r2: r + rs - 1, c2: c + cs - 1 });
        c += cs;
      }
    });
    const dense = grid.map((row) => Array.from({ length: row.length }, (_, k) => row[k] ?? ''));
    return { name: caption ?? (tables.length > 1 ? `Table ${i + 1}` : ''), grid: dense, merges };
  });
}

export async function parseHtml(buffer: Buffer, _opts: ParseOptions): Promise<ParsedDocument> {
  if (buffer.length === 0) throw new ParseError('The file is empty.');
  if (looksBinary(buffer)) {
    throw new ParseError(
      'The HTML file does not contain text (it looks like binary data); check the file and its extension.',
    );
  }
  const { sections, title } = htmlToSections(decodeHtml(buffer));
  return { sections, title };
}
