import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { writeCfb } from '../../test/fixtures/office/cfb-writer.js';
import { png } from '../../test/fixtures/office/ooxml-builders.js';
import {
  contentMatches,
  documentTypeOf,
  extensionOf,
  isAllowedUpload,
  sniffMismatch,
  UPLOAD_EXTENSIONS,
} from './file-types.js';

describe('file types', () => {
  it('maps extensions to document types (API.md §12.3), case-insensitively, from names or bare extensions', () => {
    expect(documentTypeOf('Report.PDF')).toBe('pdf');
    expect(documentTypeOf('pdf')).toBe('pdf');
    for (const n of [
      'a.docx',
      'a.xls',
      'a.csv',
      'a.md',
      'a.mdx',
      'a.eml',
      'a.msg',
      'a.kt',
      'a.sql',
      'a.jsonl',
      'a.pages',
    ]) {
      expect(documentTypeOf(n)).toBe('doc');
    }
    for (const n of ['a.png', 'a.JPG', 'a.bmp', 'a.tiff', 'a.mp4', 'a.svg'])
      expect(documentTypeOf(n)).toBe('visual');
    for (const n of ['a.mp3', 'a.opus', 'a.wav']) expect(documentTypeOf(n)).toBe('aural');
    for (const n of ['a.exe', 'a.zip', 'noext', 'a.', '.hidden']) expect(documentTypeOf(n)).toBe('other');
    expect(extensionOf('dir.v2/archive.tar.GZ')).toBe('gz');
    expect(isAllowedUpload('slides.pptx')).toBe(true);
    expect(isAllowedUpload('xlsx')).toBe(true);
    expect(isAllowedUpload('virus.exe')).toBe(false);
    expect(UPLOAD_EXTENSIONS.has('other')).toBe(false);
  });

  it('accepts content that matches the extension', async () => {
    const zip = await new JSZip().file('a.txt', 'x').generateAsync({ type: 'nodebuffer' });
    const cfb = writeCfb([{ path: 'WordDocument', data: Buffer.alloc(10) }]);
    expect(sniffMismatch(Buffer.from('%PDF-1.7\n...'), 'pdf')).toBeNull();
    expect(sniffMismatch(zip, 'docx')).toBeNull();
    expect(sniffMismatch(cfb, 'xlsx')).toBeNull(); // password-protected OOXML
    expect(sniffMismatch(cfb, 'doc')).toBeNull();
    expect(sniffMismatch(Buffer.from('{\\rtf1 hello}'), 'doc')).toBeNull();
    expect(sniffMismatch(Buffer.from('a\tb\n'), 'xls')).toBeNull();
    expect(sniffMismatch(await png(2, 2), 'png')).toBeNull();
    expect(sniffMismatch(Buffer.from('MZ is a fine way to start a text'), 'txt')).toBeNull();
    expect(
      sniffMismatch(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('hi', 'utf16le')]), 'csv'),
    ).toBeNull();
    expect(sniffMismatch(Buffer.alloc(0), 'pdf')).toBeNull();
    expect(sniffMismatch(Buffer.from('anything'), 'wav')).toBeNull();
    expect(contentMatches(zip, 'pptx')).toBe(true);
  });

  it('explains content that contradicts the extension', async () => {
    const zip = await new JSZip().file('a.txt', 'x').generateAsync({ type: 'nodebuffer' });
    expect(sniffMismatch(Buffer.from('hello'), 'docx')).toBe(
      'The content of this .docx file is not a zip archive.',
    );
    expect(sniffMismatch(Buffer.from('%PDF-1.4 x'), 'xlsx')).toBe(
      'The content of this .xlsx file is not a zip archive; it looks like a PDF document.',
    );
    expect(sniffMismatch(zip, 'pdf')).toBe(
      'The content of this .pdf file is not a PDF document; it looks like a ZIP archive (e.g. DOCX/XLSX/PPTX).',
    );
    expect(sniffMismatch(await png(2, 2), 'jpg')).toBe(
      'The content of this .jpg file is not a JPEG image; it looks like a PNG image.',
    );
    expect(sniffMismatch(zip, 'txt')).toBe(
      'The content of this .txt file is not text; it looks like a ZIP archive (e.g. DOCX/XLSX/PPTX).',
    );
    expect(sniffMismatch(Buffer.from([1, 2, 0, 4, 5]), 'json')).toBe(
      'The content of this .json file is not text.',
    );
    expect(sniffMismatch(Buffer.from('text'), 'msg')).toBe(
      'The content of this .msg file is not an OLE2 compound file.',
    );
    expect(contentMatches(Buffer.from('text'), 'pdf')).toBe(false);
  });
});
