import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import {
  buildPptx,
  pictureShape,
  png,
  rawZip,
  textShape,
} from '../../../test/fixtures/office/ooxml-builders.js';
import { parsePptx } from './pptx.js';

const opts = { ext: 'pptx', fileName: 'deck.pptx' };

const table =
  '<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="9" name="Table"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr>' +
  '<p:xfrm><a:off x="0" y="5000"/><a:ext cx="10" cy="10"/></p:xfrm><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/table">' +
  '<a:tbl><a:tblGrid><a:gridCol w="1"/><a:gridCol w="1"/></a:tblGrid>' +
  '<a:tr h="1"><a:tc gridSpan="2"><a:txBody><a:bodyPr/><a:p><a:r><a:t>Merged head</a:t></a:r></a:p></a:txBody></a:tc><a:tc hMerge="1"><a:txBody><a:bodyPr/><a:p/></a:txBody></a:tc></a:tr>' +
  '<a:tr h="1"><a:tc rowSpan="2"><a:txBody><a:bodyPr/><a:p><a:r><a:t>Left</a:t></a:r></a:p></a:txBody></a:tc><a:tc><a:txBody><a:bodyPr/><a:p><a:r><a:t>R1</a:t></a:r></a:p></a:txBody></a:tc></a:tr>' +
  '<a:tr h="1"><a:tc vMerge="1"><a:txBody><a:bodyPr/><a:p/></a:txBody></a:tc><a:tc><a:txBody><a:bodyPr/><a:p><a:r><a:t>R2 &amp; more</a:t></a:r></a:p></a:txBody></a:tc></a:tr>' +
  '</a:tbl></a:graphicData></a:graphic></p:graphicFrame>';

async function deck(): Promise<{ buf: Buffer; big: Buffer }> {
  const small = await png(2, 2, '#ff0000');
  const big = await png(8, 6, '#00ff00');
  const body = textShape(3, ['Second block'], { x: 0, y: 3000 });
  const first =
    '<p:sp><p:nvSpPr><p:cNvPr id="4" name="T"/><p:cNvSpPr/><p:nvPr/></p:nvSpPr><p:spPr><a:xfrm><a:off x="0" y="1000"/><a:ext cx="1" cy="1"/></a:xfrm></p:spPr>' +
    '<p:txBody><a:bodyPr/><a:p><a:r><a:t>First </a:t></a:r><a:r><a:t>block</a:t></a:r></a:p>' +
    '<a:p><a:pPr lvl="1"/><a:r><a:t>Sub point</a:t></a:r><a:br/><a:r><a:t>continued</a:t></a:r></a:p></p:txBody></p:sp>';
  const buf = await buildPptx([
    {
      shapes:
        body +
        first +
        textShape(2, ['Quarterly Review'], { ph: 'title' }) +
        table +
        pictureShape(5, 'rIdA', 100, 100) +
        pictureShape(6, 'rIdB', 1000, 1000),
      notes: 'Speaker notes here',
      media: [
        { rid: 'rIdA', name: 'a.png', data: small },
        { rid: 'rIdB', name: 'b.png', data: big },
      ],
    },
    { shapes: pictureShape(2, 'rIdC', 10, 10), media: [{ rid: 'rIdC', name: 'c.png', data: small }] },
    {
      shapes:
        textShape(2, ['Thanks'], { ph: 'ctrTitle' }) +
        textShape(3, ['Confidential'], { ph: 'ftr' }) +
        textShape(4, ['3'], { ph: 'sldNum' }),
    },
    { shapes: '' },
  ]);
  return { buf, big };
}

describe('parsePptx', () => {
  it('gives one section per slide in slide-list order with title first, positions, tables, notes and the largest picture', async () => {
    const { buf, big } = await deck();
    const doc = await parsePptx(buf, opts);
    expect(doc.pageCount).toBe(4);
    expect(doc.title).toBe('Quarterly Review');
    expect(doc.sections.map((s) => [s.page, s.fields?.slide, s.text])).toEqual([
      [
        1,
        1,
        'Quarterly Review\nFirst block\n  Sub point\ncontinued\nSecond block\nMerged head\nLeft | R1\nR2 & more',
      ],
      [2, 2, ''],
      [3, 3, 'Thanks'],
    ]);
    const s1 = doc.sections[0];
    expect(s1.html).toBe(
      '<table><tr><td colspan="2">Merged head</td></tr><tr><td rowspan="2">Left</td><td>R1</td></tr><tr><td>R2 &amp; more</td></tr></table>',
    );
    expect(s1.fields).toEqual({ slide: 1, title: 'Quarterly Review', notes: 'Speaker notes here' });
    expect(s1.image?.equals(big)).toBe(true);
    expect(doc.sections[1].image).toBeInstanceOf(Buffer);
    expect(doc.sections[2].fields).toEqual({ slide: 3, title: 'Thanks' });
  });

  it('honours fromPage/toPage as a slide range', async () => {
    const { buf } = await deck();
    const doc = await parsePptx(buf, { ...opts, fromPage: 2, toPage: 4 });
    expect(doc.pageCount).toBe(4);
    expect(doc.sections.map((s) => s.text)).toEqual(['Thanks']);
  });

  it('refuses empty, non-zip, non-presentation and malformed packages', async () => {
    await expect(parsePptx(Buffer.alloc(0), opts)).rejects.toThrow('The file is empty.');
    await expect(parsePptx(Buffer.from('%PDF-1.7 not a deck'), opts)).rejects.toThrow(
      'This is not a valid PPTX file (it is not a zip archive).',
    );
    const other = new JSZip();
    other.file('word/document.xml', '<w:document/>');
    await expect(parsePptx(await other.generateAsync({ type: 'nodebuffer' }), opts)).rejects.toThrow(
      'This is not a valid PPTX file: the zip archive does not contain "ppt/presentation.xml".',
    );
    const broken = await JSZip.loadAsync((await deck()).buf);
    broken.file('ppt/slides/slide4.xml', '<p:sld xmlns:p="x"><p:cSld><p:spTree></p:cSld></p:sld>');
    await expect(parsePptx(await broken.generateAsync({ type: 'nodebuffer' }), opts)).rejects.toThrow(
      'The part "ppt/slides/slide4.xml" is not well-formed XML (line 1: expected </p:spTree> but found </p:cSld>).',
    );
  });

  it('refuses an archive with more entries than the limit', async () => {
    const empty = Buffer.from([0x03, 0x00]); // an empty deflate stream
    const entries = Array.from({ length: 20_001 }, (_, i) => ({
      name: `ppt/x${i}.xml`,
      data: Buffer.alloc(0),
      compressed: empty,
    }));
    await expect(parsePptx(rawZip(entries), opts)).rejects.toThrow(
      'The PPTX file contains 20001 archive entries, more than the limit of 20000; it may be a decompression bomb.',
    );
  });
});
