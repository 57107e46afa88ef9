import { describe, expect, it } from 'vitest';
import type { ParseOptions } from '../../types.js';
import { makePdf, textBlock } from '../../../../test/fixtures/pdf/make-pdf.js';
import { hasSystemFont, type RasterSpec, rasterImage } from '../../../../test/fixtures/pdf/raster.js';
import { parsePdf } from './index.js';

const opts = (o: Partial<ParseOptions> = {}): ParseOptions => ({ ext: 'pdf', fileName: 'scan.pdf', ...o });
const norm = (s: string): string => s.replace(/\s+/g, ' ').trim().toLowerCase();

/** A ruled table drawn as a picture: light gray header, words and lone digits in cells. */
function tablePicture(): RasterSpec {
  const xs = [20, 160, 260, 360];
  const ys = [20, 50, 80, 110, 140];
  const rows = [
    ['Item', 'Count', 'Price'],
    ['Pencil', '7', '2.50'],
    ['Notebook', '3', '4.20'],
    ['Eraser', '9', '0.80'],
  ];
  return {
    width: 380,
    height: 160,
    dpi: 200,
    fills: [{ x0: xs[0], y0: ys[0], x1: xs[3], y1: ys[1], gray: 190 }],
    lines: [
      ...ys.map((y) => ({ x0: xs[0], y0: y, x1: xs[3], y1: y })),
      ...xs.map((x) => ({ x0: x, y0: ys[0], x1: x, y1: ys[4] })),
    ],
    texts: rows.flatMap((row, r) =>
      row.map((text, c) => ({ x: xs[c] + 10, y: ys[r] + 21, text, size: 13, bold: r === 0 })),
    ),
  };
}

// Test pictures are drawn with the machine's fonts; without any, there is nothing to recognise.
describe.skipIf(!hasSystemFont())('parsePdf: OCR of scanned pages and pictured tables', () => {
  it('OCRs a page that is one big picture and keeps word positions in points', async () => {
    const lines = [
      'Scanned documents need optical character recognition',
      'The quick brown fox jumps over the lazy dog',
      'Invoice number 12345 is due on Friday',
    ];
    const picture = rasterImage({
      width: 612,
      height: 792,
      dpi: 150,
      texts: lines.map((text, i) => ({ x: 72, y: 120 + i * 24, text, size: 14 })),
    });
    const doc = await parsePdf(makePdf([{ images: [picture] }]), opts());
    expect(doc.notes).toContain('OCR used on 1 page.');
    const text = norm(doc.sections.map((s) => s.text).join(' '));
    for (const l of lines) expect(text).toContain(norm(l));
    const first = doc.sections.find((s) => norm(s.text).startsWith('scanned documents'))!;
    const [page, x0, , top, bottom] = first.positions![0];
    expect(page).toBe(1);
    expect(Math.abs(x0 - 72)).toBeLessThan(4);
    // 14 pt glyphs on baseline 120: the line's box lies between the cap height and the descenders.
    expect(top).toBeGreaterThan(100);
    expect(top).toBeLessThan(112);
    expect(bottom).toBeGreaterThan(118);
    expect(bottom).toBeLessThan(128);
  }, 120_000);

  it('reads a pictured table on a scanned page as a table, lone digits and shaded header included', async () => {
    const picture = rasterImage(tablePicture(), 0, 0);
    const doc = await parsePdf(makePdf([{ width: 380, height: 160, images: [picture] }]), opts());
    const table = doc.sections.find((s) => s.kind === 'table');
    expect(table?.html).toBe(
      '<table><tr><th>Item</th><th>Count</th><th>Price</th></tr><tr><td>Pencil</td><td>7</td><td>2.50</td></tr>' +
        '<tr><td>Notebook</td><td>3</td><td>4.20</td></tr><tr><td>Eraser</td><td>9</td><td>0.80</td></tr></table>',
    );
  }, 120_000);

  it('reads a table pictured on an otherwise digital page and keeps the digital text', async () => {
    const intro = 'The stationery order below was scanned from the supplier invoice.';
    const picture = rasterImage(tablePicture(), 72, 140);
    const doc = await parsePdf(makePdf([{ texts: textBlock(72, 110, [intro]), images: [picture] }]), opts());
    expect(doc.notes).not.toContain('OCR used on 1 page.');
    expect(doc.sections.map((s) => s.kind)).toEqual(['text', 'table']);
    expect(doc.sections[0].text).toBe(intro);
    expect(doc.sections[1].html).toContain('<tr><td>Pencil</td><td>7</td><td>2.50</td></tr>');
    const [, x0, , top] = doc.sections[1].positions![0];
    expect(Math.abs(x0 - 92)).toBeLessThan(3);
    expect(Math.abs(top - 160)).toBeLessThan(3);
  }, 120_000);
});
