import { describe, expect, it } from 'vitest';
import { deflatedZeros, rawZip } from '../../../test/fixtures/office/ooxml-builders.js';
import { ZipArchive } from './zip.js';

const limits = { maxTotalBytes: 1000, maxEntries: 10 };

describe('ZipArchive', () => {
  it('reads stored and deflated entries case-insensitively and verifies their checksums', () => {
    const zip = ZipArchive.open(
      rawZip([
        { name: 'Word/Document.xml', data: Buffer.from('<doc/>') },
        { name: 'media/a.bin', data: Buffer.from('raw bytes'), stored: true },
      ]),
      'DOCX file',
    );
    expect(zip.names()).toEqual(['Word/Document.xml', 'media/a.bin']);
    expect(zip.read('word/document.xml')?.toString()).toBe('<doc/>');
    expect(zip.read('/media/a.bin')?.toString()).toBe('raw bytes');
    expect(zip.read('missing.xml')).toBeNull();
    const bad = ZipArchive.open(
      rawZip([{ name: 'a.xml', data: Buffer.from('hello'), crc: 1234 }]),
      'DOCX file',
    );
    expect(() => bad.read('a.xml')).toThrow(
      'The DOCX file is damaged: the entry "a.xml" fails its checksum.',
    );
  });

  it('opens a large archive that does not expand suspiciously, then caps what is actually read', () => {
    const zip = ZipArchive.open(
      rawZip([
        { name: 'a.bin', data: Buffer.alloc(800, 1), stored: true },
        { name: 'b.bin', data: Buffer.alloc(800, 2), stored: true },
      ]),
      'PPTX file',
      limits,
    );
    expect(zip.read('a.bin')?.length).toBe(800);
    expect(() => zip.read('b.bin')).toThrow(
      'The PPTX file would unpack to more than 1 KB (the limit); it may be a decompression bomb.',
    );
  });

  it('refuses bombs: by ratio at open, by budget before inflating, and while inflating a lying entry', () => {
    const ratioBomb = rawZip([
      { name: 'x.xml', data: Buffer.alloc(0), declaredSize: 5 * 1024 * 1024, compressed: deflatedZeros(5) },
    ]);
    expect(() =>
      ZipArchive.open(ratioBomb, 'XLSX file', { maxTotalBytes: 1024 * 1024, maxEntries: 10 }),
    ).toThrow('The XLSX file would unpack to more than 1 MB (the limit); it may be a decompression bomb.');
    const liar = ZipArchive.open(
      rawZip([{ name: 'x.xml', data: Buffer.alloc(0), declaredSize: 10, compressed: deflatedZeros(2) }]),
      'XLSX file',
    );
    expect(() => liar.read('x.xml')).toThrow(
      'inflates beyond its declared size of 10 bytes (limit exceeded)',
    );
  });

  it('refuses too many entries, encrypted entries, truncation and non-zip bytes', () => {
    const many = rawZip(Array.from({ length: 11 }, (_, i) => ({ name: `f${i}`, data: Buffer.from('x') })));
    expect(() => ZipArchive.open(many, 'DOCX file', limits)).toThrow(
      'The DOCX file contains 11 archive entries, more than the limit of 10; it may be a decompression bomb.',
    );
    const enc = ZipArchive.open(rawZip([{ name: 'a', data: Buffer.from('x'), flags: 1 }]), 'DOCX file');
    expect(() => enc.read('a')).toThrow(
      'The DOCX file is password-protected (encrypted); remove the password and upload it again.',
    );
    const ok = rawZip([{ name: 'a', data: Buffer.from('hello world') }]);
    expect(() => ZipArchive.open(ok.subarray(0, ok.length - 5), 'DOCX file')).toThrow(
      'The DOCX file is damaged: the zip directory is missing (the file may be truncated).',
    );
    expect(() => ZipArchive.open(Buffer.from('not a zip at all, just some text'), 'DOCX file')).toThrow(
      'This is not a valid DOCX file (it is not a zip archive).',
    );
  });
});
