import { describe, expect, it } from 'vitest';
import { writeCfb } from '../../../test/fixtures/office/cfb-writer.js';
import { writeDoc } from '../../../test/fixtures/office/doc-writer.js';
import { buildDocx, para } from '../../../test/fixtures/office/ooxml-builders.js';
import { parseDoc } from './doc.js';

const opts = { ext: 'doc', fileName: 'a.doc' };

describe('parseDoc', () => {
  it('rebuilds the text from compressed and UTF-16 pieces, dropping field codes and keeping table rows', async () => {
    const main = [
      { text: 'Annual report\rSee \x13 HYPERLINK "http://x" \x14the site\x15 now.\x0bNext line\r' },
      { text: 'Café – 中文 paragraph\r', unicode: true },
      { text: 'Name\x07Qty\x07\x07Pen\x077\x07\x07After table\r' },
    ];
    const ccpText = main.reduce((n, p) => n + p.text.length, 0);
    const buf = writeDoc([...main, { text: 'Footnote text that is not main text\r' }], { ccpText });
    const doc = await parseDoc(buf, opts);
    expect(doc.sections).toEqual([
      { kind: 'text', text: 'Annual report' },
      { kind: 'text', text: 'See the site now.\nNext line' },
      { kind: 'text', text: 'Café – 中文 paragraph' },
      { kind: 'text', text: 'Name | Qty\nPen | 7', fields: { table: true } },
      { kind: 'text', text: 'After table' },
    ]);
  });

  it('reads a .doc that is really RTF or DOCX', async () => {
    const rtf = await parseDoc(Buffer.from('{\\rtf1\\ansi Hello RTF\\par}'), opts);
    expect(rtf.sections).toEqual([{ kind: 'text', text: 'Hello RTF' }]);
    const docx = await parseDoc(await buildDocx({ body: para('Hello DOCX') }), opts);
    expect(docx.sections).toEqual([{ kind: 'text', text: 'Hello DOCX' }]);
  });

  it('refuses empty, non-Word, encrypted, Word 95 and damaged files', async () => {
    await expect(parseDoc(Buffer.alloc(0), opts)).rejects.toThrow('The file is empty.');
    await expect(parseDoc(Buffer.from('just text'), opts)).rejects.toThrow(
      'This is not a valid DOC file (it is not a Word document).',
    );
    await expect(parseDoc(writeCfb([{ path: 'Workbook', data: Buffer.alloc(100) }]), opts)).rejects.toThrow(
      'This is not a valid DOC file: the compound file contains no Word document.',
    );
    await expect(parseDoc(writeDoc([{ text: 'x\r' }], { encrypted: true }), opts)).rejects.toThrow(
      'The DOC file is password-protected (encrypted); remove the password and upload it again.',
    );
    await expect(parseDoc(writeDoc([{ text: 'x\r' }], { ident: 0xa5dc }), opts)).rejects.toThrow(
      'This DOC file uses the Word 6.0/95 format, which is not supported',
    );
    const good = writeDoc([{ text: 'Hello\r' }]);
    await expect(parseDoc(good.subarray(0, 1536), opts)).rejects.toThrow(/The DOC file is damaged/);
  });
});
