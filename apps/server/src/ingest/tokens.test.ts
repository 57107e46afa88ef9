import { describe, expect, it } from 'vitest';
import { encode } from 'gpt-tokenizer/encoding/cl100k_base';
import { countTokens, encodeTokens, tailTokens, truncateTokens } from './tokens.js';

describe('cl100k token counting', () => {
  it('gives the known cl100k counts', () => {
    expect(countTokens('')).toBe(0);
    expect(countTokens('hello world')).toBe(2);
    expect(countTokens('The quick brown fox jumps over the lazy dog.')).toBe(10);
    expect(countTokens('tiktoken is great!')).toBe(6);
    expect(countTokens('你好，世界')).toBe(6);
    expect(encodeTokens('hello world')).toEqual([15339, 1917]);
  });

  it('treats special-token markers in user text as plain text instead of throwing', () => {
    expect(countTokens('<|endoftext|>')).toBe(7);
    expect(countTokens('before <|endoftext|> after')).toBeGreaterThan(7);
  });

  it('is exact on ordinary long text', () => {
    const normal = 'The quick brown fox jumps over the lazy dog. '.repeat(5000);
    expect(countTokens(normal)).toBe(encode(normal).length);
    expect(countTokens(normal)).toBe(50001);
  });

  it('counts pathological whitespace-free runs fast and within a few percent', () => {
    // One 200k-letter pre-token takes ~20 s in plain BPE; the fast path slices it.
    const run = 'abcdefghij'.repeat(20_000);
    const started = performance.now();
    const n = countTokens(run);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(n).toBeGreaterThanOrEqual(40_000);
    expect(n).toBeLessThan(42_000);
    const zh = '中华人民共和国'.repeat(3000);
    expect(countTokens(zh)).toBe(21_000);
  });

  it('truncates to a prefix and takes a suffix of at most N tokens', () => {
    const s = 'The quick brown fox jumps over the lazy dog.';
    expect(truncateTokens(s, 4)).toBe('The quick brown fox');
    expect(truncateTokens(s, 100)).toBe(s);
    expect(truncateTokens(s, 0)).toBe('');
    expect(tailTokens(s, 3)).toBe(' lazy dog.');
    expect(tailTokens(s, 100)).toBe(s);
    // A cut inside a multi-token character leaves no replacement character behind.
    expect(truncateTokens('你好，世界', 2)).toBe('你好');
    const long = 'word '.repeat(100_000);
    const head = truncateTokens(long, 1000);
    expect(long.startsWith(head)).toBe(true);
    expect(countTokens(head)).toBe(1000);
  });
});
