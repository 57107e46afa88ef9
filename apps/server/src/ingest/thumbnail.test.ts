import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { ParseError } from './errors.js';
import { makeThumbnail } from './thumbnail.js';
import { gridTable, makePdf, textBlock } from '../../test/fixtures/pdf/make-pdf.js';
import { icoOf, rasterBmp, rasterPng } from '../../test/fixtures/pdf/raster.js';

async function size(png: Buffer): Promise<[number, number, string]> {
  const m = await sharp(png).metadata();
  return [m.width!, m.height!, m.format!];
}

describe('makeThumbnail', () => {
  it('renders the first page of a PDF into a PNG at most 100 px on its longest side', async () => {
    const g = gridTable(72, 300, [200, 200], 40, [
      ['a', 'b'],
      ['c', 'd'],
    ]);
    const pdf = makePdf([
      {
        texts: textBlock(72, 100, ['Thumbnail page one']),
        lines: [...g.lines, { x0: 72, y0: 200, x1: 540, y1: 200, width: 20 }],
      },
      { texts: textBlock(72, 100, ['two']) },
    ]);
    const thumb = (await makeThumbnail(pdf, 'pdf'))!;
    const [w, h, format] = await size(thumb);
    expect([h, format]).toEqual([100, 'png']);
    expect(w).toBeGreaterThanOrEqual(77); // 612 × 792 pt page
    expect(w).toBeLessThanOrEqual(78);
    // The thick rule drawn across the page shows up as dark pixels.
    const { data } = await sharp(thumb).greyscale().raw().toBuffer({ resolveWithObject: true });
    expect(Math.min(...data)).toBeLessThan(100);
  });

  it('shrinks pictures of every supported type, keeping the aspect ratio', async () => {
    const spec = { width: 400, height: 200, dpi: 72 };
    const png = rasterPng(spec);
    expect(await size((await makeThumbnail(png, 'png'))!)).toEqual([100, 50, 'png']);
    expect(await size((await makeThumbnail(await sharp(png).jpeg().toBuffer(), 'JPG'))!)).toEqual([
      100,
      50,
      'png',
    ]);
    expect(await size((await makeThumbnail(rasterBmp(spec), 'bmp'))!)).toEqual([100, 50, 'png']);
    expect(
      await size((await makeThumbnail(icoOf(rasterPng({ width: 64, height: 64, dpi: 72 }), 64), 'ico'))!),
    ).toEqual([100, 100, 'png']);
  });

  it('has no thumbnail for other types', async () => {
    expect(await makeThumbnail(Buffer.from('hello'), 'txt')).toBeNull();
    expect(await makeThumbnail(Buffer.from('PK'), 'docx')).toBeNull();
  });

  it('refuses empty and broken files with a ParseError', async () => {
    await expect(makeThumbnail(Buffer.alloc(0), 'pdf')).rejects.toThrow(new ParseError('The file is empty.'));
    await expect(makeThumbnail(Buffer.alloc(0), 'png')).rejects.toThrow(new ParseError('The file is empty.'));
    const pdf = makePdf([{ texts: textBlock(72, 100, ['x']) }]);
    await expect(makeThumbnail(pdf.subarray(0, 300), 'pdf')).rejects.toBeInstanceOf(ParseError);
    await expect(makeThumbnail(Buffer.from('GIF89a garbage'), 'gif')).rejects.toBeInstanceOf(ParseError);
    // Headers claiming huge bitmaps never reach the canvas decoder.
    const bmp = Buffer.alloc(64);
    bmp.write('BM', 0, 'latin1');
    bmp.writeInt32LE(26400, 18);
    bmp.writeInt32LE(29281, 22);
    bmp.writeUInt16LE(24, 28);
    await expect(makeThumbnail(bmp, 'bmp')).rejects.toThrow(
      new ParseError('The BMP image could not be read (its header is invalid).'),
    );
  });
});
