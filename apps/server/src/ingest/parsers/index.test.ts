import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { writeCfb } from '../../../test/fixtures/office/cfb-writer.js';
import { buildDocx, buildPptx, para, textShape } from '../../../test/fixtures/office/ooxml-builders.js';
import { parseDocument, PARSEABLE_EXTENSIONS } from './index.js';

describe('parseDocument (dispatcher)', () => {
  it('routes each format by extension, case-insensitively', async () => {
    const docx = await buildDocx({ body: para('Hello from Word', 'Heading1') });
    expect((await parseDocument(docx, { ext: 'DOCX', fileName: 'a.DOCX' })).sections).toEqual([
      { kind: 'title', text: 'Hello from Word', level: 1 },
    ]);
    const pptx = await buildPptx([{ shapes: textShape(2, ['Slide text']) }]);
    expect((await parseDocument(pptx, { ext: 'pptx', fileName: 'a.pptx' })).pageCount).toBe(1);
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('Data').addRows([
      ['k', 'v'],
      ['a', 1],
    ]);
    const xlsx = Buffer.from(await wb.xlsx.writeBuffer());
    expect((await parseDocument(xlsx, { ext: '', fileName: 'book.xlsx' })).sections[0].text).toBe(
      'k：a; v：1 ——Data',
    );
    expect((await parseDocument(Buffer.from('# T'), { ext: 'md', fileName: 'a.md' })).sections[0].kind).toBe(
      'title',
    );
    expect(
      (await parseDocument(Buffer.from('SELECT 1;'), { ext: 'sql', fileName: 'a.sql' })).sections[0].kind,
    ).toBe('code');
    expect(
      (await parseDocument(Buffer.from('{"a":1}'), { ext: 'json', fileName: 'a.json' })).sections[0].text,
    ).toBe('a: 1');
    expect(
      (await parseDocument(Buffer.from('<h2>x</h2>'), { ext: 'htm', fileName: 'a.htm' })).sections[0].level,
    ).toBe(2);
    const rtf = await parseDocument(Buffer.from('{\\rtf1 Hi\\par}'), { ext: 'rtf', fileName: 'a.rtf' });
    expect(rtf.sections[0].text).toBe('Hi');
    const doc = await parseDocument(Buffer.from('{\\rtf1 Old\\par}'), { ext: 'doc', fileName: 'a.doc' });
    expect(doc.sections[0].text).toBe('Old');
    for (const ext of [
      'doc',
      'wps',
      'rtf',
      'msg',
      'pdf',
      'docx',
      'xlsx',
      'xls',
      'csv',
      'pptx',
      'txt',
      'md',
      'mdx',
      'html',
      'json',
      'jsonl',
      'eml',
      'py',
      'png',
      'jpg',
    ]) {
      expect(PARSEABLE_EXTENSIONS.has(ext)).toBe(true);
    }
  });

  it('refuses unknown extensions and empty files with the contract messages', async () => {
    await expect(parseDocument(Buffer.from('x'), { ext: 'xyz', fileName: 'a.xyz' })).rejects.toMatchObject({
      name: 'ParseError',
      message: 'This type of file has not been supported yet!',
    });
    await expect(parseDocument(Buffer.from('x'), { ext: '', fileName: 'noextension' })).rejects.toThrow(
      'This type of file has not been supported yet!',
    );
    for (const ext of [
      'docx',
      'xlsx',
      'pptx',
      'csv',
      'txt',
      'md',
      'html',
      'json',
      'eml',
      'msg',
      'doc',
      'rtf',
      'pdf',
      'png',
    ]) {
      await expect(parseDocument(Buffer.alloc(0), { ext, fileName: `a.${ext}` })).rejects.toThrow(
        'The file is empty.',
      );
    }
  });

  it('turns an unexpected failure on damaged bytes into a readable ParseError', async () => {
    // A BIFF8 workbook whose LABELSST record is too short for its fields.
    const bof = Buffer.from([0x09, 0x08, 16, 0, 0x00, 0x06, 0x05, 0, 0, 0, 0, 0, 0, 0, 0, 0, 6, 0, 0, 0]);
    const sheetBof = Buffer.from([
      0x09, 0x08, 16, 0, 0x00, 0x06, 0x10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 6, 0, 0, 0,
    ]);
    const eof = Buffer.from([0x0a, 0, 0, 0]);
    const name = Buffer.from([1, 0, 0x41]);
    const boundsheet = Buffer.alloc(4 + 6 + name.length);
    boundsheet.writeUInt16LE(0x85, 0);
    boundsheet.writeUInt16LE(6 + name.length, 2);
    boundsheet.writeUInt32LE(bof.length + boundsheet.length + eof.length, 4);
    name.copy(boundsheet, 10);
    const shortLabel = Buffer.from([0xfd, 0x00, 6, 0, 0, 0, 0, 0, 0, 0]);
    const workbook = Buffer.concat([bof, boundsheet, eof, sheetBof, shortLabel, eof]);
    await expect(
      parseDocument(writeCfb([{ path: 'Workbook', data: workbook }]), { ext: 'xls', fileName: 'a.xls' }),
    ).rejects.toMatchObject({
      name: 'ParseError',
      message: 'The XLS file could not be read: it is damaged or not in the expected format.',
    });
  });

  it('lets a cancellation thrown by onProgress through unchanged', async () => {
    const docx = await buildDocx({ body: para('x') });
    const cancelled = new Error('Task has been canceled.');
    const err = await parseDocument(docx, {
      ext: 'docx',
      fileName: 'a.docx',
      onProgress: () => {
        throw cancelled;
      },
    }).catch((e: unknown) => e);
    expect(err).toBe(cancelled);
  });
});
