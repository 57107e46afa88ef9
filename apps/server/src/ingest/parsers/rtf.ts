/**
 * RTF → sections. A single-pass reader of the RTF 1.9 syntax: groups, control words and symbols, `\'hh`
 * bytes in the document code page (`\ansicpg`), `\uN` with its `\ucN` fallback skipping; non-content
 * destinations (font/colour/style tables, info, pictures, field instructions, headers/footers…) are
 * skipped. Paragraphs whose style is "heading N" (from the style sheet) or that carry `\outlinelevelN`
 * become `title`s; list paragraphs (`\listtext`/`\pntext` markers) are grouped into `list`s; table rows
 * (`\trowd … \cell … \row`) become `table` sections with colspan/rowspan from `\clmgf/\clmrg` and
 * `\clvmgf/\clvmrg`.
 */
import { ParseError } from '../errors.js';
import type { ParsedDocument, ParseOptions, Section } from '../types.js';
import { tableHtml, tableText, type TableCell, type TableRow } from './table-html.js';

const SKIP_DESTINATIONS = new Set([
  'fonttbl', 'colortbl', 'info', 'pict', 'object', 'themedata', 'colorschememapping', 'latentstyles', 'datastore',
  'header', 'headerl', 'headerr', 'headerf', 'footer', 'footerl', 'footerr', 'footerf', 'annotation', 'atnid',
  'atnauthor', 'xmlnstbl', 'listtable', 'listoverridetable', 'rsidtbl', 'generator', 'fldinst', 'bkmkstart',
  'bkmkend', 'filetbl', 'revtbl', 'pgdsctbl', 'mmathPr', 'docvar', 'nonshppict', 'sp', 'footnote', 'template',
  'userprops', 'wgrffmtfilter', 'xmlopen', 'xmlclose', 'protusertbl', 'mhtmltag', 'htmltag', 'formfield',
]); // prettier-ignore

const SYMBOLS: Record<string, string> = {
  emdash: '—', endash: '–', lquote: '‘', rquote: '’', ldblquote: '“', rdblquote: '”', bullet: '•',
  emspace: ' ', enspace: ' ', qmspace: ' ', tab: '\t', line: '\n',
}; // prettier-ignore

const CODEPAGES: Record<number, string> = {
  936: 'gbk', 950: 'big5', 932: 'shift_jis', 949: 'euc-kr', 1250: 'windows-1250', 1251: 'windows-1251',
  1252: 'windows-1252', 1253: 'windows-1253', 1254: 'windows-1254', 1255: 'windows-1255', 1256: 'windows-1256',
  1257: 'windows-1257', 1258: 'windows-1258', 874: 'windows-874', 10000: 'macintosh', 437: 'ibm866', 65001: 'utf-8',
}; // prettier-ignore

/** Group-scoped state: RTF restores character and paragraph properties when a group closes. */
interface GroupState {
  skip: boolean;
  uc: number;
  style: boolean;
  listText: boolean;
  styleId: number;
  outline?: number;
  inTable: boolean;
}

interface CellDef {
  hMerge?: 'first' | 'cont';
  vMerge?: 'first' | 'cont';
}

class RtfReader {
  readonly sections: Section[] = [];
  private state: GroupState = {
    skip: false,
    uc: 1,
    style: false,
    listText: false,
    styleId: 0,
    inTable: false,
  };
  private readonly stack: GroupState[] = [];
  private decoder = new TextDecoder('windows-1252');
  private bytes: number[] = [];
  private text = '';
  private marker = '';
  private list: string[] = [];
  private readonly styleNames = new Map<number, string>();
  private styleEntry: { id: number; name: string } | null = null;
  private cellDefs: CellDef[] = [];
  private pendingDef: CellDef = {};
  private cells: string[] = [];
  private rows: Array<{ cells: string[]; defs: CellDef[] }> = [];
  private skipChars = 0;

  private flushBytes(): void {
    if (this.bytes.length === 0) return;
    const s = this.decoder.decode(Uint8Array.from(this.bytes));
    this.bytes = [];
    this.emit(s);
  }

