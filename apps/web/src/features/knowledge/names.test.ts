import { describe, expect, it } from 'vitest';
import { kbNameProblem, renamedDocument, splitExtension, utf8Bytes } from './names';

describe('knowledge-base names (≤ 128 UTF-8 bytes)', () => {
  it('counts UTF-8 bytes, not characters', () => {
    expect(utf8Bytes('abc')).toBe(3);
    expect(utf8Bytes('知识')).toBe(6);
    expect(utf8Bytes('😀')).toBe(4);
  });

  it('requires a name that is not blank', () => {
    expect(kbNameProblem('')).toBe('required');
    expect(kbNameProblem('   ')).toBe('required');
    expect(kbNameProblem(undefined)).toBe('required');
    expect(kbNameProblem('Manuals')).toBeNull();
  });

  it('accepts 128 bytes and refuses 129, also for multi-byte characters', () => {
    expect(kbNameProblem('a'.repeat(128))).toBeNull();
    expect(kbNameProblem('a'.repeat(129))).toBe('tooLong');
    // 43 Chinese characters = 129 bytes although only 43 characters.
    expect(kbNameProblem('知'.repeat(42))).toBeNull();
    expect(kbNameProblem('知'.repeat(43))).toBe('tooLong');
  });
});

describe('document rename (extension fixed)', () => {
  it('splits the extension off the name', () => {
    expect(splitExtension('report.final.pdf')).toEqual({ stem: 'report.final', ext: '.pdf' });
    expect(splitExtension('README')).toEqual({ stem: 'README', ext: '' });
    expect(splitExtension('.env')).toEqual({ stem: '.env', ext: '' });
  });

  it('keeps the extension and checks the name', () => {
    expect(renamedDocument('  summary ', '.docx')).toEqual({ name: 'summary.docx', problem: null });
    expect(renamedDocument(' ', '.docx').problem).toBe('required');
    expect(renamedDocument('x'.repeat(251), '.pdf').problem).toBeNull();
    expect(renamedDocument('x'.repeat(252), '.pdf').problem).toBe('tooLong');
  });
});
