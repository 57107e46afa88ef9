/**
 * Document thumbnails: a PNG whose longest side is at most 100 px — the first page of a PDF (rendered at
 * a bounded scale) or the picture itself. Other types have no thumbnail (null).
 */
import { IMAGE_EXTENSIONS } from '@lectern/shared';
import sharp from 'sharp';
import { ParseError } from './errors.js';
import { loadPicture } from './parsers/image.js';
import { openPdf } from './parsers/pdf/open.js';
import { renderPagePng } from './parsers/pdf/ocr.js';

export const THUMBNAIL_MAX_SIDE = 100;

async function fit(img: sharp.Sharp): Promise<Buffer> {
  return img
    .flatten({ background: '#ffffff' })
    .resize({ width: THUMBNAIL_MAX_SIDE, height: THUMBNAIL_MAX_SIDE, fit: 'inside' })
    .png()
    .toBuffer();
}

async function pdfThumbnail(buffer: Buffer): Promise<Buffer> {
  const doc = await openPdf(buffer, { render: true });
  try {
    const page = await doc.getPage(1);
    const vp = page.getViewport({ scale: 1 });
    // Render at twice the target size, then downscale smoothly.
    const scale = Math.min(4, (2 * THUMBNAIL_MAX_SIDE) / Math.max(vp.width, vp.height, 1));
    const png = await renderPagePng(page, scale);
    page.cleanup();
    return await fit(sharp(png));
  } catch (err) {
    if (err instanceof ParseError) throw err;
    throw new ParseError(
      `The PDF's first page could not be rendered: ${(err as Error)?.message ?? String(err)}`,
    );
  } finally {
    await doc.destroy().catch(() => undefined);
  }
}

/** PNG thumbnail (longest side ≤ 100 px) for PDFs and pictures; null for other types. */
export async function makeThumbnail(buffer: Buffer, ext: string): Promise<Buffer | null> {
  const e = ext.toLowerCase().replace(/^\./, '');
  if (e === 'pdf') return pdfThumbnail(buffer);
  if ((IMAGE_EXTENSIONS as readonly string[]).includes(e)) return fit(await loadPicture(buffer, e));
  return null;
}
