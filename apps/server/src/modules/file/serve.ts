/**
 * Serving a user's bytes safely (issue 11.2): never sniffed, active types (HTML, SVG, XML, JS) only
 * as attachments, and a sandboxing CSP, so an uploaded page can never run as this site. Kept local to
 * the file manager until the shared helper for every byte-serving route lands in `http/`.
 */
import type { FastifyReply } from 'fastify';
import { contentTypeOf } from '../document/routes.js';

const ACTIVE =
  /^(text\/html|application\/xhtml\+xml|image\/svg\+xml|text\/xml|application\/xml|text\/javascript|application\/javascript)/i;
const ACTIVE_EXT = new Set(['html', 'htm', 'xhtml', 'svg', 'xml', 'js', 'mjs']);

export function sendUserBytes(reply: FastifyReply, name: string, ext: string, bytes: Buffer) {
  const type = contentTypeOf(ext);
  const active = ACTIVE.test(type) || ACTIVE_EXT.has(ext.toLowerCase());
  const encoded = encodeURIComponent(name);
  reply
    .header('X-Content-Type-Options', 'nosniff')
    .header(
      'Content-Security-Policy',
      "sandbox; default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'",
    )
    .header(
      'Content-Disposition',
      `${active ? 'attachment' : 'inline'}; filename="${encoded}"; filename*=UTF-8''${encoded}`,
    );
  return reply.type(active ? 'application/octet-stream' : type).send(bytes);
}