  private emit(s: string): void {
    if (this.state.style) {
      if (this.styleEntry) this.styleEntry.name += s;
      return;
    }
    if (this.state.listText) this.marker += s;
    else this.text += s;
  }

  run(src: string): void {
    let i = 0;
    const n = src.length;
    while (i < n) {
      const ch = src[i];
      if (ch === '{') {
        this.flushBytes();
        this.stack.push(this.state);
        this.state = { ...this.state };
        if (this.stack.length > 10_000)
          throw new ParseError('The RTF file is malformed: its groups are nested too deeply.');
        i++;
      } else if (ch === '}') {
        this.flushBytes();
        if (this.state.style && this.styleEntry && this.stack[this.stack.length - 1]?.style) this.endStyle();
        this.state = this.stack.pop() ?? this.state;
        i++;
      } else if (ch === '\\') {
        i = this.control(src, i + 1);
      } else if (ch === '\r' || ch === '\n') {
        i++;
      } else {
        if (this.skipChars > 0) this.skipChars--;
        else if (!this.state.skip) {
          this.flushBytes();
          this.emit(ch);
        }
        i++;
      }
    }
    this.flushBytes();
    this.paragraph();
    this.flushTable();
    this.flushList();
  }

  private endStyle(): void {
    const e = this.styleEntry!;
    this.styleNames.set(e.id, e.name.replace(/;\s*$/, '').trim());
    this.styleEntry = null;
  }

  private control(src: string, i: number): number {
    const c = src[i];
    if (c === undefined) return i;
    if (c === "'") {
      const byte = parseInt(src.slice(i + 1, i + 3), 16);
      if (this.skipChars > 0) this.skipChars--;
      else if (!this.state.skip && Number.isFinite(byte)) this.bytes.push(byte);
      return i + 3;
    }
    if (!/[A-Za-z]/.test(c)) {
      this.flushBytes();
      if (c === '*') this.state.skip = this.state.skip || this.pendingUnknownDestination(src, i + 1);
      else if (!this.state.skip) {
        if (c === '\\' || c === '{' || c === '}') this.emit(c);
        else if (c === '~') this.emit('\u00a0');
        else if (c === '_') this.emit('-');
        else if (c === '\n' || c === '\r') this.paragraph();
      }
      return i + 1;
    }
    const m = /^([A-Za-z]{1,32})(-?\d{1,10})? ?/.exec(src.slice(i, i + 48))!;
    const word = m[1];
    const param = m[2] !== undefined ? Number(m[2]) : undefined;
    const next = i + m[0].length;
    if (word !== 'u') this.flushBytes();
    this.word(word, param);
    return next;
  }

  /** After `\*`: skip the destination unless we know it carries text. */
  private pendingUnknownDestination(src: string, i: number): boolean {
    const m = /^\\([A-Za-z]+)/.exec(src.slice(i, i + 40));
    return !m || !['listtext', 'pntext', 'fldrslt', 'shptxt'].includes(m[1]);
  }

