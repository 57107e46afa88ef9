/**
 * Pictures (jpg, jpeg, png, gif, bmp, tif, tiff, webp, ico): decoded with sharp (first frame of GIFs and
 * TIFFs), BMP and ICO through @napi-rs/canvas (sharp has no decoder for them), OCRed offline, and kept —
 * downscaled — as the figure's image.
 */
import sharp from 'sharp';
import { progressMessage } from '@lectern/shared';
import { ParseError } from '../errors.js';
import { chooseOcrLanguages, createOcrEngine } from '../ocr.js';
import type { ParsedDocument, ParseOptions } from '../types.js';

/** Pictures larger than this (in pixels) are refused: decompression bombs. */
const MAX_PIXELS = 100_000_000;
/** The stored picture's longest side. */
const IMAGE_MAX_SIDE = 1280;

function refuse(ext: string, detail: string): ParseError {
  return new ParseError(`The ${ext.toUpperCase()} image could not be read (${detail}).`);
}

/** Canvas decoding allocates the full bitmap at once: keep it well within memory. */
const MAX_CANVAS_PIXELS = 40_000_000;

function pngSize(b: Buffer, at: number): [number, number] | undefined {
  if (b.length < at + 24 || b.readUInt32BE(at) !== 0x89504e47) return undefined;
  return [b.readUInt32BE(at + 16), b.readUInt32BE(at + 20)];
}

/**
 * Width and height from a BMP or ICO header, or undefined when the header is not valid. The canvas
 * decoder (Skia) aborts the whole process on absurd sizes, so nothing reaches it unchecked.
 */
export function bmpIcoSize(b: Buffer): [number, number] | undefined {
  if (b.length >= 26 && b[0] === 0x42 && b[1] === 0x4d) {
    const w = b.readInt32LE(18);
    const h = Math.abs(b.readInt32LE(22));
    const bpp = b.length >= 30 ? b.readUInt16LE(28) : 0;
    const compression = b.length >= 34 ? b.readUInt32LE(30) : 0;
    if (w <= 0 || h <= 0) return undefined;
    // Uncompressed pixel data must actually be in the file.
    if ((compression === 0 || compression === 3) && bpp > 0 && Math.ceil((w * bpp) / 32) * 4 * h > b.length)
      return undefined;
    return [w, h];
  }
  if (b.length >= 22 && b.readUInt16LE(0) === 0 && (b.readUInt16LE(2) === 1 || b.readUInt16LE(2) === 2)) {
    const count = b.readUInt16LE(4);
    if (count < 1 || count > 256 || b.length < 6 + 16 * count) return undefined;
    let best: [number, number] | undefined;
    for (let i = 0; i < count; i++) {
      const e = 6 + 16 * i;
      const size = b.readUInt32LE(e + 8);
      const offset = b.readUInt32LE(e + 12);
      if (offset + size > b.length || size < 8) return undefined;
      const dims =
        pngSize(b, offset) ??
        (b.readUInt32LE(offset) === 40
          ? [b.readInt32LE(offset + 4), Math.abs(b.readInt32LE(offset + 8)) / 2]
          : undefined);
      if (!dims || dims[0] <= 0 || dims[1] <= 0 || dims[0] > 4096 || dims[1] > 4096) return undefined;
      if (!best || dims[0] * dims[1] > best[0] * best[1]) best = dims as [number, number];
    }
    return best;
  }
  return undefined;
}

async function viaCanvas(buffer: Buffer, ext: string): Promise<sharp.Sharp> {
  const size = bmpIcoSize(buffer);
  if (!size) throw refuse(ext, 'its header is invalid');
  if (size[0] * size[1] > MAX_CANVAS_PIXELS)
    throw new ParseError(`The image is too large (${size[0]}×${size[1]} pixels).`);
  const { loadImage, createCanvas } = await import('@napi-rs/canvas');
  let img: Awaited<ReturnType<typeof loadImage>>;
  try {
    img = await loadImage(buffer);
  } catch (err) {
    throw refuse(ext, (err as Error).message || 'unsupported data');
  }
  if (!img.width || !img.height) throw refuse(ext, 'it has no pixels');
  const canvas = createCanvas(img.width, img.height);
  canvas.getContext('2d').drawImage(img, 0, 0);
  return sharp(canvas.toBuffer('image/png'), { limitInputPixels: MAX_PIXELS });
}

