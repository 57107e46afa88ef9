/**
 * Which targets an outbound request may reach. Every address the host name resolves to is judged; the
 * request then connects only to the addresses that passed (see `pinnedLookup`), so a resolver that
 * answers differently the second time (DNS rebinding) cannot swap the target after the check.
 *
 * LECTERN_SSRF_ALLOW lets an operator reach internal targets: host names (`ollama.lan`, `*.corp.example`),
 * IP addresses (`10.0.0.7`, `::1`) and CIDR ranges (`192.168.0.0/16`, `fd00::/8`).
 */
import dns from 'node:dns';
import {
  blockedKind,
  cidrContains,
  embeddedIpv4,
  formatIp,
  looksLikeIpv4,
  parseCidr,
  parseIp,
  type BlockedKind,
  type Cidr,
  type Ip,
} from './ip.js';
import { OutboundError } from './errors.js';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Host name → its addresses. The default asks the system resolver (getaddrinfo, /etc/hosts included). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export interface AllowList {
  hosts: ReadonlySet<string>;
  /** `*.corp.example` entries, stored as `.corp.example`. */
  suffixes: readonly string[];
  ranges: readonly Cidr[];
}

export interface OutboundPolicy {
  allow: AllowList;
  /** ALLOW_PRIVATE_FETCH=1 (deprecated): every private/local target is allowed, cloud metadata still is not. */
  allowAllPrivate: boolean;
  resolve: Resolver;
}

/** A target that passed: the connection must go to one of `addresses` and nowhere else. */
export interface CheckedTarget {
  hostname: string;
  addresses: ResolvedAddress[];
}

export const systemResolver: Resolver = async (hostname) => {
  const list = await dns.promises.lookup(hostname, { all: true, verbatim: true });
  return list.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

/** Lower case, no brackets, no trailing dots: the form names and allow-list entries are compared in. */
export function normalizeHost(host: string): string {
  return host
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.+$/, '');
}

const METADATA_HOSTS = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'instance-data',
  'instance-data.ec2.internal',
  'metadata.tencentyun.com',
  'metadata.platformequinix.com',
]);

function isLocalhostName(host: string): boolean {
  return host === 'localhost' || host.endsWith('.localhost') || host === 'localhost.localdomain';
}

/** Parses LECTERN_SSRF_ALLOW; throws with the offending entry when one is neither a host, an IP nor a CIDR. */
export function parseAllowList(raw: string | undefined): AllowList {
  const hosts = new Set<string>();
  const suffixes: string[] = [];
  const ranges: Cidr[] = [];
  for (const entry of (raw ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const cidr = entry.includes('/') || parseIp(entry) ? parseCidr(entry) : null;
    if (cidr) {
      ranges.push(cidr);
      continue;
    }
    const host = normalizeHost(entry);
    if (host.startsWith('*.') && /^[a-z0-9.-]+$/.test(host.slice(2))) suffixes.push(host.slice(1));
    else if (/^[a-z0-9_.-]+$/.test(host) && !looksLikeIpv4(host)) hosts.add(host);
    else throw new Error(`"${entry}" is not a host name, an IP address or a CIDR range`);
  }
  return { hosts, suffixes, ranges };
}

export function createPolicy(opts: {
  ssrfAllow?: string | AllowList;
  allowAllPrivate?: boolean;
  resolve?: Resolver;
}): OutboundPolicy {
  return {
    allow: typeof opts.ssrfAllow === 'object' ? opts.ssrfAllow : parseAllowList(opts.ssrfAllow),
    allowAllPrivate: opts.allowAllPrivate ?? false,
    resolve: opts.resolve ?? systemResolver,
  };
}

function hostAllowed(allow: AllowList, host: string): boolean {
  return allow.hosts.has(host) || allow.suffixes.some((s) => host.endsWith(s));
}

function ipAllowed(allow: AllowList, ip: Ip): boolean {
  const inner = embeddedIpv4(ip);
  return allow.ranges.some((r) => cidrContains(r, ip) || (inner !== null && cidrContains(r, inner)));
}

const KIND_WORDS: Record<BlockedKind, string> = {
  loopback: 'private or local',
  private: 'private or local',
  'link-local': 'private or local',
  'unique-local': 'private or local',
  unspecified: 'private or local',
  'carrier-grade NAT': 'private or local',
  multicast: 'multicast',
  reserved: 'reserved',
  'cloud metadata': 'cloud metadata',
};

export function blockedMessage(kind: BlockedKind, shown: string): string {
  return `The URL points to a ${KIND_WORDS[kind]} address (${shown}); set LECTERN_SSRF_ALLOW to allow it.`;
}

/**
 * Resolves `rawHost` (as found in a URL) and keeps the addresses the policy allows. Throws
 * OutboundError('blocked') when none is left, ('dns') when the name does not resolve.
 */
export async function checkHost(policy: OutboundPolicy, rawHost: string): Promise<CheckedTarget> {
  const host = normalizeHost(rawHost);
  if (!host) throw new OutboundError('invalid_url', 'The URL has no host name.');
  const named = hostAllowed(policy.allow, host);
  const literal = parseIp(host);
  if (!literal && looksLikeIpv4(host))
    throw new OutboundError('invalid_url', `"${rawHost}" is not a valid address.`);
  if (!literal && METADATA_HOSTS.has(host) && !named)
    throw new OutboundError('blocked', blockedMessage('cloud metadata', host));

  let candidates: ResolvedAddress[];
  if (literal) candidates = [{ address: formatIp(literal), family: literal.family }];
  else if (isLocalhostName(host))
    // RFC 6761: localhost names are loopback whatever a resolver says.
    candidates = [
      { address: '127.0.0.1', family: 4 },
      { address: '::1', family: 6 },
    ];
  else {
    try {
      candidates = await policy.resolve(host);
    } catch (err) {
      throw new OutboundError('dns', `The host name ${host} could not be resolved.`, { cause: err });
    }
    if (candidates.length === 0)
      throw new OutboundError('dns', `The host name ${host} could not be resolved.`);
  }

  const usable: ResolvedAddress[] = [];
  let refusal: { kind: BlockedKind; ip: Ip } | null = null;
  for (const c of candidates) {
    const ip = parseIp(c.address);
    if (!ip) continue;
    const kind = blockedKind(ip);
    const ok =
      kind === null ||
      ipAllowed(policy.allow, ip) ||
      (kind === 'cloud metadata' ? named && METADATA_HOSTS.has(host) : named || policy.allowAllPrivate);
    if (ok) usable.push({ address: formatIp(ip), family: ip.family });
    else refusal ??= { kind: kind as BlockedKind, ip };
  }
  if (usable.length === 0) {
    const addr = refusal ? formatIp(refusal.ip) : host;
    const shown = literal || !refusal ? addr : `${host} → ${addr}`;
    throw new OutboundError('blocked', blockedMessage(refusal?.kind ?? 'reserved', shown));
  }
  return { hostname: host, addresses: usable };
}
