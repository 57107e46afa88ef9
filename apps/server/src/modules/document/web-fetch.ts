/**
 * Fetching a URL a user gave us (web_crawl, parse by URL) without letting it reach the server's own
 * network: loopback, private, link-local, CGNAT and multicast addresses are refused unless
 * ALLOW_PRIVATE_FETCH is set. The check runs on the address actually connected to (a DNS lookup
 * hook), so a name that re-resolves to a private address is refused too. Redirects are followed (up
 * to 5, each checked), the body is capped and the whole fetch has a time limit.
 */
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';

export class FetchRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FetchRefused';
  }
}

export interface FetchedPage {
  status: number;
  contentType: string;
  body: Buffer;
  url: string;
  /** File name from Content-Disposition, when the server gave one. */
  fileName: string | null;
}

function ipv4Private(ip: string): boolean {
  const [a, b] = ip.split('.').map(Number);
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 198 && (b === 18 || b === 19)) ||
    a >= 224
  );
}

/** True for addresses that belong to this machine or its private networks. */
export function isPrivateAddress(ip: string): boolean {
  if (net.isIPv4(ip)) return ipv4Private(ip);
  const v6 = ip.toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(v6);
  if (mapped) return ipv4Private(mapped[1]);
  return (
    v6 === '::' ||
    v6 === '::1' ||
    v6.startsWith('fc') ||
    v6.startsWith('fd') ||
    v6.startsWith('fe8') ||
    v6.startsWith('fe9') ||
    v6.startsWith('fea') ||
    v6.startsWith('feb') ||
    v6.startsWith('ff')
  );
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

const REFUSED = 'The address points to a private or local network, which this server does not fetch from.';

function guardedLookup(allowPrivate: boolean): net.LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 4);
      const list = addresses as dns.LookupAddress[];
      const usable = allowPrivate ? list : list.filter((a) => !isPrivateAddress(a.address));
      if (usable.length === 0) return callback(new FetchRefused(REFUSED), '', 4);
      if ((options as dns.LookupOptions).all)
        return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, usable);
      callback(null, usable[0].address, usable[0].family);
    });
  };
}

function once(url: URL, allowPrivate: boolean, maxBytes: number, signal: AbortSignal) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>(
    (resolve, reject) => {
      const host = url.hostname.replace(/^\[|\]$/g, '');
      if (net.isIP(host) && !allowPrivate && isPrivateAddress(host)) return reject(new FetchRefused(REFUSED));
      const lib = url.protocol === 'https:' ? https : http;
      const req = lib.request(
        url,
        {
          method: 'GET',
          lookup: guardedLookup(allowPrivate),
          signal,
          headers: { 'user-agent': 'Lectern/1.0 (+web crawl)', accept: '*/*' },
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (c: Buffer) => {
            size += c.length;
            if (size > maxBytes) {
              req.destroy(new FetchRefused('The page is larger than the upload size limit.'));
              return;
            }
            chunks.push(c);
          });
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
          );
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end();
    },
  );
}

function fileNameOf(disposition: string | undefined): string | null {
  if (!disposition) return null;
  const star = /filename\*=(?:UTF-8'')?([^;]+)/i.exec(disposition);
  if (star) return decodeURIComponent(star[1].trim().replace(/^"|"$/g, ''));
  const plain = /filename="?([^";]+)"?/i.exec(disposition);
  return plain ? plain[1].trim() : null;
}

export async function fetchUrl(
  raw: string,
  opts: { allowPrivate: boolean; maxBytes: number; timeoutMs: number },
): Promise<FetchedPage> {
  const signal = AbortSignal.timeout(opts.timeoutMs);
  let url = new URL(raw);
  for (let hop = 0; hop <= 5; hop++) {
    const res = await once(url, opts.allowPrivate, opts.maxBytes, signal);
    const location = res.headers.location;
    if (res.status >= 300 && res.status < 400 && location) {
      url = new URL(location, url);
      if (url.protocol !== 'http:' && url.protocol !== 'https:')
        throw new FetchRefused('The page redirects to an unsupported address.');
      continue;
    }
    return {
      status: res.status,
      contentType: String(res.headers['content-type'] ?? ''),
      body: res.body,
      url: url.toString(),
      fileName: fileNameOf(res.headers['content-disposition']),
    };
  }
  throw new FetchRefused('The page redirects too many times.');
}
