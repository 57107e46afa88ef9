import { describe, expect, it } from 'vitest';
import type { ParseOptions } from '../../types.js';
import {
  type PdfLine,
  type PdfPage,
  type PdfText,
  gridTable,
  makePdf,
  textBlock,
  wrapText,
} from '../../../../test/fixtures/pdf/make-pdf.js';
import { parsePdf } from './index.js';

const opts = (o: Partial<ParseOptions> = {}): ParseOptions => ({ ext: 'pdf', fileName: 'test.pdf', ...o });

/** Paragraphs wrapped into a column; returns the texts and the next baseline. */
function column(
  x: number,
  y: number,
  width: number,
  paragraphs: string[],
  size = 10,
): { texts: PdfText[]; y: number } {
  const texts: PdfText[] = [];
  for (const p of paragraphs) {
    const lines = wrapText(p, width, size);
    texts.push(...textBlock(x, y, lines, size));
    y += lines.length * size * 1.2 + size;
  }
  return { texts, y };
}

const sentence = (tag: string, n: number): string =>
  Array.from(
    { length: n },
    (_, i) => `${tag} sentence number ${i + 1} talks about ${tag.toLowerCase()} matters in detail.`,
  ).join(' ');

describe('parsePdf: tables', () => {
  it('turns a ruled grid into an HTML table with header cells, outside the text flow', async () => {
    const g = gridTable(72, 150, [120, 80, 80], 18, [
      ['Fruit', 'Qty', 'Price'],
      ['Apple', '3', '1.20'],
      ['Banana', '12', '0.25'],
      ['Cherry', '200', '9.90'],
    ]);
    const before = 'The following table lists the fruit we bought this week.';
    const after = 'All prices are in euros and include taxes.';
    const page: PdfPage = {
      texts: [...textBlock(72, 120, [before]), ...g.texts, ...textBlock(72, 250, [after])],
      lines: g.lines,
    };
    const doc = await parsePdf(makePdf([page]), opts());
    expect(doc.sections.map((s) => s.kind)).toEqual(['text', 'table', 'text']);
    const table = doc.sections[1];
    expect(table.html).toBe(
      '<table><tr><th>Fruit</th><th>Qty</th><th>Price</th></tr><tr><td>Apple</td><td>3</td><td>1.20</td></tr>' +
        '<tr><td>Banana</td><td>12</td><td>0.25</td></tr><tr><td>Cherry</td><td>200</td><td>9.90</td></tr></table>',
    );
    expect(table.text).toBe('Fruit | Qty | Price\nApple | 3 | 1.20\nBanana | 12 | 0.25\nCherry | 200 | 9.90');
    const [pg, x0, x1, top, bottom] = table.positions![0];
    expect([pg, x0, x1, top, bottom]).toEqual([1, 72, 352, 150, 222]);
    expect(doc.notes).toContain('1 table found.');
  });

  it('reads merged cells from missing rules as rowspan and colspan', async () => {
    const xs = [72, 172, 272, 372];
    const ys = [100, 120, 140, 160, 180];
    const lines: PdfLine[] = [
      { x0: 72, y0: 100, x1: 372, y1: 100 },
      { x0: 172, y0: 120, x1: 372, y1: 120 }, // under "Sales" only: "Region" spans two rows
      ...ys.slice(2).map((y) => ({ x0: 72, y0: y, x1: 372, y1: y })),
      { x0: 72, y0: 100, x1: 72, y1: 180 },
      { x0: 172, y0: 100, x1: 172, y1: 180 },
      { x0: 272, y0: 120, x1: 272, y1: 180 }, // not in the first row: "Sales" spans two columns
      { x0: 372, y0: 100, x1: 372, y1: 180 },
    ];
    const cell = (c: number, r: number, text: string, font: 'F1' | 'F2' = 'F1'): PdfText => ({
      x: xs[c] + 4,
      y: ys[r] + 14,
      text,
      size: 10,
      font,
    });
    const texts = [
      cell(0, 0, 'Region', 'F2'),
      { x: 176, y: 114, text: 'Sales', size: 10, font: 'F2' as const },
      cell(1, 1, 'Q1', 'F2'),
      cell(2, 1, 'Q2', 'F2'),
      cell(0, 2, 'North'),
      cell(1, 2, '10'),
      cell(2, 2, '20'),
      cell(0, 3, 'South'),
      cell(1, 3, '30'),
      cell(2, 3, '40'),
    ];
    const doc = await parsePdf(makePdf([{ texts, lines }]), opts());
    expect(doc.sections).toHaveLength(1);
    expect(doc.sections[0].html).toBe(
      '<table><tr><th rowspan="2">Region</th><th colspan="2">Sales</th></tr><tr><th>Q1</th><th>Q2</th></tr>' +
        '<tr><td>North</td><td>10</td><td>20</td></tr><tr><td>South</td><td>30</td><td>40</td></tr></table>',
    );
  });

  it('finds an unruled table from text alignment and leaves the prose around it alone', async () => {
    const rows = [
      ['Country', 'Capital', 'Population'],
      ['France', 'Paris', '68.4'],
      ['Japan', 'Tokyo', '124.5'],
      ['Brazil', 'Brasilia', '203.1'],
      ['Kenya', 'Nairobi', '55.1'],
    ];
    const texts: PdfText[] = [
      ...column(72, 90, 460, [sentence('Intro', 2)]).texts,
      ...rows.flatMap((row, r) =>
        row.map((text, c) => ({
          x: [72, 200, 330][c],
          y: 160 + r * 14,
          text,
          size: 10,
          font: r === 0 ? ('F2' as const) : ('F1' as const),
        })),
      ),
      ...column(72, 250, 460, [sentence('Outro', 2)]).texts,
    ];
    const doc = await parsePdf(makePdf([{ texts }]), opts());
    expect(doc.sections.map((s) => s.kind)).toEqual(['text', 'table', 'text']);
    expect(doc.sections[0].text).toBe(sentence('Intro', 2));
    expect(doc.sections[2].text).toBe(sentence('Outro', 2));
    expect(doc.sections[1].html).toBe(
      '<table><tr><th>Country</th><th>Capital</th><th>Population</th></tr><tr><td>France</td><td>Paris</td><td>68.4</td></tr>' +
        '<tr><td>Japan</td><td>Tokyo</td><td>124.5</td></tr><tr><td>Brazil</td><td>Brasilia</td><td>203.1</td></tr>' +
        '<tr><td>Kenya</td><td>Nairobi</td><td>55.1</td></tr></table>',
    );
  });

  it('gives an unruled table a spanning group header (colspan) and a two-row label (rowspan)', async () => {
    const rows: Array<Array<[number, string]>> = [
      [
        [72, 'Region'],
        [215, 'Sales in 2023'],
      ],
      [
        [200, 'First half'],
        [300, 'Second half'],
      ],
      [
        [72, 'North'],
        [200, '120'],
        [300, '135'],
      ],
      [
        [72, 'South'],
        [200, '98'],
        [300, '101'],
      ],
      [
        [72, 'West'],
        [200, '77'],
        [300, '80'],
      ],
    ];
    const texts: PdfText[] = rows.flatMap((row, r) =>
      row.map(([x, text]) => ({
        x,
        y: 150 + r * 14,
        text,
        size: 10,
        font: r < 2 ? ('F2' as const) : ('F1' as const),
      })),
    );
    const doc = await parsePdf(makePdf([{ texts }]), opts());
    expect(doc.sections.map((s) => s.html)).toEqual([
      '<table><tr><th rowspan="2">Region</th><th colspan="2">Sales in 2023</th></tr><tr><th>First half</th><th>Second half</th></tr>' +
        '<tr><td>North</td><td>120</td><td>135</td></tr><tr><td>South</td><td>98</td><td>101</td></tr><tr><td>West</td><td>77</td><td>80</td></tr></table>',
    ]);
  });

  it('does not mistake two columns of prose for a table', async () => {
    const left = [sentence('Papa', 3)];
    const right = [sentence('Quebec', 3)];
    const texts = [...column(54, 100, 240, left).texts, ...column(318, 100, 240, right).texts];
    const doc = await parsePdf(makePdf([{ texts }]), opts());
    expect(doc.sections.map((s) => s.kind)).toEqual(['text', 'text']);
  });
});
