import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import {
  buildDocx,
  deflatedZeros,
  inlinePicture,
  para,
  png,
  rawZip,
} from '../../../test/fixtures/office/ooxml-builders.js';
import { parseDocx } from './docx.js';

const opts = { ext: 'docx', fileName: 'a.docx' };

const NUMBERING = `
  <w:abstractNum w:abstractNumId="0">
    <w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/></w:lvl>
    <w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="lowerLetter"/><w:lvlText w:val="%1.%2)"/></w:lvl>
  </w:abstractNum>
  <w:abstractNum w:abstractNumId="1">
    <w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="bullet"/><w:lvlText w:val="\uF0B7"/></w:lvl>
  </w:abstractNum>
  <w:abstractNum w:abstractNumId="2">
    <w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="upperRoman"/><w:lvlText w:val="Chapter %1"/></w:lvl>
  </w:abstractNum>
  <w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>
  <w:num w:numId="2"><w:abstractNumId w:val="1"/></w:num>
  <w:num w:numId="3"><w:abstractNumId w:val="2"/></w:num>`;

const num = (id: number, lvl: number) =>
  `<w:numPr><w:ilvl w:val="${lvl}"/><w:numId w:val="${id}"/></w:numPr>`;

function cell(text: string, tcPr = ''): string {
  return `<w:tc>${tcPr ? `<w:tcPr>${tcPr}</w:tcPr>` : ''}${para(text)}</w:tc>`;
}

