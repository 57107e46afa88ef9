/**
 * PPTX → one `text` section per slide, in the order of the presentation's slide list (not file names):
 * the title first, then the other text shapes by position (top to bottom, left to right; positions
 * inherited from the slide layout's placeholders), tables as readable rows in the text and as HTML
 * (colspan/rowspan) in `html`, speaker notes in `fields.notes`, and the slide's largest raster picture as
 * `image` (slides themselves cannot be rendered without an office suite). Footer, date and slide-number
 * placeholders are skipped. `fromPage`/`toPage` select slides; `pageCount` is the slide count.
 */
import { progressMessage } from '@lectern/shared';
import { ParseError } from '../errors.js';
import type { ParsedDocument, ParseOptions, Section } from '../types.js';
import {
  coreTitle,
  mainPart,
  numAttr,
  openPackage,
  rasterMime,
  readRels,
  readXmlPart,
  relOfType,
  type Relationship,
} from './ooxml.js';
import { tableHtml, tableText, type TableCell, type TableRow } from './table-html.js';
import {
  attr,
  child,
  childrenNamed,
  descendants,
  path,
  prefixedAttr,
  textContent,
  type XmlElement,
} from './xml.js';
import type { ZipArchive } from './zip.js';

const LABEL = 'PPTX file';
const FURNITURE = new Set(['sldNum', 'dt', 'ftr', 'hdr', 'sldImg']);

interface Pos {
  x: number;
  y: number;
}

interface Item {
  pos?: Pos;
  order: number;
  title: boolean;
  text: string;
  html?: string;
}

interface Picture {
  rid: string;
  area: number;
}

function offsetOf(spPr: XmlElement | undefined): Pos | undefined {
  const off = path(spPr, 'xfrm', 'off');
  if (!off) return undefined;
  return { x: Number(attr(off, 'x') ?? 0), y: Number(attr(off, 'y') ?? 0) };
}

/** Text of a DrawingML text body: one line per paragraph, indented by level; `a:br` breaks lines. */
export function textBody(txBody: XmlElement | undefined): string {
  if (!txBody) return '';
  const lines: string[] = [];
  for (const p of childrenNamed(txBody, 'p')) {
    let line = '';
    for (const c of p.children) {
      if (typeof c === 'string') continue;
      if (c.local === 'r' || c.local === 'fld') line += textContent(child(c, 't'));
      else if (c.local === 'br') line += '\n';
    }
    const lvl = numAttr(child(p, 'pPr'), 'lvl') ?? 0;
    if (line.trim()) lines.push('  '.repeat(lvl) + line.replace(/\s+$/, ''));
  }
  return lines.join('\n');
}

function pptxTable(tbl: XmlElement): { html: string; text: string } {
  const rows: TableRow[] = [];
  for (const tr of childrenNamed(tbl, 'tr')) {
    const row: TableRow = [];
    for (const tc of childrenNamed(tr, 'tc')) {
      if (attr(tc, 'hMerge') === '1' || attr(tc, 'vMerge') === '1') continue; // covered by a span
      const cell: TableCell = { text: textBody(child(tc, 'txBody')) };
      const colspan = Number(attr(tc, 'gridSpan') ?? 1);
      const rowspan = Number(attr(tc, 'rowSpan') ?? 1);
      if (colspan > 1) cell.colspan = colspan;
      if (rowspan > 1) cell.rowspan = rowspan;
      row.push(cell);
    }
    rows.push(row);
  }
  return { html: tableHtml(rows), text: tableText(rows) };
}

/** Placeholder positions of a slide layout, by `idx` and by `type`. */
function layoutPositions(
  zip: ZipArchive,
  rels: Map<string, Relationship>,
  cache: Map<string, Map<string, Pos>>,
): Map<string, Pos> {
  const layout = relOfType(rels, 'slideLayout');
  if (!layout) return new Map();
  const known = cache.get(layout.target);
  if (known) return known;
  const out = new Map<string, Pos>();
  cache.set(layout.target, out);
  let root: XmlElement | null = null;
  try {
    root = readXmlPart(zip, layout.target);
  } catch {
    return out; // positions are only an ordering hint; a broken layout must not fail the slide
  }
  for (const sp of descendants(root ?? undefined, 'sp')) {
    const ph = path(sp, 'nvSpPr', 'nvPr', 'ph');
    const pos = offsetOf(child(sp, 'spPr'));
    if (!ph || !pos) continue;
    const idx = attr(ph, 'idx');
    if (idx !== undefined) out.set(`idx:${idx}`, pos);
    out.set(`type:${attr(ph, 'type') ?? 'body'}`, pos);
  }
  return out;
}

class SlideReader {
  readonly items: Item[] = [];
  readonly pictures: Picture[] = [];
  private order = 0;

  constructor(private readonly layout: Map<string, Pos>) {}

  shapes(tree: XmlElement): void {
    for (const c of tree.children) {
      if (typeof c === 'string') continue;
      switch (c.local) {
        case 'sp':
          this.shape(c);
          break;
        case 'graphicFrame': {
          const tbl = descendants(c, 'tbl')[0];
          if (tbl) {
            const t = pptxTable(tbl);
            if (t.text)
              this.items.push({
                pos: offsetOf(c),
                order: this.order++,
                title: false,
                text: t.text,
                html: t.html,
              });
          }
          break;
        }
        case 'pic': {
          const rid = prefixedAttr(path(c, 'blipFill', 'blip'), 'embed');
          const ext = path(c, 'spPr', 'xfrm', 'ext');
          if (rid)
            this.pictures.push({ rid, area: Number(attr(ext, 'cx') ?? 0) * Number(attr(ext, 'cy') ?? 0) });
          break;
        }
        case 'grpSp':
          this.shapes(c);
          break;
        case 'AlternateContent': {
          const choice = child(c, 'Choice');
          if (choice) this.shapes(choice);
          break;
        }
        default:
          break;
      }
    }
  }

