/**
 * Serving bytes a user uploaded (documents, images, later `file/get`) without letting them run in
 * the app's origin (issue 11 item 2: stored XSS). Every such answer carries
 * - `X-Content-Type-Options: nosniff` (the browser never guesses an active type),
 * - a sandboxing Content-Security-Policy (even if opened directly, nothing runs and nothing loads),
 * - `Content-Disposition`: `attachment` for active types (HTML, SVG, XML, JavaScript…), which are also
 *   labelled `text/plain` so a direct open shows the source; `inline` for the rest.
 * Routes call `sendUserContent`; none sets these headers by hand.
 */
import type { FastifyReply } from 'fastify';

const CONTENT_TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  txt: 'text/plain; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
  mdx: 'text/markdown; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  json: 'application/json',
  jpg: 'image/jpeg',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
};

const IMAGE_EXT = new Set(['png', 'jpeg', 'gif', 'bmp', 'tif', 'tiff', 'webp', 'ico', 'avif']);

/** Extensions a browser would render as a document that runs script (or pulls in script/styles). */
const ACTIVE_EXT = new Set([
  'html',
  'htm',
  'xhtml',
  'xht',
  'shtml',
  'mht',
  'mhtml',
  'svg',
  'svgz',
  'xml',
  'xsl',
  'xslt',
  'rss',
  'atom',
  'js',
  'mjs',
  'cjs',
  'jsx',
  'swf',
  'vtt',
]);

/** Content types that are active whatever the extension says. */
const ACTIVE_TYPE = /(html|xml|svg|javascript|ecmascript|x-shockwave-flash)/i;

/** The sandbox the bytes live in if a browser ever renders them as a page. */
export const USER_CONTENT_CSP = "sandbox; default-src 'none'; img-src data:; style-src 'unsafe-inline'";

/** Content type from the extension (API.md §1.1): images `image/<ext>`, else `application/<ext>`. */
export function contentTypeOf(ext: string): string {
  const e = ext.toLowerCase();
  if (CONTENT_TYPES[e]) return CONTENT_TYPES[e];
  if (IMAGE_EXT.has(e)) return `image/${e}`;
  return /^[a-z0-9][a-z0-9.+-]{0,30}$/.test(e) ? `application/${e}` : 'application/octet-stream';
}

export function isActiveContent(ext: string, contentType: string): boolean {
  return ACTIVE_EXT.has(ext.toLowerCase()) || ACTIVE_TYPE.test(contentType);
}

/** `filename="<ascii>"; filename*=UTF-8''<encoded>` (RFC 6266); quotes and controls never reach the header. */
function dispositionOf(kind: 'inline' | 'attachment', fileName: string | undefined): string {
  if (!fileName) return kind;
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

export interface UserContent {
  /** The file's extension (without the dot): chooses the content type. */
  ext: string;
  /** Shown as the download name. */
  fileName?: string;
  /** A content type the route knows better than the extension. */
  contentType?: string;
}

/** Sends user-supplied bytes with the headers above. */
export function sendUserContent(reply: FastifyReply, bytes: Buffer, content: UserContent) {
  const type = content.contentType ?? contentTypeOf(content.ext);
  const active = isActiveContent(content.ext, type);
  return reply
    .header('X-Content-Type-Options', 'nosniff')
    .header('Content-Security-Policy', USER_CONTENT_CSP)
    .header('Content-Disposition', dispositionOf(active ? 'attachment' : 'inline', content.fileName))
    .type(active ? 'text/plain; charset=utf-8' : type)
    .send(bytes);
}
