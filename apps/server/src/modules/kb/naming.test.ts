import { describe, expect, it } from 'vitest';
import { extensionOf, sanitizeFileName, uniqueName, utf8Bytes } from './naming.js';

describe('names', () => {
  it('suffixes duplicates before the extension and counts on from an existing (n)', () => {
    expect(uniqueName('a.txt', [], true)).toBe('a.txt');
    expect(uniqueName('a.txt', ['A.TXT'], true)).toBe('a(1).txt');
    expect(uniqueName('a.txt', ['a.txt', 'a(1).txt'], true)).toBe('a(2).txt');
    expect(uniqueName('a(3).txt', ['a(3).txt'], true)).toBe('a(4).txt');
    expect(uniqueName('notes', ['notes'], true)).toBe('notes(1)');
    expect(uniqueName('v1.2 report', ['v1.2 report'], false)).toBe('v1.2 report(1)');
  });

  it('keeps only the last path segment without control characters', () => {
    expect(sanitizeFileName('../../etc/passwd.txt')).toBe('passwd.txt');
    expect(sanitizeFileName('C:\\Users\\me\\a b.pdf')).toBe('a b.pdf');
    expect(sanitizeFileName('bad\u0000na\u001fme.md')).toBe('badname.md');
    expect(sanitizeFileName('..')).toBe('');
    expect(extensionOf('Report.PDF')).toBe('pdf');
    expect(extensionOf('.bashrc')).toBe('');
    expect(utf8Bytes('知')).toBe(3);
  });
});
