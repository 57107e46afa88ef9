/**
 * IP addresses as bytes: parsing every spelling a URL or a resolver can produce, CIDR ranges, and the
 * special-purpose ranges (IANA registries) that an outbound request on a user's behalf must not reach.
 * Numbers are compared as bytes, never as text, so `127.1`, `0x7f.1`, `2130706433`, `[::ffff:7f00:1]`
 * and `[::127.0.0.1]` all land on the same 127.0.0.1.
 */
import net from 'node:net';

export interface Ip {
  family: 4 | 6;
  /** 4 bytes for IPv4, 16 for IPv6. */
  bytes: Uint8Array;
}

export interface Cidr {
  ip: Ip;
  prefix: number;
}

/** One IPv4 part as inet_aton/WHATWG read it: 0x… hex, 0… octal, else decimal. */
function ipv4Part(part: string): number | null {
  if (/^0x[0-9a-f]*$/i.test(part)) return part.length === 2 ? 0 : parseInt(part.slice(2), 16);
  if (/^0[0-7]+$/.test(part)) return parseInt(part.slice(1), 8);
  if (/^(0|[1-9][0-9]*)$/.test(part)) return Number(part);
  return null;
}

/** IPv4 in any inet_aton spelling: `127.0.0.1`, `127.1`, `2130706433`, `0177.0.0.1`, `0x7f.1`, `127.0.0.1.`. */
export function parseIpv4(text: string): Ip | null {
  const parts = text.split('.');
  if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  if (parts.length < 1 || parts.length > 4) return null;
  const values: number[] = [];
  for (const p of parts) {
    const v = ipv4Part(p);
    if (v === null || !Number.isFinite(v)) return null;
    values.push(v);
  }
  const last = values.pop() as number;
  if (values.some((v) => v > 255)) return null;
  if (last >= 256 ** (4 - values.length)) return null;
  let n = last;
  values.forEach((v, i) => (n += v * 256 ** (3 - i)));
  return { family: 4, bytes: new Uint8Array([n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]) };
}

/** True when a host name's last label is numeric, so it can only be meant as an IPv4 address. */
export function looksLikeIpv4(host: string): boolean {
  const labels = host.replace(/\.$/, '').split('.');
  return /^(0x[0-9a-f]*|[0-9]+)$/i.test(labels[labels.length - 1] ?? '');
}

export function parseIpv6(text: string): Ip | null {
  const bare = text.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (!net.isIPv6(bare)) return null;
  let head = bare;
  const tail: number[] = [];
  const dotted = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(bare);
  if (dotted) {
    const v4 = parseIpv4(dotted[2]);
    if (!v4) return null;
    head = dotted[1].endsWith('::') ? dotted[1] : dotted[1].slice(0, -1);
    tail.push((v4.bytes[0] << 8) | v4.bytes[1], (v4.bytes[2] << 8) | v4.bytes[3]);
  }
  const [left, right] = head.includes('::') ? head.split('::') : [head, undefined];
  const groups = (s: string | undefined) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const l = groups(left);
  const r = [...groups(right), ...tail];
  const fill = right === undefined ? [] : new Array<number>(8 - l.length - r.length).fill(0);
  const all = right === undefined ? [...l, ...tail] : [...l, ...fill, ...r];
  if (all.length !== 8) return null;
  const bytes = new Uint8Array(16);
  all.forEach((g, i) => {
    bytes[2 * i] = g >> 8;
    bytes[2 * i + 1] = g & 255;
  });
  return { family: 6, bytes };
}

/** An IP literal in any spelling (IPv6 with or without brackets), else null. */
export function parseIp(text: string): Ip | null {
  const t = text.trim().toLowerCase();
  if (t.includes(':')) return parseIpv6(t);
  return parseIpv4(t);
}

export function formatIp(ip: Ip): string {
  if (ip.family === 4) return Array.from(ip.bytes).join('.');
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((ip.bytes[i] << 8) | ip.bytes[i + 1]).toString(16));
  // Compress the longest run of zero groups (RFC 5952).
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8;) {
    if (groups[i] !== '0') {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === '0') j++;
    if (j - i > bestLen) {
      best = i;
      bestLen = j - i;
    }
    i = j;
  }
  if (best < 0) return groups.join(':');
  return `${groups.slice(0, best).join(':')}::${groups.slice(best + bestLen).join(':')}`;
}

export function parseCidr(text: string): Cidr | null {
  const [addr, bits, extra] = text.trim().split('/');
  if (extra !== undefined) return null;
  const ip = parseIp(addr);
  if (!ip) return null;
  const max = ip.family === 4 ? 32 : 128;
  if (bits === undefined) return { ip, prefix: max };
  if (!/^\d+$/.test(bits) || Number(bits) > max) return null;
  return { ip, prefix: Number(bits) };
}

