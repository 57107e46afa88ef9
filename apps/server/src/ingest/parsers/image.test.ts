import zlib from 'node:zlib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { ParseError } from '../errors.js';
import type { ParseOptions } from '../types.js';
import {
  hasSystemFont,
  icoOf,
  type RasterSpec,
  rasterBmp,
  rasterPng,
} from '../../../test/fixtures/pdf/raster.js';
import { loadPicture, parseImage, tidyOcrText } from './image.js';

const opts = (ext: string, o: Partial<ParseOptions> = {}): ParseOptions => ({
  ext,
  fileName: `picture.${ext}`,
  ...o,
});

const SIGN: RasterSpec = {
  width: 420,
  height: 120,
  dpi: 150,
  texts: [
    { x: 20, y: 45, text: 'Lectern reads pictures', size: 24 },
    { x: 20, y: 95, text: 'Invoice total 4821 euros', size: 20 },
  ],
};

/** A PNG header claiming `w`×`h` pixels with almost no data: a decompression bomb's calling card. */
function bombPng(w: number, h: number): Buffer {
  const chunk = (type: string, data: Buffer): Buffer => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body) >>> 0);
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8;
  ihdr[9] = 0;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(Buffer.alloc(1024))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('loadPicture: every picture type decodes', () => {
  const png = (): Buffer => rasterPng({ width: 60, height: 30, dpi: 72 });
  const cases: Array<[string, () => Promise<Buffer> | Buffer]> = [
    ['png', png],
    ['jpg', () => sharp(png()).jpeg().toBuffer()],
    ['jpeg', () => sharp(png()).jpeg().toBuffer()],
    ['gif', () => sharp(png()).gif().toBuffer()],
    ['webp', () => sharp(png()).webp().toBuffer()],
    ['tif', () => sharp(png()).tiff().toBuffer()],
    ['tiff', () => sharp(png()).tiff().toBuffer()],
    ['bmp', () => rasterBmp({ width: 60, height: 30, dpi: 72 })],
    ['ico', () => icoOf(png(), 60)],
  ];
  it.each(cases)('%s', async (ext, make) => {
    const meta = await (await loadPicture(await make(), ext)).png().toBuffer({ resolveWithObject: true });
    expect([meta.info.width, meta.info.height]).toEqual([60, 30]);
  });

  it('takes the first frame of an animated GIF', async () => {
    const red = await sharp({ create: { width: 20, height: 10, channels: 3, background: '#ff0000' } })
      .png()
      .toBuffer();
    const blue = await sharp({ create: { width: 20, height: 10, channels: 3, background: '#0000ff' } })
      .png()
      .toBuffer();
    const gif = await sharp([red, blue], { join: { animated: true } })
      .gif()
      .toBuffer();
    const { data, info } = await (await loadPicture(gif, 'gif')).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([20, 10]);
    expect([data[0], data[1], data[2]]).toEqual([255, 0, 0]);
  });

  it('refuses empty, unreadable and oversized pictures with readable messages', async () => {
    await expect(loadPicture(Buffer.alloc(0), 'png')).rejects.toThrow(new ParseError('The file is empty.'));
    const garbage = loadPicture(Buffer.from('definitely not an image'), 'png');
    await expect(garbage).rejects.toBeInstanceOf(ParseError);
    await expect(loadPicture(Buffer.from('definitely not an image'), 'png')).rejects.toThrow(
      /^The PNG image could not be read \(/,
    );
    await expect(loadPicture(Buffer.from('not an icon at all'), 'ico')).rejects.toThrow(
      /^The ICO image could not be read \(/,
    );
    await expect(loadPicture(bombPng(30_000, 30_000), 'png')).rejects.toThrow(
      new ParseError('The image is too large (30000×30000 pixels).'),
    );
  });
});

describe('tidyOcrText', () => {
  it('closes the gaps OCR leaves between Chinese characters only', () => {
    expect(tidyOcrText('知 识 库 is a  knowledge base \n\n\n\nnext')).toBe(
      '知识库 is a  knowledge base\n\nnext',
    );
  });
});

// Test pictures are drawn with the machine's fonts; without any, there is nothing to recognise.
describe.skipIf(!hasSystemFont())('parseImage: OCR', () => {
  it('returns one figure section with the OCR text and the picture', async () => {
    const doc = await parseImage(rasterPng(SIGN), opts('png'));
    expect(doc.sections).toHaveLength(1);
    const [s] = doc.sections;
    expect(s.kind).toBe('figure');
    expect(s.text.split('\n')).toEqual(['Lectern reads pictures', 'Invoice total 4821 euros']);
    expect(s.positions).toEqual([]);
    const meta = await sharp(s.image!).metadata();
    expect(meta.format).toBe('jpeg');
    expect([meta.width, meta.height]).toEqual([875, 250]);
  }, 120_000);

  it('reads a BMP through the canvas decoder and downsizes large pictures to 1280 px', async () => {
    const big: RasterSpec = { ...SIGN, dpi: 500 };
    const doc = await parseImage(rasterBmp(big), opts('bmp'));
    expect(doc.sections[0].text).toContain('Lectern reads pictures');
    const meta = await sharp(doc.sections[0].image!).metadata();
    expect(Math.max(meta.width!, meta.height!)).toBe(1280);
  }, 120_000);
});
