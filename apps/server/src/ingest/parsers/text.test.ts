import { describe, expect, it } from 'vitest';
import { parseText } from './text.js';

describe('parseText', () => {
  it('splits plain text into paragraphs, keeping tabs and line breaks inside them', async () => {
    const doc = await parseText(Buffer.from('Title line\nsecond line\n\n  \nQ1\tA1\r\nQ2\tA2\n\n\nlast'), {
      ext: 'txt',
      fileName: 'a.txt',
    });
    expect(doc.sections).toEqual([
      { kind: 'text', text: 'Title line\nsecond line' },
      { kind: 'text', text: 'Q1\tA1\nQ2\tA2' },
      { kind: 'text', text: 'last' },
    ]);
    expect(doc.notes).toBeUndefined();
  });

  it('splits a huge paragraph at line ends only', async () => {
    const line = 'x'.repeat(999);
    const doc = await parseText(Buffer.from(Array.from({ length: 10 }, () => line).join('\n')), {
      ext: 'txt',
      fileName: 'a.txt',
    });
    expect(doc.sections.map((s) => s.text.split('\n').length)).toEqual([4, 4, 2]);
    expect(doc.sections.every((s) => s.text.split('\n').every((l) => l === line))).toBe(true);
  });

  it('decodes UTF-16 (BOM), GB18030 and Latin-1 and says so', async () => {
    const utf16 = Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from('héllo 世界', 'utf16le').swap16()]);
    expect((await parseText(utf16, { ext: 'txt', fileName: 'a.txt' })).sections[0].text).toBe('héllo 世界');
    const gb = Buffer.from([0xc4, 0xe3, 0xba, 0xc3, 0xa3, 0xac, 0xca, 0xc0, 0xbd, 0xe7]);
    const g = await parseText(gb, { ext: 'txt', fileName: 'a.txt' });
    expect(g.sections[0].text).toBe('你好，世界');
    expect(g.notes).toEqual(['Text decoded as gb18030.']);
    const latin = Buffer.from('caf\xe9 na\xefve r\xe9sum\xe9', 'latin1');
    const l = await parseText(latin, { ext: 'txt', fileName: 'a.txt' });
    expect(l.sections[0].text).toBe('café naïve résumé');
    expect(l.notes).toEqual(['Text decoded as windows-1252.']);
  });

  it('keeps source code as code blocks with the language, never splitting a block', async () => {
    const src = 'import os\n\n\ndef a():\n    return 1\n\n    # still a\n\nclass B:\n    pass\n';
    const doc = await parseText(Buffer.from(src), { ext: 'py', fileName: 'a.py' });
    expect(doc.sections).toEqual([
      {
        kind: 'code',
        text: 'import os\n\ndef a():\n    return 1\n\n    # still a\n\nclass B:\n    pass',
        fields: { language: 'python' },
      },
    ]);
    const many = Array.from({ length: 30 }, (_, i) => `int f${i}() {\n  return ${i};\n}`).join('\n\n');
    const c = await parseText(Buffer.from(many), { ext: 'c', fileName: 'a.c' });
    expect(c.sections.length).toBeGreaterThan(1);
    for (const s of c.sections) {
      expect(s.kind).toBe('code');
      expect(s.text.split('\n').length).toBeLessThanOrEqual(60);
      expect(s.text.startsWith('int f')).toBe(true);
      expect(s.text.endsWith('}')).toBe(true);
    }
    expect(c.sections.map((s) => s.text).join('\n\n')).toBe(many);
  });

  it('refuses empty and binary files', async () => {
    await expect(parseText(Buffer.alloc(0), { ext: 'txt', fileName: 'a.txt' })).rejects.toThrow(
      'The file is empty.',
    );
    await expect(
      parseText(Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 0]), { ext: 'go', fileName: 'a.go' }),
    ).rejects.toThrow(
      'The GO file does not contain text (it looks like binary data); check the file and its extension.',
    );
  });
});