  private shape(sp: XmlElement): void {
    const ph = path(sp, 'nvSpPr', 'nvPr', 'ph');
    const type = ph ? (attr(ph, 'type') ?? 'body') : undefined;
    if (type && FURNITURE.has(type)) return;
    const text = textBody(child(sp, 'txBody'));
    // Picture fills of shapes count as pictures too.
    const blip = path(sp, 'spPr', 'blipFill', 'blip');
    const rid = prefixedAttr(blip, 'embed');
    if (rid) {
      const ext = path(sp, 'spPr', 'xfrm', 'ext');
      this.pictures.push({ rid, area: Number(attr(ext, 'cx') ?? 0) * Number(attr(ext, 'cy') ?? 0) });
    }
    if (!text) return;
    let pos = offsetOf(child(sp, 'spPr'));
    if (!pos && ph) {
      const idx = attr(ph, 'idx');
      pos =
        (idx !== undefined ? this.layout.get(`idx:${idx}`) : undefined) ?? this.layout.get(`type:${type}`);
    }
    const title = type === 'title' || type === 'ctrTitle';
    this.items.push({ pos, order: this.order++, title, text });
  }

  /** Title(s) first; the rest by position when every item has one, otherwise in tree order. */
  ordered(): Item[] {
    const titles = this.items.filter((i) => i.title);
    const rest = this.items.filter((i) => !i.title);
    if (rest.every((i) => i.pos))
      rest.sort((a, b) => a.pos!.y - b.pos!.y || a.pos!.x - b.pos!.x || a.order - b.order);
    return [...titles, ...rest];
  }
}

function notesText(zip: ZipArchive, rels: Map<string, Relationship>): string {
  const rel = relOfType(rels, 'notesSlide');
  if (!rel) return '';
  const root = readXmlPart(zip, rel.target);
  const parts: string[] = [];
  for (const sp of descendants(root ?? undefined, 'sp')) {
    const ph = path(sp, 'nvSpPr', 'nvPr', 'ph');
    const type = ph ? (attr(ph, 'type') ?? 'body') : 'body';
    if (type !== 'body') continue;
    const t = textBody(child(sp, 'txBody'));
    if (t) parts.push(t);
  }
  return parts.join('\n');
}

export async function parsePptx(buffer: Buffer, opts: ParseOptions): Promise<ParsedDocument> {
  if (buffer.length === 0) throw new ParseError('The file is empty.');
  const zip = openPackage(buffer, LABEL);
  const main = mainPart(zip, 'ppt/presentation.xml', LABEL);
  const pres = readXmlPart(zip, main);
  if (!pres || pres.local !== 'presentation')
    throw new ParseError(`The ${LABEL} is damaged: "${main}" is not a presentation.`);
  const rels = readRels(zip, main);
  const slideParts = childrenNamed(child(pres, 'sldIdLst'), 'sldId')
    .map((s) => rels.get(prefixedAttr(s, 'id') ?? ''))
    .filter((r): r is Relationship => !!r && !r.external && zip.has(r.target))
    .map((r) => r.target);
  const from = Math.max(0, opts.fromPage ?? 0);
  const to = Math.min(slideParts.length, opts.toPage ?? Number.MAX_SAFE_INTEGER);
  const sections: Section[] = [];
  let firstTitle: string | undefined;
  let skippedPictures = 0;
  const layouts = new Map<string, Map<string, Pos>>();
  for (let i = from; i < to; i++) {
    const part = slideParts[i];
    const slide = readXmlPart(zip, part);
    const tree = path(slide ?? undefined, 'cSld', 'spTree');
    if (!tree) throw new ParseError(`The ${LABEL} is damaged: slide ${i + 1} ("${part}") has no shape tree.`);
    const slideRels = readRels(zip, part);
    const reader = new SlideReader(layoutPositions(zip, slideRels, layouts));
    reader.shapes(tree);
    const items = reader.ordered();
    const title = items.find((it) => it.title)?.text.replace(/\s*\n\s*/g, ' ');
    firstTitle ??= title;
    const text = items.map((it) => it.text).join('\n');
    const html = items
      .filter((it) => it.html)
      .map((it) => it.html)
      .join('');
    let image: Buffer | undefined;
    let best = -1;
    for (const pic of reader.pictures) {
      const rel = slideRels.get(pic.rid);
      const data = rel && !rel.external ? zip.read(rel.target) : null;
      if (!data) continue;
      if (!rasterMime(data)) {
        skippedPictures++;
        continue;
      }
      const score = pic.area > 0 ? pic.area : data.length;
      if (score > best) {
        best = score;
        image = data;
      }
    }
    const notes = notesText(zip, slideRels);
    if (!text && !image) continue;
    const fields: Record<string, unknown> = { slide: i + 1 };
    if (title) fields.title = title;
    if (notes) fields.notes = notes;
    const section: Section = { kind: 'text', text, page: i + 1, fields };
    if (html) section.html = html;
    if (image) section.image = image;
    sections.push(section);
    if ((i - from) % 20 === 19)
      await opts.onProgress?.(
        (0.9 * (i - from + 1)) / Math.max(1, to - from),
        progressMessage('pptxSlideRead', { slide: i + 1 }),
      );
  }
  const notes = skippedPictures ? [progressMessage('pptxVectorPictures', { count: skippedPictures })] : [];
  return {
    sections,
    pageCount: slideParts.length,
    title: coreTitle(zip) ?? firstTitle,
    notes: notes.length ? notes : undefined,
  };
}
