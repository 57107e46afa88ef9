import { describe, expect, it } from 'vitest';
import { ParseError } from '../../errors.js';
import type { ParseOptions, Section } from '../../types.js';
import {
  type PdfPage,
  type PdfText,
  makePdf,
  textBlock,
  wrapText,
} from '../../../../test/fixtures/pdf/make-pdf.js';
import { benchPage, rng } from '../../../../test/fixtures/pdf/sample-docs.js';
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

const textOf = (sections: Section[]): string[] => sections.map((s) => s.text);

describe('parsePdf: text, positions and reading order', () => {
  it('reads a two-column page column by column, below a full-width title, with positions in points from the top', async () => {
    const left = [sentence('Alpha', 4), sentence('Bravo', 3)];
    const right = [sentence('Charlie', 4), sentence('Delta', 3)];
    const page: PdfPage = {
      texts: [
        { x: 54, y: 60, text: 'Columns Are Read In Order', size: 20, font: 'F2' },
        ...column(54, 100, 240, left).texts,
        ...column(318, 100, 240, right).texts,
      ],
    };
    const doc = await parsePdf(makePdf([page]), opts());
    expect(doc.pageCount).toBe(1);
    expect(doc.title).toBe('Columns Are Read In Order');
    expect(textOf(doc.sections)).toEqual(['Columns Are Read In Order', ...left, ...right]);
    expect(doc.sections[0]).toMatchObject({ kind: 'title', level: 1 });
    // Helvetica ascends 0.718 em and descends 0.207 em: the first left line (baseline 100, 10 pt).
    const [pg, x0, x1, top] = doc.sections[1].positions![0];
    expect(pg).toBe(1);
    expect(x0).toBeCloseTo(54, 1);
    expect(x1).toBeLessThanOrEqual(294.5);
    expect(x1).toBeGreaterThan(250);
    expect(top).toBeCloseTo(100 - 7.18, 0);
    const rightPos = doc.sections[3].positions![0];
    expect(rightPos[1]).toBeCloseTo(318, 1);
  });

  it('reads three narrow columns with a 12 pt gutter without interleaving them', async () => {
    const cols = [
      [sentence('Echo', 3), sentence('Foxtrot', 2)],
      [sentence('Golf', 3), sentence('Hotel', 2)],
      [sentence('India', 3), sentence('Juliet', 2)],
    ];
    const texts = cols.flatMap((paras, c) => column(54 + c * 172, 80, 160, paras).texts);
    const doc = await parsePdf(makePdf([{ texts }]), opts());
    expect(textOf(doc.sections)).toEqual(cols.flat());
  });

  it('puts a full-width block between two column bands after the upper band and before the lower one', async () => {
    const upper = [sentence('Kilo', 2), sentence('Lima', 2)];
    const lower = [sentence('Mike', 2), sentence('November', 2)];
    const top = column(54, 80, 240, [upper[0]]);
    const topRight = column(318, 80, 240, [upper[1]]);
    const midY = Math.max(top.y, topRight.y) + 10;
    const wide =
      'This full width statement spans both columns of the page and separates the two bands of text.';
    const texts = [
      ...top.texts,
      ...topRight.texts,
      { x: 54, y: midY, text: wide, size: 10 },
      ...column(54, midY + 30, 240, [lower[0]]).texts,
      ...column(318, midY + 30, 240, [lower[1]]).texts,
    ];
    const doc = await parsePdf(makePdf([{ texts }]), opts());
    expect(textOf(doc.sections)).toEqual([upper[0], upper[1], wide, lower[0], lower[1]]);
  });

  it('undoes end-of-line hyphenation but keeps hyphenated compounds', async () => {
    const texts = textBlock(72, 100, [
      'Hyphenation is an ex-',
      'ample of a typographic conven-',
      'tion that is state-of-the-',
      'art and Lucene-',
      'BM25 is a compound.',
    ]);
    const doc = await parsePdf(makePdf([{ texts }]), opts());
    expect(textOf(doc.sections)).toEqual([
      'Hyphenation is an example of a typographic convention that is state-of-the-art and Lucene-BM25 is a compound.',
    ]);
  });

  it('detects titles and their levels from font size and weight, lists, and monospaced code', async () => {
    const body = sentence('Body', 2);
    const texts: PdfText[] = [
      { x: 72, y: 72, text: 'Guide To Parsing', size: 22, font: 'F2' },
      { x: 72, y: 110, text: '1 Getting Started', size: 15, font: 'F2' },
      ...column(72, 135, 460, [body]).texts,
      { x: 72, y: 185, text: 'Installation notes', size: 10, font: 'F2' },
      ...textBlock(
        72,
        205,
        ['- first install the tools', '- then run the parser', '- finally read the output'],
        10,
      ),
      ...textBlock(72, 260, ['function add(a, b) {', '  return a + b;', '}'], 10, 12, 'F3'),
      { x: 72, y: 320, text: '2 Next Steps', size: 15, font: 'F2' },
    ];
    const doc = await parsePdf(makePdf([{ texts }]), opts());
    expect(doc.sections.map((s) => [s.kind, s.level ?? 0, s.text])).toEqual([
      ['title', 1, 'Guide To Parsing'],
      ['title', 2, '1 Getting Started'],
      ['text', 0, body],
      ['title', 3, 'Installation notes'],
      ['list', 0, '- first install the tools\n- then run the parser\n- finally read the output'],
      ['code', 0, 'function add(a, b) {\n  return a + b;\n}'],
      ['title', 2, '2 Next Steps'],
    ]);
  });

  it('drops running heads, footers and page numbers repeated across pages', async () => {
    const pages: PdfPage[] = [1, 2, 3].map((n) => ({
      texts: [
        { x: 72, y: 36, text: 'ACME Quarterly Review - Volume 7', size: 8 },
        ...column(72, 100, 460, [sentence(`Page${n}`, 2)]).texts,
        { x: 300, y: 760, text: String(n), size: 8 },
        { x: 72, y: 775, text: `Confidential draft printed 2024-0${n}-01`, size: 7 },
      ],
    }));
    const doc = await parsePdf(makePdf(pages), opts());
    expect(textOf(doc.sections)).toEqual([sentence('Page1', 2), sentence('Page2', 2), sentence('Page3', 2)]);
    expect(doc.sections.map((s) => s.positions![0][0])).toEqual([1, 2, 3]);
  });

  it('joins a paragraph that continues from the bottom of one column to the top of the next', async () => {
    const words = sentence('Oscar', 6).split(' ');
    // Cut mid-sentence: "… talks about" | "oscar matters …".
    const firstPart = words.slice(0, 37).join(' ');
    const secondPart = words.slice(37).join(' ');
    const a = column(54, 600, 240, [firstPart]);
    const b = column(318, 80, 240, [secondPart]);
    const doc = await parsePdf(makePdf([{ texts: [...a.texts, ...b.texts] }]), opts());
    expect(textOf(doc.sections)).toEqual([`${firstPart} ${secondPart}`]);
    expect(doc.sections[0].positions).toHaveLength(2);
  });

  it('honours fromPage/toPage (0-based, end exclusive) and reports progress up to 1', async () => {
    const pages: PdfPage[] = [1, 2, 3, 4, 5].map((n) => ({
      texts: textBlock(72, 100, [`This is the body text of page number ${n}.`]),
    }));
    const progress: number[] = [];
    const doc = await parsePdf(
      makePdf(pages),
      opts({ fromPage: 1, toPage: 3, onProgress: (f) => void progress.push(f) }),
    );
    expect(doc.pageCount).toBe(5);
    expect(textOf(doc.sections)).toEqual([
      'This is the body text of page number 2.',
      'This is the body text of page number 3.',
    ]);
    expect(doc.sections.map((s) => s.positions![0][0])).toEqual([2, 3]);
    expect(progress.at(-1)).toBe(1);
    expect([...progress].sort((a, b) => a - b)).toEqual(progress);
  });

  it('stops when onProgress throws (a cancelled task)', async () => {
    const pages: PdfPage[] = [1, 2, 3].map((n) => ({ texts: textBlock(72, 100, [`Page ${n}.`]) }));
    const cancel = (f: number) => {
      if (f > 0.3) throw new Error('Task has been canceled.');
    };
    await expect(parsePdf(makePdf(pages), opts({ onProgress: cancel }))).rejects.toThrow(
      'Task has been canceled.',
    );
  });

  it('"Plain Text" mode returns each page as text in content order, without layout analysis', async () => {
    const texts: PdfText[] = [
      ...textBlock(54, 100, ['left one', 'left two'], 10),
      ...textBlock(318, 100, ['right one', 'right two'], 10),
    ];
    const doc = await parsePdf(
      makePdf([{ texts }, { texts: textBlock(72, 90, ['second page']) }]),
      opts({ layoutRecognize: 'Plain Text' }),
    );
    expect(doc.sections.map((s) => [s.kind, s.text, s.positions![0][0]])).toEqual([
      ['text', 'left one\nleft two\nright one\nright two', 1],
      ['text', 'second page', 2],
    ]);
  });
});

