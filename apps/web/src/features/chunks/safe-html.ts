/**
 * Chunk text as HTML that is safe to insert: chunk content may hold HTML tables from the parsers and
 * `<em>` highlight marks from the server, but it is user data. Only a small set of formatting tags
 * survives, without attributes (except numeric colspan/rowspan on cells); scripts, styles and
 * embedded objects are dropped with their content; everything else becomes text.
 */
const KEEP = new Set([
  'em', 'b', 'strong', 'i', 'u', 'mark', 'sup', 'sub', 'br', 'p', 'div', 'span', 'pre', 'code',
  'ul', 'ol', 'li', 'table', 'caption', 'thead', 'tbody', 'tfoot', 'tr', 'td', 'th',
]); // prettier-ignore
const DROP = new Set([
  'script',
  'style',
  'iframe',
  'object',
  'embed',
  'template',
  'noscript',
  'svg',
  'math',
  'link',
  'meta',
]);
const VOID = new Set(['br']);

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function render(node: Node): string {
  if (node.nodeType === Node.TEXT_NODE) return escapeHtml(node.textContent ?? '');
  if (node.nodeType !== Node.ELEMENT_NODE) return '';
  const el = node as Element;
  const tag = el.tagName.toLowerCase();
  if (DROP.has(tag)) return '';
  const inner = Array.from(el.childNodes).map(render).join('');
  if (!KEEP.has(tag)) return inner;
  if (VOID.has(tag)) return `<${tag}>`;
  let attrs = '';
  if (tag === 'td' || tag === 'th') {
    for (const name of ['colspan', 'rowspan']) {
      const v = el.getAttribute(name);
      if (v && /^\d{1,3}$/.test(v)) attrs += ` ${name}="${v}"`;
    }
  }
  return `<${tag}${attrs}>${inner}</${tag}>`;
}

export function sanitizeHtml(html: string): string {
  if (!html) return '';
  const doc = new DOMParser().parseFromString(`<!doctype html><body>${html}</body>`, 'text/html');
  return Array.from(doc.body.childNodes).map(render).join('');
}

/** Plain text of chunk content (tags removed, entities decoded): for matching it in the document text. */
export function plainText(html: string): string {
  const doc = new DOMParser().parseFromString(`<!doctype html><body>${html}</body>`, 'text/html');
  return doc.body.textContent ?? '';
}
