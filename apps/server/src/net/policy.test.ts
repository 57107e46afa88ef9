import { describe, expect, it } from 'vitest';
import { blockedKind, formatIp, parseIp } from './ip.js';
import { outboundPolicyOf } from './index.js';
import { checkHost, createPolicy, parseAllowList, type Resolver } from './policy.js';

/** Every spelling below must come out as the address in the second column, and be refused. */
const LOOPBACK_SPELLINGS: Array<[string, string]> = [
  ['127.0.0.1', '127.0.0.1'],
  ['127.1', '127.0.0.1'],
  ['2130706433', '127.0.0.1'],
  ['0177.0.0.1', '127.0.0.1'],
  ['0x7f.1', '127.0.0.1'],
  ['0x7F000001', '127.0.0.1'],
  ['127.0.0.1.', '127.0.0.1'],
  ['[::ffff:127.0.0.1]', '::ffff:7f00:1'],
  ['[::ffff:7f00:1]', '::ffff:7f00:1'],
  ['[::127.0.0.1]', '::7f00:1'],
  ['[0:0:0:0:0:ffff:7f00:0001]', '::ffff:7f00:1'],
  ['[::1]', '::1'],
  ['[64:ff9b::7f00:1]', '64:ff9b::7f00:1'],
  ['[2002:7f00:1::]', '2002:7f00:1::'],
];

const noDns: Resolver = async (host) => {
  throw new Error(`unexpected DNS lookup of ${host}`);
};

describe('IP parsing', () => {
  it.each(LOOPBACK_SPELLINGS)('%s is %s', (spelling, canonical) => {
    const ip = parseIp(spelling.replace(/\.$/, ''));
    expect(ip && formatIp(ip)).toBe(canonical);
    expect(ip && blockedKind(ip)).toBe('loopback');
  });

  it('classifies the special-purpose ranges and leaves public addresses alone', () => {
    const kind = (s: string) => blockedKind(parseIp(s) as NonNullable<ReturnType<typeof parseIp>>);
    expect(kind('0.0.0.0')).toBe('unspecified');
    expect(kind('10.1.2.3')).toBe('private');
    expect(kind('172.31.255.1')).toBe('private');
    expect(kind('192.168.0.1')).toBe('private');
    expect(kind('100.64.0.1')).toBe('carrier-grade NAT');
    expect(kind('169.254.1.1')).toBe('link-local');
    expect(kind('169.254.169.254')).toBe('cloud metadata');
    expect(kind('100.100.100.200')).toBe('cloud metadata');
    expect(kind('fd00:ec2::254')).toBe('cloud metadata');
    expect(kind('::ffff:169.254.169.254')).toBe('cloud metadata');
    expect(kind('224.0.0.1')).toBe('multicast');
    expect(kind('ff02::1')).toBe('multicast');
    expect(kind('240.0.0.1')).toBe('reserved');
    expect(kind('255.255.255.255')).toBe('reserved');
    expect(kind('198.18.0.1')).toBe('reserved');
    expect(kind('::')).toBe('unspecified');
    expect(kind('fe80::1')).toBe('link-local');
    expect(kind('fc00::1')).toBe('unique-local');
    expect(kind('2001:db8::1')).toBe('reserved');
    expect(kind('::ffff:10.0.0.1')).toBe('private');
    expect(kind('8.8.8.8')).toBeNull();
    expect(kind('172.32.0.1')).toBeNull();
    expect(kind('2606:4700::1111')).toBeNull();
    expect(kind('::ffff:8.8.8.8')).toBeNull();
  });
});

