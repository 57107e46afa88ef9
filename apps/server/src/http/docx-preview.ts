/**
 * A DOCX shown as a page (issue 11 item 12: "the DOCX preview works"). mammoth turns the document into
 * simple HTML; that HTML is user content, so it is rebuilt from an allow-list before anyone sees it:
 * only text-structure elements survive, links keep only http(s)/mailto/#anchor targets, pictures only
 * raster `data:` URIs (nothing is ever fetched), and no attribute that can run or load anything
 * (handlers, style, srcset…) is copied. The page then carries its own CSP as a second wall, and is served
 * through `sendUserContent` (nosniff, sandbox CSP) and shown by the client in a sandboxed iframe.
 */
import type { FastifyReply } from 'fastify';
import mammoth from 'mammoth';
import { Parser } from 'htmlparser2';
import { isParseError } from '../ingest/errors.js';
import { openPackage } from '../ingest/parsers/ooxml.js';
import { errors } from './envelope.js';
import { sendUserContent } from './user-content.js';

const ALLOWED_TAGS = new Set([
  'p',
  'br',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'strong',
  'b',
  'em',
  'i',
  'u',
  's',
  'sub',
  'sup',
  'ul',
  'ol',
  'li',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'a',
  'img',
  'blockquote',
  'pre',
  'code',
]);

const VOID_TAGS = new Set(['br', 'img']);

/** Elements whose text is not content (their text is dropped with them). */
const DROPPED_WITH_TEXT = new Set([
  'script',
  'style',
  'template',
  'noscript',
  'iframe',
  'object',
  'svg',
  'math',
]);

const SAFE_HREF = /^(https?:|mailto:|#)/i;
const SAFE_IMG = /^data:image\/(png|jpe?g|gif|webp|bmp);base64,[a-z0-9+/=\s]+$/i;
const ID_VALUE = /^[\w.:-]{1,100}$/;

const escapeText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttr = (s: string) => escapeText(s).replace(/"/g, '&quot;');

/** Attributes kept for `tag`; every value is checked, anything else is dropped. */
function safeAttributes(tag: string, attrs: Record<string, string>): string {
  const kept: string[] = [];
  const href = attrs.href?.trim();
  if (tag === 'a' && href && SAFE_HREF.test(href)) {
    kept.push(`href="${escapeAttr(href)}"`);
    if (!href.startsWith('#')) kept.push('rel="noopener noreferrer"', 'target="_blank"');
  }
  if (tag === 'img') {
    const src = attrs.src?.trim();
    if (!src || !SAFE_IMG.test(src)) return '';
    kept.push(`src="${escapeAttr(src)}"`);
    if (attrs.alt) kept.push(`alt="${escapeAttr(attrs.alt)}"`);
  }
  // Footnote anchors (`#footnote-1`) point at ids; an id cannot run anything.
  if (attrs.id && ID_VALUE.test(attrs.id)) kept.push(`id="${escapeAttr(attrs.id)}"`);
  if ((tag === 'td' || tag === 'th') && /^\d{1,3}$/.test(attrs.colspan ?? ''))
    kept.push(`colspan="${attrs.colspan}"`);
  if ((tag === 'td' || tag === 'th') && /^\d{1,3}$/.test(attrs.rowspan ?? ''))
    kept.push(`rowspan="${attrs.rowspan}"`);
  return kept.length ? ` ${kept.join(' ')}` : '';
}

/** Rebuilds `html` from the allow-list above (never a pass-through of the input). */
export function sanitizePreviewHtml(html: string): string {
  const out: string[] = [];
  const open: string[] = [];
  // Depth inside an element whose text is dropped (script, style…).
  let dropped = 0;
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (DROPPED_WITH_TEXT.has(name)) {
          dropped++;
          return;
        }
        if (dropped > 0 || !ALLOWED_TAGS.has(name)) return;
        // A refused picture leaves nothing behind (no empty <img> that a browser might fetch).
        if (name === 'img' && !SAFE_IMG.test(attrs.src?.trim() ?? '')) return;
        out.push(`<${name}${safeAttributes(name, attrs)}>`);
        if (!VOID_TAGS.has(name)) open.push(name);
      },
      ontext(text) {
        if (dropped === 0) out.push(escapeText(text));
      },
      onclosetag(name) {
        if (DROPPED_WITH_TEXT.has(name)) {
          dropped = Math.max(0, dropped - 1);
          return;
        }
        if (dropped > 0 || VOID_TAGS.has(name)) return;
        const at = open.lastIndexOf(name);
        if (at < 0) return;
        while (open.length > at) out.push(`</${open.pop()}>`);
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  while (open.length) out.push(`</${open.pop()}>`);
  return out.join('');
}

/** The page's own policy: nothing loads or runs even if the bytes are opened outside the sandbox. */
const PAGE_CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'";

const PAGE_STYLE =
  'body{font:15px/1.6 system-ui,sans-serif;margin:16px;color:#1f1f1f;word-wrap:break-word}' +
  'table{border-collapse:collapse;margin:8px 0}td,th{border:1px solid #d9d9d9;padding:4px 8px;vertical-align:top}' +
  'img{max-width:100%}';

/** What a previewed DOCX may unpack to: a page for reading, not the parser's 512 MB budget. */
const PREVIEW_ZIP_LIMITS = { maxTotalBytes: 64 * 1024 * 1024, maxEntries: 5_000 };

/**
 * Unpacks every entry once through the parsers' bounded ZIP reader (declared and actual sizes both
 * checked) before mammoth, which would inflate whatever the archive holds: a decompression bomb is
 * refused here with the parser's readable sentence instead of filling the server's memory.
 */
function checkPackage(bytes: Buffer): void {
  const zip = openPackage(bytes, 'DOCX file', PREVIEW_ZIP_LIMITS);
  for (const name of zip.names()) zip.read(name);
}

/** A DOCX as a complete, self-contained, sanitized HTML page. */
export async function docxPreviewPage(bytes: Buffer): Promise<string> {
  checkPackage(bytes);
  const { value } = await mammoth.convertToHtml({ buffer: bytes });
  return (
    '<!doctype html><html><head><meta charset="utf-8">' +
    `<meta http-equiv="Content-Security-Policy" content="${PAGE_CSP}">` +
    `<style>${PAGE_STYLE}</style></head><body>${sanitizePreviewHtml(value)}</body></html>`
  );
}

/**
 * Answers the preview page of a DOCX (`ext` from the stored name): 101 for another type, 102 when the
 * bytes are not a readable DOCX. The page goes out as user content (`text/plain` attachment, nosniff,
 * sandbox CSP), so even a direct open of the URL renders nothing.
 */
export async function sendDocxPreview(reply: FastifyReply, bytes: Buffer, ext: string, fileName: string) {
  if (ext.toLowerCase() !== 'docx') throw errors.argument('Preview is only available for DOCX files.');
  const page = await docxPreviewPage(bytes).catch((err: unknown) => {
    // The bounded reader's sentences (bomb, password, legacy format) say more than a generic refusal.
    throw errors.data(isParseError(err) ? err.message : 'The file could not be read as a DOCX document.');
  });
  return sendUserContent(reply, Buffer.from(page, 'utf8'), {
    ext: 'html',
    fileName: `${fileName.replace(/\.docx$/i, '')}.html`,
  });
}
