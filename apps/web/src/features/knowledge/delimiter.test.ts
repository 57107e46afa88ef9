import { describe, expect, it } from 'vitest';
import { readDelimiter, showDelimiter } from './delimiter';

describe('delimiter text box', () => {
  it('shows control characters as escapes', () => {
    expect(showDelimiter('\n')).toBe('\\n');
    expect(showDelimiter('\n!?;。；！？')).toBe('\\n!?;。；！？');
    expect(showDelimiter('\t`##`')).toBe('\\t`##`');
    expect(showDelimiter(undefined)).toBe('');
  });

  it('reads escapes back and round-trips any value', () => {
    expect(readDelimiter('\\n')).toBe('\n');
    expect(readDelimiter('\\n`##`')).toBe('\n`##`');
    for (const v of ['\n', 'a\\nb', '\\', '\r\n\t;', '`---`'])
      expect(readDelimiter(showDelimiter(v))).toBe(v);
  });
});
