/**
 * DOCX paragraph content: the visible text of a paragraph's runs (hyperlinks, insertions, fields, content
 * controls, math), its pictures, text boxes, footnote references and page breaks. Deleted and hidden text,
 * field instructions and the VML fallbacks of `mc:AlternateContent` are left out.
 */
import { onOff } from './docx-styles.js';
import { attr, child, descendants, prefixedAttr, textContent, type XmlElement } from './xml.js';

export interface InlineImage {
  rid: string;
  alt: string;
}

export interface InlineContent {
  text: string;
  images: InlineImage[];
  /** `w:txbxContent` elements found in drawings (processed as blocks after the paragraph). */
  boxes: XmlElement[];
  explicitBreaks: number;
  renderedBreaks: number;
  /** Breaks met before any visible text (they move the whole paragraph to the next page). */
  leadingExplicit: number;
  leadingRendered: number;
  footnoteRefs: string[];
  endnoteRefs: string[];
}

export function emptyInline(): InlineContent {
  return {
    text: '',
    images: [],
    boxes: [],
    explicitBreaks: 0,
    renderedBreaks: 0,
    leadingExplicit: 0,
    leadingRendered: 0,
    footnoteRefs: [],
    endnoteRefs: [],
  };
}

/** Resolves a footnote/endnote id to the marker shown in the text ("[1]"). */
export type NoteMarker = (kind: 'footnote' | 'endnote', id: string) => string;

const CONTAINERS = new Set([
  'hyperlink',
  'smartTag',
  'ins',
  'moveTo',
  'fldSimple',
  'customXml',
  'dir',
  'bdo',
  'sdtContent',
]);

export function collectInline(el: XmlElement, acc: InlineContent, note: NoteMarker): void {
  for (const c of el.children) {
    if (typeof c === 'string') continue;
    switch (c.local) {
      case 'r':
        if (!onOff(child(child(c, 'rPr'), 'vanish'))) collectRun(c, acc, note);
        break;
      case 'sdt':
        collectInline(child(c, 'sdtContent') ?? c, acc, note);
        break;
      case 'oMath':
      case 'oMathPara':
        acc.text += descendants(c, 't').map(textContent).join('');
        break;
      case 'AlternateContent': {
        const choice = child(c, 'Choice');
        if (choice) collectInline(choice, acc, note);
        break;
      }
      default:
        if (CONTAINERS.has(c.local)) collectInline(c, acc, note);
    }
  }
}

function collectRun(r: XmlElement, acc: InlineContent, note: NoteMarker): void {
  for (const c of r.children) {
    if (typeof c === 'string') continue;
    switch (c.local) {
      case 't':
        acc.text += textContent(c);
        break;
      case 'tab':
      case 'ptab':
        acc.text += '\t';
        break;
      case 'br': {
        const type = attr(c, 'type');
        if (type === 'page') {
          acc.explicitBreaks++;
          if (!acc.text.trim()) acc.leadingExplicit++;
        } else acc.text += '\n';
        break;
      }
      case 'cr':
        acc.text += '\n';
        break;
      case 'noBreakHyphen':
        acc.text += '-';
        break;
      case 'sym': {
        const code = parseInt(attr(c, 'char') ?? '', 16);
        // Symbol-font glyphs live in the private-use area and mean nothing as text.
        if (code > 0 && (code < 0xe000 || code > 0xf8ff)) acc.text += String.fromCodePoint(code);
        break;
      }
      case 'lastRenderedPageBreak':
        acc.renderedBreaks++;
        if (!acc.text.trim()) acc.leadingRendered++;
        break;
      case 'footnoteReference': {
        const id = attr(c, 'id') ?? '';
        acc.footnoteRefs.push(id);
        acc.text += note('footnote', id);
        break;
      }
      case 'endnoteReference': {
        const id = attr(c, 'id') ?? '';
        acc.endnoteRefs.push(id);
        acc.text += note('endnote', id);
        break;
      }
      case 'drawing':
      case 'pict':
      case 'object':
        scanGraphic(c, acc, { alt: '' });
        break;
      case 'AlternateContent': {
        const choice = child(c, 'Choice');
        if (choice) collectRun(choice, acc, note);
        break;
      }
      default:
        break; // rPr, fldChar, instrText, delText, …
    }
  }
}

/** Finds pictures (DrawingML blips, VML image data) and text boxes without descending into the boxes. */
function scanGraphic(el: XmlElement, acc: InlineContent, ctx: { alt: string }): void {
  for (const c of el.children) {
    if (typeof c === 'string') continue;
    switch (c.local) {
      case 'txbxContent':
        acc.boxes.push(c);
        break;
      case 'docPr':
        ctx.alt = (attr(c, 'descr') || attr(c, 'title') || '').trim();
        break;
      case 'blip': {
        const rid = prefixedAttr(c, 'embed');
        if (rid) acc.images.push({ rid, alt: ctx.alt });
        break;
      }
      case 'imagedata': {
        const rid = prefixedAttr(c, 'id') ?? prefixedAttr(c, 'embed');
        if (rid) acc.images.push({ rid, alt: ctx.alt || (attr(c, 'title') ?? '').trim() });
        break;
      }
      case 'Fallback':
        break;
      case 'AlternateContent': {
        const choice = child(c, 'Choice');
        if (choice) scanGraphic(choice, acc, ctx);
        break;
      }
      default:
        scanGraphic(c, acc, ctx);
    }
  }
}
