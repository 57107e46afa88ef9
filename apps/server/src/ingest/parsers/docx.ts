/**
 * DOCX → ordered sections, read straight from the WordprocessingML (no conversion through HTML):
 * headings (style names, outline levels, numbered headings keep their number) → `title` with `level`;
 * consecutive numbered/bulleted paragraphs → one `list`; tables (colspan/rowspan) → `table` with `html`;
 * pictures → `figure` with `image` (a following "Caption" paragraph becomes the figure's text); text boxes
 * after their anchor paragraph; footnotes/endnotes at the end. Table-of-contents paragraphs are skipped
 * (they repeat the headings). `fromPage`/`toPage` select pages by the page breaks Word recorded.
 */
import { progressMessage } from '@lectern/shared';
import { ParseError } from '../errors.js';
import type { ParsedDocument, ParseOptions, Section } from '../types.js';
import { collectInline, emptyInline, type InlineContent, type NoteMarker } from './docx-inline.js';
import { DocxNumbering, DocxStyles, onOff, paragraphNumPr } from './docx-styles.js';
import { buildDocxTable } from './docx-table.js';
import {
  coreTitle,
  mainPart,
  openPackage,
  rasterMime,
  readRels,
  readXmlPart,
  relOfType,
  type Relationship,
} from './ooxml.js';
import { attr, child, childrenNamed, descendants, path, type XmlElement } from './xml.js';
import type { ZipArchive } from './zip.js';

const LABEL = 'DOCX file';

interface ListItem {
  level: number;
  marker: string;
  text: string;
}

function romanLower(n: number): string {
  const t: Array<[number, string]> = [[10, 'x'], [9, 'ix'], [5, 'v'], [4, 'iv'], [1, 'i']]; // prettier-ignore
  let s = '';
  for (const [v, r] of t) {
    while (n >= v) {
      s += r;
      n -= v;
    }
  }
  return s;
}

class DocxWalker {
  readonly sections: Section[] = [];
  readonly notes: string[] = [];
  title?: string;
  private list: ListItem[] = [];
  private page = 0;
  private skippedPictures = 0;
  private readonly noteNumbers = { footnote: new Map<string, number>(), endnote: new Map<string, number>() };
  readonly emittedNotes = { footnote: new Set<string>(), endnote: new Set<string>() };
  private readonly marker: NoteMarker = (kind, id) => {
    const map = this.noteNumbers[kind];
    if (!map.has(id)) map.set(id, map.size + 1);
    const n = map.get(id)!;
    return kind === 'footnote' ? `[${n}]` : `[${romanLower(n)}]`;
  };

  constructor(
    private readonly zip: ZipArchive,
    private readonly rels: Map<string, Relationship>,
    private readonly styles: DocxStyles,
    private readonly numbering: DocxNumbering,
    private readonly from: number,
    private readonly to: number,
  ) {}

  private inRange(): boolean {
    return this.page >= this.from && this.page < this.to;
  }

  private push(s: Section): void {
    if (s.kind !== 'list') this.flushList();
    this.sections.push(s);
  }

  flushList(): void {
    if (this.list.length === 0) return;
    const items = this.list;
    this.list = [];
    const text = items
      .map((i) => '  '.repeat(i.level) + (i.marker ? `${i.marker} ` : '') + i.text)
      .join('\n');
    this.sections.push({ kind: 'list', text, fields: { items } });
  }

  blocks(container: XmlElement): void {
    for (const c of container.children) {
      if (typeof c === 'string') continue;
      switch (c.local) {
        case 'p':
          this.paragraph(c);
          break;
        case 'tbl':
          this.table(c);
          break;
        case 'sdt':
          this.blocks(child(c, 'sdtContent') ?? c);
          break;
        case 'customXml':
        case 'ins':
        case 'moveTo':
          this.blocks(c);
          break;
        case 'AlternateContent': {
          const choice = child(c, 'Choice');
          if (choice) this.blocks(choice);
          break;
        }
        default:
          break; // sectPr, bookmarks, deleted blocks, …
      }
    }
  }

  /** Text of a paragraph without emitting anything (table cells). */
  paragraphText = (p: XmlElement): string => {
    const acc = emptyInline();
    collectInline(p, acc, this.marker);
    const numPr = paragraphNumPr(child(p, 'pPr'));
    const m = numPr ? this.numbering.next(numPr.numId, numPr.ilvl) : null;
    const text = acc.text.replace(/[ \t]+$/gm, '');
    return m?.marker && text.trim() ? `${m.marker} ${text}` : text;
  };