describe('parseDocx', () => {
  it('turns headings, lists, merged tables, pictures, captions and footnotes into ordered sections', async () => {
    const picture = await png(4, 3);
    const table =
      '<w:tbl><w:tblGrid><w:gridCol/><w:gridCol/><w:gridCol/></w:tblGrid>' +
      `<w:tr><w:trPr><w:tblHeader/></w:trPr>${cell('Region')}${cell('Sales', '<w:gridSpan w:val="2"/>')}</w:tr>` +
      `<w:tr>${cell('North', '<w:vMerge w:val="restart"/>')}${cell('Q1')}${cell('10')}</w:tr>` +
      `<w:tr>${cell('', '<w:vMerge/>')}${cell('Q2')}${cell('12 &amp; more')}</w:tr>` +
      '</w:tbl>';
    const body = [
      para('Annual Report', 'Title'),
      para('Contents', 'TOC1'),
      para('Introduction', 'Heading1'),
      `<w:p><w:r><w:t xml:space="preserve">Plain </w:t></w:r><w:hyperlink r:id="x"><w:r><w:t>linked</w:t></w:r></w:hyperlink>` +
        `<w:del><w:r><w:delText>gone</w:delText></w:r></w:del><w:ins><w:r><w:t xml:space="preserve"> text</w:t></w:r></w:ins>` +
        `<w:r><w:rPr><w:vanish/></w:rPr><w:t>hidden</w:t></w:r><w:r><w:footnoteReference w:id="2"/></w:r></w:p>`,
      para('First step', undefined, num(1, 0)),
      para('Detail', undefined, num(1, 1)),
      para('Second step', undefined, num(1, 0)),
      para('A bullet', 'ListBullet'),
      para('Details', 'Heading2'),
      para('Overview', undefined, `${num(3, 0)}<w:outlineLvl w:val="0"/>`),
      table,
      `<w:p>${inlinePicture('rIdImg', 'A blue box')}</w:p>`,
      para('Figure 1: the box', 'Caption'),
      para('Inherited heading', 'MyChapter'),
      '<w:sectPr/>',
    ].join('');
    const buf = await buildDocx({
      body,
      numbering: NUMBERING,
      media: [{ rid: 'rIdImg', name: 'image1.png', data: picture }],
      footnotes:
        '<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>' +
        '<w:footnote w:id="2"><w:p><w:r><w:t>See the appendix.</w:t></w:r></w:p></w:footnote>',
      title: 'Report 2024',
    });
    const doc = await parseDocx(buf, opts);
    expect(doc.title).toBe('Report 2024');
    const simple = doc.sections.map((s) => ({ kind: s.kind, text: s.text, level: s.level }));
    expect(simple).toEqual([
      { kind: 'title', text: 'Annual Report', level: 1 },
      { kind: 'title', text: 'Introduction', level: 1 },
      { kind: 'text', text: 'Plain linked text[1]', level: undefined },
      { kind: 'list', text: '1. First step\n  1.a) Detail\n2. Second step\n• A bullet', level: undefined },
      { kind: 'title', text: 'Details', level: 2 },
      { kind: 'title', text: 'Chapter I Overview', level: 1 },
      { kind: 'table', text: 'Region | Sales\nNorth | Q1 | 10\nQ2 | 12 & more', level: undefined },
      { kind: 'figure', text: 'Figure 1: the box\nA blue box', level: undefined },
      { kind: 'title', text: 'Inherited heading', level: 1 },
      { kind: 'text', text: '[1] See the appendix.', level: undefined },
    ]);
    const tableSection = doc.sections[6];
    expect(tableSection.html).toBe(
      '<table><tr><th>Region</th><th colspan="2">Sales</th></tr>' +
        '<tr><td rowspan="2">North</td><td>Q1</td><td>10</td></tr>' +
        '<tr><td>Q2</td><td>12 &amp; more</td></tr></table>',
    );
    const figure = doc.sections[7];
    expect(figure.image?.equals(picture)).toBe(true);
    expect(figure.fields).toMatchObject({
      mime: 'image/png',
      caption: 'Figure 1: the box',
      alt: 'A blue box',
    });
    expect(doc.sections[3].fields?.items).toEqual([
      { level: 0, marker: '1.', text: 'First step' },
      { level: 1, marker: '1.a)', text: 'Detail' },
      { level: 0, marker: '2.', text: 'Second step' },
      { level: 0, marker: '•', text: 'A bullet' },
    ]);
  });

  it('selects pages by the recorded page breaks when fromPage/toPage are given', async () => {
    const body =
      para('Page one') +
      '<w:p><w:r><w:br w:type="page"/></w:r></w:p>' +
      para('Page two') +
      `<w:p><w:r><w:lastRenderedPageBreak/><w:t>Page three</w:t></w:r></w:p>`;
    const buf = await buildDocx({ body });
    const all = await parseDocx(buf, opts);
    expect(all.sections.map((s) => s.text)).toEqual(['Page one', 'Page two', 'Page three']);
    const second = await parseDocx(buf, { ...opts, fromPage: 1, toPage: 2 });
    expect(second.sections.map((s) => s.text)).toEqual(['Page two']);
  });

  it('keeps text boxes (once, not their VML fallback) and skips vector pictures with a note', async () => {
    const box =
      '<w:p><w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing><wp:anchor><wp:docPr id="2" name="Box"/>' +
      '<a:graphic><a:graphicData><wps:wsp xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><wps:txbx>' +
      `<w:txbxContent>${para('Inside the box')}</w:txbxContent></wps:txbx></wps:wsp></a:graphicData></a:graphic></wp:anchor></w:drawing>` +
      `</mc:Choice><mc:Fallback><w:pict><v:shape><v:textbox><w:txbxContent>${para('Inside the box')}</w:txbxContent></v:textbox></v:shape></w:pict></mc:Fallback>` +
      '</mc:AlternateContent></w:r><w:r><w:t>Anchor</w:t></w:r></w:p>';
    const emf = Buffer.concat([Buffer.from([1, 0, 0, 0]), Buffer.alloc(100)]);
    const buf = await buildDocx({
      body: box + `<w:p>${inlinePicture('rIdE', 'chart')}</w:p>`,
      media: [{ rid: 'rIdE', name: 'image2.emf', data: emf }],
    });
    const doc = await parseDocx(buf, opts);
    expect(doc.sections.map((s) => s.text)).toEqual(['Anchor', 'Inside the box']);
    expect(doc.notes).toEqual(['1 picture(s) in a vector format (EMF/WMF/SVG) were not kept.']);
  });

  it('refuses an empty file', async () => {
    await expect(parseDocx(Buffer.alloc(0), opts)).rejects.toThrow('The file is empty.');
  });

  it('refuses a DOCX that is not a zip archive', async () => {
    const err = parseDocx(Buffer.from('This is plain text pretending to be a DOCX file.'), opts);
    await expect(err).rejects.toMatchObject({
      name: 'ParseError',
      message: 'This is not a valid DOCX file (it is not a zip archive).',
    });
  });

  it('refuses a zip that is not a Word document', async () => {
    const zip = new JSZip();
    zip.file('hello.txt', 'hi');
    const buf = await zip.generateAsync({ type: 'nodebuffer' });
    await expect(parseDocx(buf, opts)).rejects.toThrow(
      'This is not a valid DOCX file: the zip archive does not contain "word/document.xml".',
    );
  });

  it('refuses malformed XML with the part and line', async () => {
    const zip = new JSZip();
    zip.file(
      'word/document.xml',
      '<?xml version="1.0"?>\n<w:document xmlns:w="x"><w:body>\n<w:p><w:r></w:p></w:body></w:document>',
    );
    const buf = await zip.generateAsync({ type: 'nodebuffer' });
    await expect(parseDocx(buf, opts)).rejects.toThrow(
      'The part "word/document.xml" is not well-formed XML (line 3: expected </w:r> but found </w:p>).',
    );
  });

  it('refuses a truncated DOCX', async () => {
    const buf = await buildDocx({ body: para('x') });
    await expect(parseDocx(buf.subarray(0, buf.length - 30), opts)).rejects.toThrow(
      /The DOCX file is damaged/,
    );
  });

  it('stops a decompression bomb by its declared size before inflating anything', async () => {
    const bomb = rawZip([
      {
        name: 'word/document.xml',
        data: Buffer.alloc(0),
        declaredSize: 600 * 1024 * 1024,
        compressed: deflatedZeros(600),
      },
    ]);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    await expect(parseDocx(bomb, opts)).rejects.toThrow(
      'The DOCX file would unpack to more than 512 MB (the limit); it may be a decompression bomb.',
    );
  });

  it('stops a decompression bomb that lies about its size while inflating', async () => {
    const bomb = rawZip([
      { name: 'word/document.xml', data: Buffer.alloc(0), declaredSize: 1000, compressed: deflatedZeros(64) },
    ]);
    await expect(parseDocx(bomb, opts)).rejects.toThrow(
      'The DOCX file is unsafe: the entry "word/document.xml" inflates beyond its declared size of 1000 bytes (limit exceeded); it may be a decompression bomb.',
    );
  });
});
