/**
 * Fetching a URL a user gave us (web_crawl, parse by URL) through the outbound guard (net/): private,
 * local and cloud-metadata targets are refused unless LECTERN_SSRF_ALLOW allows them, the connection
 * is pinned to the checked address, redirects are re-checked (at most 5), the body is capped and the
 * whole fetch has a time limit.
 */
import { fetchBytes, type OutboundPolicy } from '../../net/index.js';

export interface FetchedPage {
  status: number;
  contentType: string;
  body: Buffer;
  url: string;
  /** File name from Content-Disposition, when the server gave one. */
  fileName: string | null;
}

export function isHttpUrl(raw: unknown): raw is string {
  if (typeof raw !== 'string') return false;
  try {
    const u = new URL(raw);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname.length > 0;
  } catch {
    return false;
  }
}

function fileNameOf(disposition: string | null): string | null {
  if (!disposition) return null;
  const star = /filename\*=(?:UTF-8'')?([^;]+)/i.exec(disposition);
  if (star) return decodeURIComponent(star[1].trim().replace(/^"|"$/g, ''));
  const plain = /filename="?([^";]+)"?/i.exec(disposition);
  return plain ? plain[1].trim() : null;
}

/** Fetches `raw`; refusals and failures throw OutboundError (net/errors.ts). */
export async function fetchUrl(
  raw: string,
  opts: { policy: OutboundPolicy; maxBytes: number; timeoutMs: number },
): Promise<FetchedPage> {
  const res = await fetchBytes(opts.policy, raw, {
    maxBytes: opts.maxBytes,
    timeoutMs: opts.timeoutMs,
    headers: { 'user-agent': 'Lectern/1.0 (+web crawl)', accept: '*/*' },
  });
  return {
    status: res.status,
    contentType: res.headers.get('content-type') ?? '',
    body: res.body,
    url: res.url,
    fileName: fileNameOf(res.headers.get('content-disposition')),
  };
}