  private paragraph(p: XmlElement): void {
    const pPr = child(p, 'pPr');
    if (onOff(child(pPr, 'pageBreakBefore'))) this.page++;
    const styleId = this.styles.styleOf(pPr);
    const styleName = this.styles.name(styleId);
    const acc: InlineContent = emptyInline();
    collectInline(p, acc, this.marker);
    const leading = Math.max(acc.leadingExplicit, acc.leadingRendered);
    this.page += leading;
    const emit = this.inRange();
    const text = acc.text.replace(/[ \t]+$/gm, '').replace(/^\n+|\n+$/g, '');
    const skip = /^toc\s*\d|^toc heading$/i.test(styleName);

    const numPr = paragraphNumPr(pPr) ?? this.styles.numPr(styleId);
    const marker = numPr && text.trim() ? this.numbering.next(numPr.numId, numPr.ilvl) : null;
    const outline = attr(child(pPr, 'outlineLvl'), 'val');
    const level =
      outline !== undefined && Number(outline) < 9 ? Number(outline) + 1 : this.styles.headingLevel(styleId);

    if (emit && !skip && text.trim()) {
      for (const id of acc.footnoteRefs) this.emittedNotes.footnote.add(id);
      for (const id of acc.endnoteRefs) this.emittedNotes.endnote.add(id);
      if (level !== undefined) {
        const t = marker?.marker ? `${marker.marker} ${text}` : text;
        this.push({ kind: 'title', text: t, level });
        if (!this.title && this.styles.isTitleStyle(styleId)) this.title = text.trim();
      } else if (marker) {
        this.list.push({ level: marker.level, marker: marker.marker, text });
      } else if (/^caption$/i.test(styleName) && this.lastFigureWithoutCaption()) {
        const fig = this.sections[this.sections.length - 1];
        fig.fields = { ...fig.fields, caption: text };
        fig.text = fig.text ? `${text}\n${fig.text}` : text;
      } else {
        const code = /code|preformatted|source/i.test(styleName);
        this.push({ kind: code ? 'code' : 'text', text });
      }
    }
    if (emit) for (const img of acc.images) this.figure(img.rid, img.alt);
    for (const box of acc.boxes) this.blocks(box);
    this.page += Math.max(acc.explicitBreaks, acc.renderedBreaks) - leading;
  }

  private lastFigureWithoutCaption(): boolean {
    const last = this.sections[this.sections.length - 1];
    return this.list.length === 0 && last?.kind === 'figure' && !last.fields?.caption;
  }

  private figure(rid: string, alt: string): void {
    const rel = this.rels.get(rid);
    if (!rel || rel.external) return;
    const data = this.zip.read(rel.target);
    if (!data) return;
    const mime = rasterMime(data);
    if (!mime) {
      this.skippedPictures++;
      return;
    }
    const fields: Record<string, unknown> = { mime, name: rel.target.split('/').pop() };
    if (alt) fields.alt = alt;
    this.push({ kind: 'figure', text: alt, image: data, fields });
  }

  private table(tbl: XmlElement): void {
    const emit = this.inRange();
    const breaks = descendants(tbl, 'lastRenderedPageBreak').length;
    if (emit) {
      const t = buildDocxTable(tbl, this.paragraphText);
      if (t.text.trim()) this.push({ kind: 'table', text: t.text, html: t.html });
      // Pictures inside cells still become figures after the table.
      for (const blip of descendants(tbl, 'blip')) {
        const rid = Object.entries(blip.attrs).find(([k]) => k.endsWith(':embed'))?.[1];
        if (rid) this.figure(rid, '');
      }
    }
    this.page += breaks;
  }

  /** Footnotes or endnotes that the emitted text refers to, as `[n] text` sections. */
  notesPart(kind: 'footnote' | 'endnote'): void {
    const rel = relOfType(this.rels, kind === 'footnote' ? 'footnotes' : 'endnotes');
    if (!rel || this.emittedNotes[kind].size === 0) return;
    const root = readXmlPart(this.zip, rel.target);
    const numbers = this.noteNumbers[kind];
    const found: Array<[number, string]> = [];
    for (const note of childrenNamed(root ?? undefined, kind)) {
      const id = attr(note, 'id') ?? '';
      if (!this.emittedNotes[kind].has(id)) continue;
      const text = childrenNamed(note, 'p')
        .map((p) => {
          const acc = emptyInline();
          collectInline(p, acc, () => '');
          return acc.text.trim();
        })
        .filter(Boolean)
        .join('\n');
      if (text) found.push([numbers.get(id) ?? 0, text]);
    }
    found.sort((a, b) => a[0] - b[0]);
    for (const [n, text] of found) {
      const mark = kind === 'footnote' ? `[${n}]` : `[${romanLower(n)}]`;
      this.push({ kind: 'text', text: `${mark} ${text}`, fields: { [kind]: n } });
    }
  }

  finish(): void {
    this.flushList();
    if (this.skippedPictures > 0) {
      this.notes.push(progressMessage('docxVectorPictures', { count: this.skippedPictures }));
    }
  }
}

export async function parseDocx(buffer: Buffer, opts: ParseOptions): Promise<ParsedDocument> {
  if (buffer.length === 0) throw new ParseError('The file is empty.');
  const zip = openPackage(buffer, LABEL);
  const main = mainPart(zip, 'word/document.xml', LABEL);
  const rels = readRels(zip, main);
  const stylesRel = relOfType(rels, 'styles');
  const numberingRel = relOfType(rels, 'numbering');
  const styles = new DocxStyles(stylesRel ? readXmlPart(zip, stylesRel.target) : null);
  const numbering = new DocxNumbering(numberingRel ? readXmlPart(zip, numberingRel.target) : null);
  const doc = readXmlPart(zip, main);
  const body = path(doc ?? undefined, 'body');
  if (!doc || doc.local !== 'document' || !body) {
    throw new ParseError(`The ${LABEL} is damaged: "${main}" has no document body.`);
  }
  await opts.onProgress?.(0.2, progressMessage('docxStructureRead'));
  const from = opts.fromPage ?? 0;
  const to = opts.toPage ?? Number.MAX_SAFE_INTEGER;
  const walker = new DocxWalker(zip, rels, styles, numbering, from, to);
  walker.blocks(body);
  walker.flushList();
  walker.notesPart('footnote');
  walker.notesPart('endnote');
  walker.finish();
  await opts.onProgress?.(0.9, progressMessage('docxParsed', { count: walker.sections.length }));
  return {
    sections: walker.sections,
    title: coreTitle(zip) ?? walker.title,
    notes: walker.notes.length ? walker.notes : undefined,
  };
}
