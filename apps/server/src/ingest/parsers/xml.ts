/**
 * A small, strict XML reader for office parts. It checks well-formedness (every tag closed in order), so a
 * damaged part gives a readable ParseError instead of silently wrong text; it never expands DTD entities
 * (no entity-expansion attacks) and is linear in the input size. Two interfaces: `scanXml` (SAX-style
 * callbacks, for large worksheets) and `parseXml` (a light element tree).
 */
import { ParseError } from '../errors.js';

export interface XmlElement {
  /** Qualified name as written, e.g. `w:p`. */
  name: string;
  /** Local name without the namespace prefix, e.g. `p`. */
  local: string;
  attrs: Record<string, string>;
  children: XmlNode[];
}
export type XmlNode = XmlElement | string;

export interface XmlHandlers {
  open?(name: string, attrs: Record<string, string>, selfClosing: boolean): void;
  close?(name: string): void;
  text?(text: string): void;
}

const MAX_DEPTH = 2000;
const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

export function decodeEntities(s: string): string {
  if (s.indexOf('&') < 0) return s;
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z][a-zA-Z0-9]*);/g, (m, body: string) => {
    if (body[0] === '#') {
      const code =
        body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
    }
    return ENTITIES[body] ?? m;
  });
}

export function localName(name: string): string {
  const i = name.indexOf(':');
  return i < 0 ? name : name.slice(i + 1);
}

