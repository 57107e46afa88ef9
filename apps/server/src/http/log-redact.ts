/**
 * What the access log may show of a request URL (issue 11 item 5): credentials travel in some paths
 * (`DELETE /v1/system/token/<key>`) and query strings (`?auth=<beta>` of the share pages), and a
 * log file is read by more people than the key's owner. They are replaced by `[redacted]`.
 */
import type { FastifyRequest } from 'fastify';

/** Path segments that are a credential: the segment after these prefixes. */
const SECRET_PATHS = [/^(\/v1\/system\/token\/)[^/?]+/];
const SECRET_QUERY = new Set(['auth', 'token', 'api_key', 'apikey', 'key', 'beta', 'access_token', 'code']);

export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  let path = q >= 0 ? url.slice(0, q) : url;
  for (const pattern of SECRET_PATHS) path = path.replace(pattern, '$1[redacted]');
  if (q < 0) return path;
  const params = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const name = pair.split('=', 1)[0];
      return SECRET_QUERY.has(decodeURIComponent(name).toLowerCase()) ? `${name}=[redacted]` : pair;
    });
  return `${path}?${params.join('&')}`;
}

/** The logger's `req` serializer: Fastify's default fields, the URL redacted. */
export function requestLogFields(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
