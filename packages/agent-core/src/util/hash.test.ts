import { describe, expect, it } from 'vitest';
import { hashToInt, sha1Hex } from './hash.js';

describe('sha1 / hash_str2int', () => {
  it('matches known SHA-1 digests', () => {
    expect(sha1Hex('')).toBe('da39a3ee5e6b4b0d3255bfef95601890afd80709');
    expect(sha1Hex('abc')).toBe('a9993e364706816aba3e25717850c26c9cd0d89d');
    expect(sha1Hex('The quick brown fox jumps over the lazy dog')).toBe(
      '2fd4e1c67a2d28fced849ee1bb76e7391b93eb12',
    );
    expect(sha1Hex('a'.repeat(1000))).toBe('291e9a6c66994949b57ba5e650361e98fc36b1ba');
  });

  it('reduces the digest modulo n like int(hexdigest, 16) % n', () => {
    // int('a9993e364706816aba3e25717850c26c9cd0d89d', 16) % 500 computed with BigInt
    expect(hashToInt('abc', 500)).toBe(Number(BigInt('0xa9993e364706816aba3e25717850c26c9cd0d89d') % 500n));
    expect(hashToInt('chunk-1', 10 ** 8)).toBe(Number(BigInt(`0x${sha1Hex('chunk-1')}`) % 100000000n));
  });
});