/**
 * Decodes a picture into a sharp pipeline (first frame only), upright per its EXIF orientation.
 * Throws ParseError for empty, unreadable or oversized pictures.
 */
export async function loadPicture(buffer: Buffer, ext: string): Promise<sharp.Sharp> {
  if (!buffer.length) throw new ParseError('The file is empty.');
  const e = ext.toLowerCase();
  // BMP and ICO (also when misnamed) go to the canvas decoder, everything else to sharp.
  const isBmp = buffer.length > 2 && buffer[0] === 0x42 && buffer[1] === 0x4d;
  const isIco = buffer.length > 4 && buffer.readUInt32BE(0) === 0x00000100;
  if (e === 'bmp' || e === 'ico' || isBmp || isIco) return viaCanvas(buffer, e);
  const img = sharp(buffer, { limitInputPixels: MAX_PIXELS, pages: 1, failOn: 'error' });
  try {
    // Header only (no pixels decoded): the size is checked before anything is allocated for it.
    const meta = await sharp(buffer, { limitInputPixels: false, pages: 1 }).metadata();
    if (!meta.width || !meta.height) throw refuse(e, 'it has no pixels');
    if (meta.width * meta.height > MAX_PIXELS)
      throw new ParseError(`The image is too large (${meta.width}×${meta.height} pixels).`);
  } catch (err) {
    if (err instanceof ParseError) throw err;
    throw refuse(e, ((err as Error).message ?? String(err)).replace(/\.$/, ''));
  }
  return img.rotate();
}

/** Removes the spaces OCR puts between Chinese characters. */
export function tidyOcrText(text: string): string {
  return text
    .replace(/([\u3400-\u9fff\uf900-\ufaff])[ \t]+(?=[\u3400-\u9fff\uf900-\ufaff])/g, '$1')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** OCR text of an image plus the picture itself, as one figure section. */
export async function parseImage(buffer: Buffer, opts: ParseOptions): Promise<ParsedDocument> {
  const img = await loadPicture(buffer, opts.ext);
  await opts.onProgress?.(0.1, progressMessage('imageDecoded'));
  let flat: { data: Buffer; info: sharp.OutputInfo };
  try {
    flat = await img
      .flatten({ background: '#ffffff' })
      .toColourspace('srgb')
      .png()
      .toBuffer({ resolveWithObject: true });
  } catch (err) {
    throw refuse(opts.ext, (err as Error).message);
  }
  const { width, height } = flat.info;
  // Small pictures are enlarged so that glyphs are big enough for the OCR models.
  const upscale = Math.max(width, height) < 1000 ? 2 : 1;
  const forOcr = await sharp(flat.data)
    .resize({ width: width * upscale, height: height * upscale, kernel: 'lanczos3' })
    .grayscale()
    .normalise()
    .png({ compressionLevel: 1 })
    .toBuffer();
  const picture = await sharp(flat.data)
    .resize({ width: IMAGE_MAX_SIDE, height: IMAGE_MAX_SIDE, fit: 'inside', withoutEnlargement: true })
    .jpeg({ quality: 85 })
    .toBuffer();
  const engine = await createOcrEngine(chooseOcrLanguages(opts.language, '', opts.fileName));
  let text = '';
  try {
    await opts.onProgress?.(0.3, progressMessage('ocrStarted'));
    const result = await engine.recognize(forOcr, { mode: 'auto', dpi: 150 * upscale });
    text = tidyOcrText(
      result.lines
        .filter((l) => l.confidence >= 30 || l.words.some((w) => w.confidence >= 60))
        .map((l) => l.words.map((w) => w.text).join(' '))
        .join('\n'),
    );
  } finally {
    await engine.terminate();
  }
  await opts.onProgress?.(1, progressMessage('ocrFinished'));
  return {
    sections: [{ kind: 'figure', text, image: picture, positions: [], fields: { width, height } }],
    notes: [
      text ? progressMessage('ocrWords', { count: text.split(/\s+/).length }) : progressMessage('ocrNoText'),
    ],
  };
}