describe('checkHost', () => {
  const strict = createPolicy({ resolve: noDns });

  it.each([
    ...LOOPBACK_SPELLINGS.map(([s]) => s),
    '0.0.0.0',
    'localhost',
    'localhost.',
    'LOCALHOST',
    'api.localhost',
    '[::]',
    '10.0.0.1',
    '169.254.169.254',
    '[fd00:ec2::254]',
  ])('refuses %s without a DNS lookup', async (host) => {
    await expect(checkHost(strict, host)).rejects.toMatchObject({
      kind: 'blocked',
      message: expect.stringMatching(
        /^The URL points to a .* address \(.+\); set LECTERN_SSRF_ALLOW to allow it\.$/,
      ),
    });
  });

  it('refuses cloud metadata host names by name', async () => {
    for (const host of ['metadata.google.internal', 'METADATA.GOOGLE.INTERNAL.', 'metadata.goog']) {
      await expect(checkHost(strict, host)).rejects.toMatchObject({
        kind: 'blocked',
        message: expect.stringContaining('cloud metadata'),
      });
    }
  });

  it('refuses a public name that resolves to a private address, and says which', async () => {
    const policy = createPolicy({ resolve: async () => [{ address: '10.0.0.5', family: 4 }] });
    await expect(checkHost(policy, 'intranet.example.com')).rejects.toThrow(
      'The URL points to a private or local address (intranet.example.com → 10.0.0.5); set LECTERN_SSRF_ALLOW to allow it.',
    );
    const mapped = createPolicy({ resolve: async () => [{ address: '::ffff:127.0.0.1', family: 6 }] });
    await expect(checkHost(mapped, 'sneaky.example.com')).rejects.toMatchObject({ kind: 'blocked' });
  });

  it('keeps only the allowed addresses of a mixed answer', async () => {
    const policy = createPolicy({
      resolve: async () => [
        { address: '127.0.0.1', family: 4 },
        { address: '93.184.216.34', family: 4 },
      ],
    });
    expect((await checkHost(policy, 'mixed.example.com')).addresses).toEqual([
      { address: '93.184.216.34', family: 4 },
    ]);
  });

  it('rejects a numeric host that is not an address', async () => {
    await expect(checkHost(strict, '1.2.3.4.5')).rejects.toMatchObject({ kind: 'invalid_url' });
    await expect(checkHost(strict, '0x1g.1')).rejects.toMatchObject({ kind: 'invalid_url' });
  });

  it('LECTERN_SSRF_ALLOW: host names, wildcard names, IPs and CIDRs (IPv4 and IPv6)', async () => {
    const resolve: Resolver = async (host) =>
      host === 'ollama.lan' || host === 'gpu.corp.example'
        ? [{ address: '192.168.1.20', family: 4 }]
        : [{ address: '10.9.9.9', family: 4 }];
    const policy = createPolicy({
      ssrfAllow: 'Ollama.LAN., *.corp.example, 127.0.0.1, 172.16.0.0/12, fd00:1234::/32, ::1',
      resolve,
    });
    expect((await checkHost(policy, 'ollama.lan')).addresses[0].address).toBe('192.168.1.20');
    expect((await checkHost(policy, 'gpu.corp.example')).addresses[0].address).toBe('192.168.1.20');
    expect((await checkHost(policy, '127.0.0.1')).addresses[0].address).toBe('127.0.0.1');
    expect((await checkHost(policy, '[::ffff:127.0.0.1]')).addresses[0].address).toBe('::ffff:7f00:1');
    expect((await checkHost(policy, '172.20.1.1')).addresses[0].address).toBe('172.20.1.1');
    expect((await checkHost(policy, '[fd00:1234::9]')).addresses[0].address).toBe('fd00:1234::9');
    expect((await checkHost(policy, 'localhost')).addresses).toEqual([
      { address: '127.0.0.1', family: 4 },
      { address: '::1', family: 6 },
    ]);
    // Outside the entries: still refused.
    await expect(checkHost(policy, '127.0.0.2')).rejects.toMatchObject({ kind: 'blocked' });
    await expect(checkHost(policy, '[fd00:1235::9]')).rejects.toMatchObject({ kind: 'blocked' });
    await expect(checkHost(policy, 'other.lan')).rejects.toMatchObject({ kind: 'blocked' });
    await expect(checkHost(policy, '169.254.169.254')).rejects.toMatchObject({ kind: 'blocked' });
  });

  it('ALLOW_PRIVATE_FETCH allows private targets but never cloud metadata', async () => {
    const policy = createPolicy({ allowAllPrivate: true, resolve: noDns });
    expect((await checkHost(policy, '10.0.0.1')).addresses[0].address).toBe('10.0.0.1');
    await expect(checkHost(policy, '169.254.169.254')).rejects.toThrow(/cloud metadata address/);
    const explicit = createPolicy({ ssrfAllow: '169.254.169.254', resolve: noDns });
    expect((await checkHost(explicit, '169.254.169.254')).addresses).toHaveLength(1);
  });

  it('refuses allow-list entries that are none of host, IP or CIDR', () => {
    expect(() => parseAllowList('10.0.0.0/33')).toThrow(/"10.0.0.0\/33" is not/);
    expect(() => parseAllowList('http://x')).toThrow(/is not a host name/);
    expect(() => parseAllowList('1.2.3.4.5')).toThrow(/is not a host name/);
    expect(parseAllowList(' a.example , ,10.0.0.0/8 ').hosts.has('a.example')).toBe(true);
    // The server refuses to start with a malformed LECTERN_SSRF_ALLOW (the composition root builds the policy).
    expect(() =>
      outboundPolicyOf({ ssrfAllow: 'ok.example, 300.1.2.3/8', allowPrivateFetch: false }),
    ).toThrow(
      'Invalid configuration:\n  LECTERN_SSRF_ALLOW: "300.1.2.3/8" is not a host name, an IP address or a CIDR range',
    );
  });
});