  private word(w: string, p: number | undefined): void {
    if (SKIP_DESTINATIONS.has(w)) {
      this.state.skip = true;
      return;
    }
    if (w === 'stylesheet') {
      this.state.style = true;
      return;
    }
    if (this.state.style) {
      if ((w === 's' || w === 'cs' || w === 'ds' || w === 'ts') && this.stack[this.stack.length - 1]?.style) {
        this.styleEntry = { id: w === 's' ? (p ?? 0) : -1, name: '' };
      }
      return;
    }
    if (w === 'ansicpg' && p !== undefined) {
      try {
        this.decoder = new TextDecoder(CODEPAGES[p] ?? `windows-${p}`);
      } catch {
        this.decoder = new TextDecoder('windows-1252');
      }
      return;
    }
    if (this.state.skip) return;
    if (w === 'u' && p !== undefined) {
      this.flushBytes();
      this.emit(String.fromCharCode(p < 0 ? p + 65536 : p));
      this.skipChars = this.state.uc;
      return;
    }
    switch (w) {
      case 'uc':
        this.state.uc = p ?? 1;
        return;
      case 'par':
        this.paragraph();
        return;
      case 'pard':
        this.state.styleId = 0;
        this.state.outline = undefined;
        this.state.inTable = false;
        return;
      case 's':
        this.state.styleId = p ?? 0;
        return;
      case 'outlinelevel':
        this.state.outline = p;
        return;
      case 'intbl':
        this.state.inTable = true;
        return;
      case 'listtext':
      case 'pntext':
        this.state.listText = true;
        return;
      case 'trowd':
        this.cellDefs = [];
        return;
      case 'clmgf':
      case 'clmrg':
      case 'clvmgf':
      case 'clvmrg': {
        if (w === 'clmgf') this.pendingDef.hMerge = 'first';
        if (w === 'clmrg') this.pendingDef.hMerge = 'cont';
        if (w === 'clvmgf') this.pendingDef.vMerge = 'first';
        if (w === 'clvmrg') this.pendingDef.vMerge = 'cont';
        return;
      }
      case 'cellx':
        this.cellDefs.push(this.pendingDef);
        this.pendingDef = {};
        return;
      case 'cell':
        this.cells.push(this.text.trim());
        this.text = '';
        this.marker = '';
        return;
      case 'row':
        this.rows.push({ cells: this.cells, defs: this.cellDefs });
        this.cells = [];
        this.text = '';
        return;
      case 'page':
      case 'sect':
        this.paragraph();
        return;
      default:
        if (SYMBOLS[w] !== undefined) this.emit(SYMBOLS[w]);
    }
  }

  private paragraph(): void {
    if (this.state.inTable) {
      // Paragraph breaks inside a cell become line breaks of the cell.
      if (this.text.trim()) this.text += '\n';
      return;
    }
    this.flushTable();
    const text = this.text.replace(/[ \t]+$/gm, '').trim();
    const marker = this.marker.replace(/\s+/g, ' ').trim();
    this.text = '';
    this.marker = '';
    if (!text) return;
    const styleName = this.styleNames.get(this.state.styleId) ?? '';
    const h = /^heading\s*([1-9])$/i.exec(styleName);
    const outline = this.state.outline;
    let level: number | undefined;
    if (h) level = Number(h[1]);
    else if (outline !== undefined && outline < 9) level = outline + 1;
    else if (/^title$/i.test(styleName)) level = 1;
    if (level !== undefined) {
      this.flushList();
      this.sections.push({ kind: 'title', text: marker ? `${marker} ${text}` : text, level });
    } else if (marker) {
      this.list.push(`${marker} ${text}`);
    } else {
      this.flushList();
      this.sections.push({ kind: 'text', text });
    }
  }

  private flushList(): void {
    if (this.list.length) this.sections.push({ kind: 'list', text: this.list.join('\n') });
    this.list = [];
  }

  private flushTable(): void {
    if (this.rows.length === 0) return;
    this.flushList();
    const out: TableRow[] = [];
    const open = new Map<number, TableCell>();
    for (const row of this.rows) {
      const r: TableRow = [];
      let last: TableCell | undefined;
      row.cells.forEach((text, k) => {
        const def = row.defs[k] ?? {};
        if (def.hMerge === 'cont' && last) {
          last.colspan = (last.colspan ?? 1) + 1;
          return;
        }
        if (def.vMerge === 'cont' && open.has(k)) {
          const o = open.get(k)!;
          o.rowspan = (o.rowspan ?? 1) + 1;
          last = undefined;
          return;
        }
        const cell: TableCell = { text };
        if (def.vMerge === 'first') open.set(k, cell);
        else open.delete(k);
        r.push(cell);
        last = cell;
      });
      out.push(r);
    }
    this.rows = [];
    const text = tableText(out);
    if (text) this.sections.push({ kind: 'table', text, html: tableHtml(out) });
  }
}

export function rtfToSections(src: string): Section[] {
  const reader = new RtfReader();
  reader.run(src);
  return reader.sections;
}

export async function parseRtf(buffer: Buffer, _opts: ParseOptions): Promise<ParsedDocument> {
  if (buffer.length === 0) throw new ParseError('The file is empty.');
  const src = buffer.toString('latin1');
  if (!/^\s*\{\\rtf/.test(src.slice(0, 64)))
    throw new ParseError('This is not a valid RTF file (it does not start with "{\\rtf").');
  return { sections: rtfToSections(src) };
}
