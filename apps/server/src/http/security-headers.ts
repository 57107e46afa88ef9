/**
 * Headers the app itself sends (issue 11 item 2): a Content-Security-Policy for the web client,
 * `Referrer-Policy`, `X-Content-Type-Options`, and frame rules — the app may only be framed by itself,
 * except the share/embed pages (`/chat/share`, any `…/share`), which third-party sites iframe.
 * Routes that serve user bytes set their own, stricter policy (user-content.ts); it is kept.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Pages made to be embedded in other sites' iframes (API.md §1.4 share/embed). */
export function isEmbeddablePath(url: string): boolean {
  const path = url.split('?')[0].replace(/\/+$/, '');
  return /\/share$/.test(path);
}

/**
 * The web client's policy. Vite builds external module scripts only; antd (CSS-in-JS) injects
 * <style> elements, hence 'unsafe-inline' for styles only. Previews use blob: URLs (PDF, images,
 * text) and pdf.js runs a worker; avatars are data: URLs.
 */
export function appCsp(frameAncestors: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "media-src 'self' data: blob:",
    "worker-src 'self' blob:",
    "frame-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    `frame-ancestors ${frameAncestors}`,
  ].join('; ');
}

const APP_CSP = appCsp("'self'");
const EMBED_CSP = appCsp('*');

function addHeaders(request: FastifyRequest, reply: FastifyReply): void {
  if (!reply.hasHeader('X-Content-Type-Options')) reply.header('X-Content-Type-Options', 'nosniff');
  reply.header('Referrer-Policy', 'strict-origin-when-cross-origin');
  if (reply.hasHeader('Content-Security-Policy')) return; // user content: its sandbox stays
  const embeddable = isEmbeddablePath(request.url);
  reply.header('Content-Security-Policy', embeddable ? EMBED_CSP : APP_CSP);
  // Older browsers read only X-Frame-Options; it has no "any site" value, so embeds omit it.
  if (!embeddable) reply.header('X-Frame-Options', 'SAMEORIGIN');
}

export function installSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    addHeaders(request, reply);
    return payload;
  });
}