function lineOf(text: string, pos: number): number {
  let line = 1;
  for (let i = 0; i < pos && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

const ATTR_RE = /([^\s=/>]+)\s*=\s*("([^"]*)"|'([^']*)')/g;

/** Walks the XML, calling the handlers; throws ParseError naming `part` when it is not well-formed. */
export function scanXml(text: string, part: string, h: XmlHandlers): void {
  function fail(pos: number, what: string): never {
    throw new ParseError(`The part "${part}" is not well-formed XML (line ${lineOf(text, pos)}: ${what}).`);
  }
  const stack: string[] = [];
  let sawRoot = false;
  let i = 0;
  const n = text.length;
  if (text.charCodeAt(0) === 0xfeff) i = 1;
  while (i < n) {
    const lt = text.indexOf('<', i);
    const textEnd = lt < 0 ? n : lt;
    if (textEnd > i) {
      const raw = text.slice(i, textEnd);
      if (stack.length > 0) h.text?.(decodeEntities(raw));
      else if (raw.trim()) fail(i, 'text outside the root element');
    }
    if (lt < 0) break;
    const c = text[lt + 1];
    if (c === '?') {
      const end = text.indexOf('?>', lt + 2);
      if (end < 0) fail(lt, 'unterminated processing instruction');
      i = end + 2;
    } else if (c === '!') {
      if (text.startsWith('<!--', lt)) {
        const end = text.indexOf('-->', lt + 4);
        if (end < 0) fail(lt, 'unterminated comment');
        i = end + 3;
      } else if (text.startsWith('<![CDATA[', lt)) {
        const end = text.indexOf(']]>', lt + 9);
        if (end < 0) fail(lt, 'unterminated CDATA section');
        if (stack.length === 0) fail(lt, 'CDATA outside the root element');
        h.text?.(text.slice(lt + 9, end));
        i = end + 3;
      } else if (text.startsWith('<!DOCTYPE', lt)) {
        // Skipped, including an internal subset; its entities are never expanded.
        let depth = 0;
        let j = lt + 9;
        for (; j < n; j++) {
          const ch = text[j];
          if (ch === '[') depth++;
          else if (ch === ']') depth--;
          else if (ch === '>' && depth <= 0) break;
        }
        if (j >= n) fail(lt, 'unterminated DOCTYPE');
        i = j + 1;
      } else {
        fail(lt, 'unexpected markup');
      }
    } else if (c === '/') {
      const end = text.indexOf('>', lt + 2);
      if (end < 0) fail(lt, 'unterminated end tag');
      const name = text.slice(lt + 2, end).trim();
      const open = stack.pop();
      if (open === undefined) fail(lt, `unexpected end tag </${name}>`);
      if (open !== name) fail(lt, `expected </${open}> but found </${name}>`);
      h.close?.(name);
      i = end + 1;
    } else {
      // Start tag: find the closing '>' outside attribute quotes.
      let j = lt + 1;
      let quote = '';
      for (; j < n; j++) {
        const ch = text[j];
        if (quote) {
          if (ch === quote) quote = '';
        } else if (ch === '"' || ch === "'") quote = ch;
        else if (ch === '>') break;
        else if (ch === '<') fail(j, "unexpected '<' inside a tag");
      }
      if (j >= n) fail(lt, 'unterminated start tag');
      const selfClosing = text[j - 1] === '/';
      const body = text.slice(lt + 1, selfClosing ? j - 1 : j);
      const m = /^[^\s/>]+/.exec(body);
      if (!m) fail(lt, 'a tag without a name');
      const name = m[0];
      if (stack.length === 0 && sawRoot) fail(lt, 'more than one root element');
      sawRoot = true;
      const attrs: Record<string, string> = {};
      const rest = body.slice(name.length);
      if (rest.trim()) {
        ATTR_RE.lastIndex = 0;
        let am: RegExpExecArray | null;
        let consumed = 0;
        while ((am = ATTR_RE.exec(rest))) {
          if (rest.slice(consumed, am.index).trim()) fail(lt, `malformed attributes in <${name}>`);
          attrs[am[1]] = decodeEntities(am[3] ?? am[4] ?? '');
          consumed = am.index + am[0].length;
        }
        if (rest.slice(consumed).trim()) fail(lt, `malformed attributes in <${name}>`);
      }
      h.open?.(name, attrs, selfClosing);
      if (selfClosing) h.close?.(name);
      else {
        stack.push(name);
        if (stack.length > MAX_DEPTH) fail(lt, `elements nested deeper than ${MAX_DEPTH} levels`);
      }
      i = j + 1;
    }
  }
  if (stack.length > 0)
    fail(n, `the element <${stack[stack.length - 1]}> is never closed (the part may be truncated)`);
  if (!sawRoot) throw new ParseError(`The part "${part}" is empty or is not XML.`);
}

/** Parses to an element tree (the root element). */
export function parseXml(text: string, part: string): XmlElement {
  const root: XmlElement = { name: '#root', local: '#root', attrs: {}, children: [] };
  const stack: XmlElement[] = [root];
  scanXml(text, part, {
    open(name, attrs) {
      const el: XmlElement = { name, local: localName(name), attrs, children: [] };
      stack[stack.length - 1].children.push(el);
      stack.push(el);
    },
    close() {
      stack.pop();
    },
    text(t) {
      stack[stack.length - 1].children.push(t);
    },
  });
  return root.children.find((c): c is XmlElement => typeof c !== 'string')!;
}

/** Decodes an XML part (UTF-8, or UTF-16 with a BOM) and parses it. */
export function parseXmlBuffer(buf: Buffer, part: string): XmlElement {
  return parseXml(xmlBufferToString(buf), part);
}

export function xmlBufferToString(buf: Buffer): string {
  if (buf.length >= 2 && buf[0] === 0xff && buf[1] === 0xfe)
    return new TextDecoder('utf-16le').decode(buf.subarray(2));
  if (buf.length >= 2 && buf[0] === 0xfe && buf[1] === 0xff)
    return new TextDecoder('utf-16be').decode(buf.subarray(2));
  return buf.toString('utf8');
}

// ---- tree helpers -------------------------------------------------------------------------------------

export function isElement(n: XmlNode | undefined): n is XmlElement {
  return typeof n === 'object' && n !== null;
}

export function elements(el: XmlElement | undefined): XmlElement[] {
  return el ? el.children.filter(isElement) : [];
}

/** First direct child with this local name. */
export function child(el: XmlElement | undefined, local: string): XmlElement | undefined {
  if (!el) return undefined;
  for (const c of el.children) if (typeof c !== 'string' && c.local === local) return c;
  return undefined;
}

export function childrenNamed(el: XmlElement | undefined, local: string): XmlElement[] {
  return el ? el.children.filter((c): c is XmlElement => typeof c !== 'string' && c.local === local) : [];
}

/** Follows a path of local names through first children. */
export function path(el: XmlElement | undefined, ...locals: string[]): XmlElement | undefined {
  let cur = el;
  for (const l of locals) cur = child(cur, l);
  return cur;
}

/** All descendants with this local name, in document order. */
export function descendants(el: XmlElement | undefined, local: string, out: XmlElement[] = []): XmlElement[] {
  if (!el) return out;
  for (const c of el.children) {
    if (typeof c === 'string') continue;
    if (c.local === local) out.push(c);
    descendants(c, local, out);
  }
  return out;
}

/** Attribute by local name (ignores the prefix: `w:val`, `val`). */
export function attr(el: XmlElement | undefined, local: string): string | undefined {
  if (!el) return undefined;
  if (local in el.attrs) return el.attrs[local];
  for (const k of Object.keys(el.attrs)) if (localName(k) === local) return el.attrs[k];
  return undefined;
}

/** A boolean attribute (`1`/`true`); false when absent. */
export function onOffAttr(el: XmlElement | undefined, local: string): boolean {
  const v = attr(el, local);
  return v === '1' || v === 'true' || v === 'on';
}

/** Attribute with a namespace prefix and this local name (`r:id`, not a plain `id`). */
export function prefixedAttr(el: XmlElement | undefined, local: string): string | undefined {
  if (!el) return undefined;
  for (const k of Object.keys(el.attrs)) {
    const i = k.indexOf(':');
    if (i > 0 && k.slice(i + 1) === local && !k.startsWith('xmlns')) return el.attrs[k];
  }
  return undefined;
}

/** Concatenated text of all descendant text nodes. */
export function textContent(el: XmlElement | undefined): string {
  if (!el) return '';
  let s = '';
  for (const c of el.children) s += typeof c === 'string' ? c : textContent(c);
  return s;
}