describe('parsePdf: bad input', () => {
  const good = (): Buffer =>
    makePdf(
      [1, 2, 3, 4].map((n) => ({ texts: textBlock(72, 100, [`Page ${n} has some text on it.`]) })),
      { compress: true },
    );

  it('refuses a zero-byte file', async () => {
    await expect(parsePdf(Buffer.alloc(0), opts())).rejects.toThrow(new ParseError('The file is empty.'));
  });

  it('refuses bytes that are not a PDF', async () => {
    const err = await parsePdf(Buffer.from('PK\u0003\u0004 this is a zip, not a pdf'), opts()).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ParseError);
    expect((err as Error).message).toBe('The file is not a PDF (it has no %PDF header).');
  });

  it.each([0.2, 0.5, 0.9])('refuses a PDF truncated to %s of its length', async (fraction) => {
    const pdf = good();
    const err = await parsePdf(pdf.subarray(0, Math.floor(pdf.length * fraction)), opts()).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ParseError);
    expect((err as Error).message).toMatch(
      /^The PDF is truncated \(it ends before its end-of-file marker\) and cannot be read\./,
    );
  });

  it('refuses a password-protected PDF', async () => {
    const pdf = makePdf([{ texts: textBlock(72, 100, ['secret']) }], { encrypt: true });
    const err = await parsePdf(pdf, opts()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ParseError);
    expect((err as Error).message).toBe(
      'The PDF is encrypted with a password and cannot be read. Remove the password and upload it again.',
    );
  });

  it('reports the real page count when the page tree claims an absurd one', async () => {
    const pdf = makePdf([{ texts: textBlock(72, 100, ['only page']) }], { fakePageCount: 100_000_000 });
    const doc = await parsePdf(pdf, opts());
    expect(doc.pageCount).toBe(1);
    expect(textOf(doc.sections)).toEqual(['only page']);
  });

  it('refuses a small file that really declares more pages than supported', async () => {
    const pdf = makePdf([{ texts: textBlock(72, 100, ['same page again and again']) }], {
      repeatPages: 150_000,
    });
    const err = await parsePdf(pdf, opts()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ParseError);
    expect((err as Error).message).toBe('The PDF declares 150000 pages; at most 100000 pages are supported.');
  });

  it('never fails with anything but a ParseError on randomly corrupted files', async () => {
    const pdf = makePdf(
      [1, 2, 3].map((n) => benchPage(n)),
      { compress: true },
    );
    const rand = rng(42);
    let parsed = 0;
    for (let i = 0; i < 25; i++) {
      const bad = Buffer.from(pdf);
      const flips = 1 + Math.floor(rand() * 40);
      for (let k = 0; k < flips; k++) bad[Math.floor(rand() * bad.length)] = Math.floor(rand() * 256);
      const out = await parsePdf(bad, opts()).catch((e: unknown) => e);
      if (out instanceof Error) expect(out).toBeInstanceOf(ParseError);
      else parsed++;
    }
    // Most damage is survivable: pdf.js recovers and the damaged pages still give text.
    expect(parsed).toBeGreaterThan(0);
  });

  it('leaves the caller’s buffer intact', async () => {
    const pdf = good();
    const copy = Buffer.from(pdf);
    await parsePdf(pdf, opts());
    expect(pdf.equals(copy)).toBe(true);
  });
});