export function cidrContains(range: Cidr, ip: Ip): boolean {
  if (range.ip.family !== ip.family) return false;
  let bits = range.prefix;
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((range.ip.bytes[i] & mask) !== (ip.bytes[i] & mask)) return false;
  }
  return true;
}

function v4(a: number, b: number, c: number, d: number): Ip {
  return { family: 4, bytes: new Uint8Array([a, b, c, d]) };
}

function prefixIs(ip: Ip, prefix: number[]): boolean {
  return prefix.every((b, i) => ip.bytes[i] === b);
}

/**
 * The IPv4 address an IPv6 address carries and that a dual-stack socket or a translator would reach:
 * IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d), NAT64 (64:ff9b::/96, 64:ff9b:1::/48),
 * 6to4 (2002:aabb:ccdd::/48) and Teredo (2001:0::/32, client address inverted).
 */
export function embeddedIpv4(ip: Ip): Ip | null {
  if (ip.family !== 6) return null;
  const b = ip.bytes;
  const last4 = (xor = 0) => v4(b[12] ^ xor, b[13] ^ xor, b[14] ^ xor, b[15] ^ xor);
  const zeros = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  if (zeros(0, 10) && b[10] === 0xff && b[11] === 0xff) return last4();
  // ::/96 minus :: and ::1, which are IPv6's own unspecified and loopback addresses.
  if (zeros(0, 12) && !(zeros(12, 15) && b[15] <= 1)) return last4();
  if (prefixIs(ip, [0, 0x64, 0xff, 0x9b]) && zeros(4, 12)) return last4();
  if (prefixIs(ip, [0, 0x64, 0xff, 0x9b, 0, 1])) return last4();
  if (prefixIs(ip, [0x20, 0x02])) return v4(b[2], b[3], b[4], b[5]);
  if (prefixIs(ip, [0x20, 0x01, 0, 0])) return last4(0xff);
  return null;
}

/** Why an address must not be reached, or null for an ordinary public address. */
export type BlockedKind =
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'unique-local'
  | 'multicast'
  | 'unspecified'
  | 'carrier-grade NAT'
  | 'reserved'
  | 'cloud metadata';

const V4_RANGES: Array<[string, BlockedKind]> = [
  ['169.254.169.254/32', 'cloud metadata'], // AWS, GCP, Azure, OpenStack…
  ['100.100.100.200/32', 'cloud metadata'], // Alibaba Cloud
  ['192.0.0.192/32', 'cloud metadata'], // Oracle Cloud
  ['0.0.0.0/8', 'unspecified'],
  ['10.0.0.0/8', 'private'],
  ['100.64.0.0/10', 'carrier-grade NAT'],
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'link-local'],
  ['172.16.0.0/12', 'private'],
  ['192.0.0.0/24', 'reserved'],
  ['192.0.2.0/24', 'reserved'],
  ['192.88.99.0/24', 'reserved'],
  ['192.168.0.0/16', 'private'],
  ['198.18.0.0/15', 'reserved'],
  ['198.51.100.0/24', 'reserved'],
  ['203.0.113.0/24', 'reserved'],
  ['224.0.0.0/4', 'multicast'],
  ['240.0.0.0/4', 'reserved'],
];

const V6_RANGES: Array<[string, BlockedKind]> = [
  ['fd00:ec2::254/128', 'cloud metadata'], // AWS IMDS over IPv6
  ['::/128', 'unspecified'],
  ['::1/128', 'loopback'],
  ['fe80::/10', 'link-local'],
  ['fec0::/10', 'private'], // deprecated site-local
  ['fc00::/7', 'unique-local'],
  ['ff00::/8', 'multicast'],
  ['100::/64', 'reserved'],
  ['2001::/23', 'reserved'], // IETF protocol assignments: Teredo, benchmarking, ORCHID…
  ['2001:db8::/32', 'reserved'],
  ['3fff::/20', 'reserved'],
];

const TABLE = [...V4_RANGES, ...V6_RANGES].map(([c, kind]) => ({ range: parseCidr(c) as Cidr, kind }));
const GLOBAL_UNICAST_V6 = parseCidr('2000::/3') as Cidr;

export function blockedKind(ip: Ip): BlockedKind | null {
  const inner = embeddedIpv4(ip);
  if (inner) {
    const kind = blockedKind(inner);
    if (kind) return kind;
  }
  for (const { range, kind } of TABLE) if (cidrContains(range, ip)) return kind;
  // IPv4-mapped/compatible forms of a public IPv4 address reach that address: judged above.
  if (ip.family === 6 && !inner && !cidrContains(GLOBAL_UNICAST_V6, ip)) return 'reserved';
  return null;
}
