import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ParsedDocument, ParseOptions } from '../../types.js';
import { parsePdf } from './index.js';

const dir = path.resolve(__dirname, '../../../../../../../shared/data/pdfs');
const read = (name: string): Buffer => fs.readFileSync(path.join(dir, name));
const opts = (fileName: string, o: Partial<ParseOptions> = {}): ParseOptions => ({
  ext: 'pdf',
  fileName,
  ...o,
});
const flat = (doc: ParsedDocument): string =>
  doc.sections
    .map((s) => s.text)
    .join('\n')
    .replace(/\s+/g, ' ');

/** Position of `sentence` in the document's text; it must be there, contiguous. */
function at(text: string, sentence: string): number {
  const i = text.indexOf(sentence);
  expect(i, `"${sentence}" not found contiguous in the parsed text`).toBeGreaterThanOrEqual(0);
  return i;
}

// Evaluation data (../shared/data/pdfs) is not part of the product; skip where it is not checked out.
describe.skipIf(!fs.existsSync(dir))('parsePdf on real-world PDFs', () => {
  const TEXT_ONLY = [
    'camelot_column_span_1.pdf',
    'docling_2305.03393v1-pg9.pdf',
    'docling_code_and_formula.pdf',
    'docling_multi_page.pdf',
    'docling_normal_4pages.pdf',
    'plumber_nics-2015-11.pdf',
    'unst_korean-text-with-tables.pdf',
    'unst_multi-column-2p.pdf',
  ];

  it.each(TEXT_ONLY)(
    '%s parses to sections on every page',
    async (name) => {
      const doc = await parsePdf(read(name), opts(name));
      expect(doc.pageCount).toBeGreaterThan(0);
      expect(doc.sections.length).toBeGreaterThan(0);
      const pages = new Set(doc.sections.flatMap((s) => s.positions!.map((p) => p[0])));
      expect(pages.size).toBe(doc.pageCount);
      for (const s of doc.sections) expect(s.text.trim().length).toBeGreaterThan(0);
    },
    60_000,
  );

  it('plumber_federal-register-2020-17221.pdf: all 15 pages read, DeepDOC on its text pages and first scanned figure', async () => {
    const buf = read('plumber_federal-register-2020-17221.pdf');
    // Plain Text touches every page quickly; the layout pass (with OCR) is run on pages 1–8 only, because
    // pages 8–14 are pictures whose OCR takes several seconds each on this machine.
    const plain = await parsePdf(buf, opts('fr.pdf', { layoutRecognize: 'Plain Text' }));
    expect(plain.pageCount).toBe(15);
    expect(new Set(plain.sections.map((s) => s.positions![0][0])).size).toBe(15);
    const deep = await parsePdf(buf, opts('fr.pdf', { fromPage: 0, toPage: 8 }));
    expect(deep.notes).toContain('OCR used on 1 page.');
    expect(flat(deep)).toContain('Airspeed or Mach indications are suspected to be unreliable');
  }, 180_000);

  it('unst_multi-column-2p.pdf: two columns are read one after the other, never interleaved', async () => {
    const text = flat(await parsePdf(read('unst_multi-column-2p.pdf'), opts('mc.pdf')));
    const abstract = at(
      text,
      'Open-domain question answering relies on efficient passage retrieval to select candidate contexts, where traditional sparse vector space models',
    );
    const intro = at(
      text,
      'the advances of reading comprehension models suggest a much simplified two-stage framework: (1) a context retriever first selects a small subset of passages',
    );
    const right = at(
      text,
      'Retrieval in open-domain QA is usually implemented using TF-IDF or BM25 (Robertson and Zaragoza, 2009), which matches keywords efficiently with an inverted index',
    );
    const rightLater = at(
      text,
      'However, it is generally believed that learning a good dense vector representation needs a large number of labeled pairs of question and contexts.',
    );
    expect(abstract).toBeLessThan(intro);
    expect(intro).toBeLessThan(right);
    expect(right).toBeLessThan(rightLater);
    // Page 2 continues the right column's last sentence.
    at(
      text,
      'setting new state-of-the-art results on multiple open-domain QA datasets, it also suffers from two weaknesses.',
    );
  }, 60_000);

  it('plumber_federal-register-2020-17221.pdf: three columns are read one after the other', async () => {
    const doc = await parsePdf(
      read('plumber_federal-register-2020-17221.pdf'),
      opts('fr.pdf', { fromPage: 0, toPage: 3 }),
    );
    const text = flat(doc);
    const left = at(
      text,
      'Since AD 2018–23–51 was issued, the agency has determined that final corrective action is necessary to address the unsafe condition.',
    );
    const middle = at(
      text,
      'The AD docket contains this NPRM, any comments received, and other information.',
    );
    const right = at(
      text,
      'CBI is commercial or financial information that is both customarily and actually treated as private by its owner.',
    );
    expect(left).toBeLessThan(middle);
    expect(middle).toBeLessThan(right);
    // The running head of pages 2 and 3 is not content; the paragraph it interrupted reads on.
    expect(text).not.toContain(
      'Federal Register / Vol. 85, No. 152 / Thursday, August 6, 2020 / Proposed Rules',
    );
    at(
      text,
      'was involved in an accident after takeoff from Soekarno-Hatta International Airport in Jakarta, Indonesia, resulting in 189 fatalities.',
    );
    expect(doc.sections.filter((s) => s.kind === 'table')).toHaveLength(0);
  }, 60_000);

  it('camelot_column_span_1.pdf: the table keeps its spanned header cells', async () => {
    const doc = await parsePdf(read('camelot_column_span_1.pdf'), opts('c.pdf'));
    const tables = doc.sections.filter((s) => s.kind === 'table');
    expect(tables).toHaveLength(1);
    const html = tables[0].html!;
    expect(html).toContain(
      '<tr><th rowspan="2">Sl. No.</th><th rowspan="2">Year</th><th rowspan="2">Population (in Lakh)</th>',
    );
    expect(html).toContain(
      '<th colspan="2">Accidental Deaths</th><th colspan="2">Suicides</th><th rowspan="2">Percentage Population growth</th></tr>',
    );
    expect(html).toContain('<tr><th>Incidence</th><th>Rate</th><th>Incidence</th><th>Rate</th></tr>');
    expect(html).toContain(
      '<tr><td>1.</td><td>1967</td><td>4999</td><td>126762</td><td>25.4</td><td>38829</td><td>7.8</td><td>2.2</td></tr>',
    );
    expect(html).toContain(
      '<tr><td>47.</td><td>2013</td><td>12288</td><td>400517</td><td>32.6</td><td>134799</td><td>11.0</td><td>1.0</td></tr>',
    );
  }, 60_000);

  it('plumber_nics-2015-11.pdf: the dense statistical table stays one table with its headers', async () => {
    const doc = await parsePdf(read('plumber_nics-2015-11.pdf'), opts('n.pdf'));
    const tables = doc.sections.filter((s) => s.kind === 'table');
    expect(tables).toHaveLength(1);
    const html = tables[0].html!;
    expect(html).toContain('<th rowspan="2">State / Territory</th>');
    for (const group of [
      'Pre-Pawn',
      'Redemption',
      'Returned/Disposition',
      'Private Sale',
      'Return to Seller - Private Sale',
    ]) {
      expect(html).toContain(`<th colspan="3">${group}</th>`);
    }
    expect(html).toContain(
      '<th>Permit</th><th>Handgun</th><th>Long Gun</th><th>*Other</th><th>**Multiple</th><th>Admin</th>',
    );
    expect(html).toContain('<th rowspan="2">Totals</th>');
    expect(html).toContain('<tr><td>Alabama</td><td>18,870</td><td>23,022</td><td>22,650</td>');
  }, 60_000);

  it('docling_2305.03393v1-pg9.pdf: the results table keeps multi-row headers and row spans', async () => {
    const doc = await parsePdf(read('docling_2305.03393v1-pg9.pdf'), opts('d.pdf'));
    const tables = doc.sections.filter((s) => s.kind === 'table');
    expect(tables).toHaveLength(1);
    expect(tables[0].html).toContain(
      '<tr><th rowspan="2"># enc-layers</th><th rowspan="2"># dec-layers</th><th rowspan="2">Language</th><th colspan="3">TEDs</th>' +
        '<th rowspan="2">mAP (0.75)</th><th rowspan="2">Inference time (secs)</th></tr><tr><th>simple</th><th>complex</th><th>all</th></tr>',
    );
    expect(tables[0].html).toContain(
      '<tr><td rowspan="2">6</td><td rowspan="2">6</td><td>OTSL</td><td>0.965</td><td>0.934</td><td>0.955</td><td>0.88</td><td>2.73</td></tr>',
    );
    // The caption and the body text around the table stay text.
    expect(flat(doc)).toContain(
      'Table 1. HPO performed in OTSL and HTML representation on the same transformer-based TableFormer [9] architecture',
    );
  }, 60_000);

  it('docling_ocr_test.pdf: the scanned page is read by OCR', async () => {
    const doc = await parsePdf(read('docling_ocr_test.pdf'), opts('o.pdf'));
    expect(doc.notes).toContain('OCR used on 1 page.');
    expect(flat(doc)).toContain(
      'Docling bundles PDF document conversion to JSON and Markdown in an easy self contained package',
    );
  }, 120_000);

  it('unst_table-multi-row-column-cells.pdf: the pictured table is read by OCR, merged cells included', async () => {
    const doc = await parsePdf(read('unst_table-multi-row-column-cells.pdf'), opts('t.pdf'));
    const tables = doc.sections.filter((s) => s.kind === 'table');
    expect(tables).toHaveLength(1);
    const html = tables[0].html!;
    expect(html).toContain('<th colspan="2">Results</th>');
    expect(html).toContain('<th>Accuracy</th><th>Time to complete</th>');
    expect(html).toContain(
      '<tr><td>Blind</td><td>5</td><td>1</td><td>4</td><td>34.5%, n=1</td><td>1199 sec, n=1</td></tr>',
    );
    expect(html).toContain(
      '<tr><td>Mobility</td><td>3</td><td>3</td><td>0</td><td>95.4%, n=3</td><td>1416 sec, n=3</td></tr>',
    );
    expect(html).toMatch(/<td rowspan="2">Low Vision<\/td>/);
  }, 120_000);

  it('Korean PDFs keep their Hangul text', async () => {
    const a = flat(await parsePdf(read('unst_korean-text-with-tables.pdf'), opts('k.pdf')));
    expect(a).toContain('할인점·주유·온라인쇼핑몰 1.5% 빅포인트 적립');
    expect(a).toContain('커피전문점·제과점·편의점 2% 빅포인트 적립');
    expect(a).toContain('이마트, 이마트 트레이더스, 롯데마트, 홈플러스');
    const b = await parsePdf(read('docling_normal_4pages.pdf'), opts('n4.pdf'));
    expect(b.title).toBe('코로나-19 관련 보험약관상재해보험금 지급문제 및 개선과제');
    expect(flat(b)).toContain(
      '세계보건기구(WHO)는 지난 2020. 3.11. 코로나-19가 세계적 유행(Pandemic) 단계에 돌입하였음을 선언하였다.',
    );
    const hangul = (flat(b).match(/[\uac00-\ud7af]/g) ?? []).length;
    expect(hangul).toBeGreaterThan(2000);
  }, 60_000);

  it('unst_korean-text-with-tables.pdf: its two tables are tables', async () => {
    const doc = await parsePdf(read('unst_korean-text-with-tables.pdf'), opts('k.pdf'));
    const tables = doc.sections.filter((s) => s.kind === 'table');
    expect(tables.length).toBeGreaterThanOrEqual(2);
    expect(tables[0].html).toContain('<tr><th>업종</th><th>적립 대상</th></tr>');
  }, 60_000);
});
