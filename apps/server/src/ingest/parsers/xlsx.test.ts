import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { writeCfb } from '../../../test/fixtures/office/cfb-writer.js';
import { writeXls } from '../../../test/fixtures/office/xls-writer.js';
import { excelHtmlChunks, excelRowLines, spreadsheetFields } from './spreadsheet.js';
import { countSpreadsheetRows, parseSpreadsheet } from './xlsx.js';

async function salesWorkbook(): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Sales');
  ws.addRow(['Region', 'Amount', 'Date', 'Share', 'Done']);
  for (let i = 1; i <= 13; i++) {
    ws.addRow([i <= 2 ? 'North' : `R${i}`, i * 100, new Date(Date.UTC(2024, 0, i)), i / 100, i % 2 === 1]);
  }
  ws.getColumn(3).numFmt = 'yyyy-mm-dd';
  ws.getColumn(4).numFmt = '0%';
  ws.mergeCells('A2:A3');
  ws.getCell('B15').value = { formula: 'B2*2', result: 200 };
  const other = wb.addWorksheet('Sheet2');
  other.addRow(['Name', '', 'Note']);
  other.addRow(['Ann', '', 'likes "tea"\nand cake']);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

const opts = (ext: string) => ({ ext, fileName: `t.${ext}` });

describe('parseSpreadsheet — xlsx', () => {
  it('yields 12-row table sections with row lines, repeated-header html, merges and typed cells', async () => {
    const doc = await parseSpreadsheet(await salesWorkbook(), opts('xlsx'));
    expect(doc.rowCount).toBe(15);
    expect(
      doc.sections.map((s) => [s.kind, spreadsheetFields(s)?.sheet, spreadsheetFields(s)?.cells.length]),
    ).toEqual([
      ['table', 'Sales', 12],
      ['table', 'Sales', 2],
      ['table', 'Sheet2', 1],
    ]);
    const first = spreadsheetFields(doc.sections[0])!;
    expect(first.header).toEqual(['Region', 'Amount', 'Date', 'Share', 'Done']);
    expect(first.lines[0]).toBe(
      'Region：North; Amount：100; Date：2024-01-01; Share：1%; Done：TRUE ——Sales',
    );
    expect(first.lines[1]).toBe('Amount：200; Date：2024-01-02; Share：2%; Done：FALSE ——Sales');
    expect(first.cells[0]).toEqual(['North', 100, new Date(Date.UTC(2024, 0, 1)), 0.01, true]);
    expect(first.rows[0]).toEqual({
      Region: 'North',
      Amount: '100',
      Date: '2024-01-01',
      Share: '1%',
      Done: 'TRUE',
    });
    expect(first.firstRow).toBe(2);
    expect(doc.sections[0].text.split('\n')).toHaveLength(12);
    expect(doc.sections[0].html).toContain('<tr><td rowspan="2">North</td><td>100</td>');
    expect(doc.sections[0].html).toContain('<tr><td>200</td><td>2024-01-02</td>');
    expect(doc.sections[1].html).toBe(
      '<table><caption>Sales</caption><tr><th>Region</th><th>Amount</th><th>Date</th><th>Share</th><th>Done</th></tr>' +
        '<tr><td>R13</td><td>1300</td><td>2024-01-13</td><td>13%</td><td>TRUE</td></tr>' +
        '<tr><td></td><td>200</td><td></td><td></td><td></td></tr></table>',
    );
    // Sheet names containing "sheet" get no suffix; an empty header column is simply not named.
    expect(doc.sections[2].text).toBe('Name：Ann; Note：likes "tea" and cake');
    expect(doc.sections[2].html).toContain('<td>likes &quot;tea&quot;<br>and cake</td>');
    expect(excelRowLines(doc.sections)).toHaveLength(15);
    expect(excelHtmlChunks(doc.sections)).toHaveLength(3);
  });

  it('treats fromPage/toPage as a data-row range across sheets', async () => {
    const doc = await parseSpreadsheet(await salesWorkbook(), { ...opts('xlsx'), fromPage: 13, toPage: 15 });
    expect(doc.rowCount).toBe(15);
    expect(await countSpreadsheetRows(await salesWorkbook(), 'xlsx')).toBe(15);
    expect(excelRowLines(doc.sections)).toEqual([
      'Amount：200 ——Sales',
      'Name：Ann; Note：likes "tea" and cake',
    ]);
  });

  it('refuses an empty file, a non-zip, a zip without a workbook and a malformed worksheet', async () => {
    await expect(parseSpreadsheet(Buffer.alloc(0), opts('xlsx'))).rejects.toThrow('The file is empty.');
    await expect(parseSpreadsheet(Buffer.from('a,b\n1,2\n'), opts('xlsx'))).rejects.toThrow(
      'This is not a valid XLSX file (it is not a zip archive).',
    );
    const zip = new JSZip();
    zip.file('readme.txt', 'x');
    await expect(
      parseSpreadsheet(await zip.generateAsync({ type: 'nodebuffer' }), opts('xlsx')),
    ).rejects.toThrow('This is not a valid XLSX file: the zip archive does not contain "xl/workbook.xml".');
    const good = await JSZip.loadAsync(await salesWorkbook());
    good.file(
      'xl/worksheets/sheet1.xml',
      '<worksheet><sheetData><row r="1"><c r="A1"><v>1</v></row></sheetData></worksheet>',
    );
    await expect(
      parseSpreadsheet(await good.generateAsync({ type: 'nodebuffer' }), opts('xlsx')),
    ).rejects.toThrow(
      'The part "xl/worksheets/sheet1.xml" is not well-formed XML (line 1: expected </c> but found </row>).',
    );
  });

  it('refuses a password-protected workbook (an OLE2 container with EncryptedPackage)', async () => {
    const buf = writeCfb([
      { path: 'EncryptedPackage', data: Buffer.alloc(5000, 7) },
      { path: 'EncryptionInfo', data: Buffer.alloc(200, 1) },
    ]);
    await expect(parseSpreadsheet(buf, opts('xlsx'))).rejects.toThrow(
      'The XLSX file is password-protected (encrypted); remove the password and upload it again.',
    );
  });
});

describe('parseSpreadsheet — xls (BIFF8)', () => {
  it('reads shared strings split across CONTINUE records, every number record, formulas, dates and merges', async () => {
    const buf = writeXls(
      [
        {
          name: '销售 Data',
          rows: [
            ['地区', 'Qty', 'Price', 'When', 'At', 'Rate', 'Flag', 'Calc', 'Text', 'Err', 'Note'],
            [
              '华北',
              7,
              12.34,
              { date: new Date(Date.UTC(2023, 11, 25)) },
              { datetime: new Date(Date.UTC(2023, 11, 25, 13, 45)) },
              { percent: 0.125 },
              true,
              { formulaNumber: 2.718281828 },
              { formulaString: 'computed text' },
              { error: 42 },
              { label: 'a label record' },
            ],
            [null, -3, 1.5, null, null, null, false, 1e-7, 'x', null, null],
            ['South', 10, 20, 30, 40, 2 ** 40],
          ],
          merges: [[1, 2, 0, 0]],
        },
        { name: 'Sheet1', rows: [['only', 'a', 'header']] },
      ],
      { sstLimit: 24, extraStreams: [{ path: '\u0005SummaryInformation', data: Buffer.alloc(100) }] },
    );
    const doc = await parseSpreadsheet(buf, opts('xls'));
    expect(doc.rowCount).toBe(3);
    const f = spreadsheetFields(doc.sections[0])!;
    expect(f.header).toEqual([
      '地区',
      'Qty',
      'Price',
      'When',
      'At',
      'Rate',
      'Flag',
      'Calc',
      'Text',
      'Err',
      'Note',
    ]);
    expect(f.lines).toEqual([
      '地区：华北; Qty：7; Price：12.34; When：2023-12-25; At：2023-12-25 13:45:00; Rate：12.5%; Flag：TRUE; Calc：2.718281828; Text：computed text; Err：#N/A; Note：a label record ——销售 Data',
      'Qty：-3; Price：1.5; Flag：FALSE; Calc：1e-7; Text：x ——销售 Data',
      '地区：South; Qty：10; Price：20; When：30; At：40; Rate：1099511627776 ——销售 Data',
    ]);
    expect(f.cells[0][3]).toEqual(new Date(Date.UTC(2023, 11, 25)));
    expect(f.cells[0][6]).toBe(true);
    expect(doc.sections[0].html).toContain('<tr><td rowspan="2">华北</td><td>7</td>');
    // The single-row sheet is kept as a header-only table.
    expect(doc.sections[1].text).toBe('only; a; header');
    expect(doc.sections[1].html).toBe(
      '<table><caption>Sheet1</caption><tr><th>only</th><th>a</th><th>header</th></tr></table>',
    );
  });

  it('reads a workbook stored in regular sectors (> 4 KB) and splits it every 12 rows', async () => {
    const rows = [['n', 'square']];
    for (let i = 1; i <= 400; i++) rows.push([`row ${i}`, String(i * i)]);
    const doc = await parseSpreadsheet(writeXls([{ name: 'Squares', rows }]), opts('xls'));
    expect(doc.sections).toHaveLength(34);
    expect(excelRowLines(doc.sections)[399]).toBe('n：row 400; square：160000 ——Squares');
    expect(doc.sections[33].html).toBe(
      '<table><caption>Squares</caption><tr><th>n</th><th>square</th></tr>' +
        Array.from(
          { length: 4 },
          (_, k) => `<tr><td>row ${397 + k}</td><td>${(397 + k) ** 2}</td></tr>`,
        ).join('') +
        '</table>',
    );
  });

  it('refuses encrypted, Excel 95 and non-workbook files with readable messages', async () => {
    const bof = Buffer.from([0x09, 0x08, 16, 0, 0x00, 0x06, 0x05, 0, 0, 0, 0, 0, 0, 0, 0, 0, 6, 0, 0, 0]);
    const filepass = Buffer.from([0x2f, 0x00, 2, 0, 1, 0]);
    const eof = Buffer.from([0x0a, 0, 0, 0]);
    const encrypted = writeCfb([{ path: 'Workbook', data: Buffer.concat([bof, filepass, eof]) }]);
    await expect(parseSpreadsheet(encrypted, opts('xls'))).rejects.toThrow(
      'The XLS file is password-protected (encrypted); remove the password and upload it again.',
    );
    const biff5 = writeCfb([{ path: 'Book', data: Buffer.concat([bof, eof]) }]);
    await expect(parseSpreadsheet(biff5, opts('xls'))).rejects.toThrow(
      'This XLS file uses the Excel 5.0/95 format',
    );
    const word = writeCfb([{ path: 'WordDocument', data: Buffer.alloc(600) }]);
    await expect(parseSpreadsheet(word, opts('xls'))).rejects.toThrow(
      'This is not a valid XLS file: the compound file contains no Excel workbook.',
    );
    const garbage = Buffer.from(Array.from({ length: 600 }, (_, i) => (i * 37) % 256));
    await expect(parseSpreadsheet(garbage, opts('xls'))).rejects.toThrow(
      'This is not a valid XLS file (it is neither an Excel workbook nor a text export).',
    );
    const truncated = writeXls([
      {
        name: 'A',
        rows: [
          ['x', 'y'],
          ['1', '2'],
        ],
      },
    ]).subarray(0, 1024);
    await expect(parseSpreadsheet(truncated, opts('xls'))).rejects.toThrow(/The XLS file is damaged/);
  });

  it('reads an .xls that is really an HTML export', async () => {
    const html =
      '<html><body><table><tr><th>a</th><th>b</th></tr><tr><td colspan="2">wide</td></tr><tr><td>1</td><td>2</td></tr></table></body></html>';
    const doc = await parseSpreadsheet(Buffer.from(html), opts('xls'));
    expect(excelRowLines(doc.sections)).toEqual(['a：wide', 'a：1; b：2']);
    expect(doc.sections[0].html).toContain('<tr><td colspan="2">wide</td></tr>');
    expect(doc.notes).toEqual(['The .xls file is an HTML export; its tables were read.']);
  });

  it('reads an .xls that is really a tab-separated text export', async () => {
    const doc = await parseSpreadsheet(Buffer.from('a\tb\n1\t2\n'), opts('xls'));
    expect(excelRowLines(doc.sections)).toEqual(['a：1; b：2']);
    expect(doc.notes).toEqual(['The .xls file is a text export; it was read as delimited text.']);
  });
});

describe('parseSpreadsheet — csv', () => {
  it('handles a BOM, semicolons, quoted delimiters, doubled quotes and line breaks inside quotes', async () => {
    const csv = '\uFEFFname;comment;score\r\n"Smith; John";"said ""hi""\r\nthen left";3,5\r\n\r\nDoe;;4\r\n';
    const doc = await parseSpreadsheet(Buffer.from(csv), opts('csv'));
    const f = spreadsheetFields(doc.sections[0])!;
    expect(f.header).toEqual(['name', 'comment', 'score']);
    expect(f.cells).toEqual([
      ['Smith; John', 'said "hi"\nthen left', '3,5'],
      ['Doe', null, '4'],
    ]);
    expect(f.lines).toEqual([
      'name：Smith; John; comment：said "hi" then left; score：3,5',
      'name：Doe; score：4',
    ]);
  });

  it('sniffs tabs and commas and decodes UTF-16 and GB18030', async () => {
    const tsv = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from('q\ta\nwhy?\tbecause, yes\n', 'utf16le'),
    ]);
    expect(excelRowLines((await parseSpreadsheet(tsv, opts('csv'))).sections)).toEqual([
      'q：why?; a：because, yes',
    ]);
    const gb = Buffer.from([
      0xc3, 0xfb, 0xb3, 0xc6, 0x2c, 0xca, 0xfd, 0xc1, 0xbf, 0x0a, 0xc6, 0xbb, 0xb9, 0xfb, 0x2c, 0x33, 0x0a,
    ]);
    expect(excelRowLines((await parseSpreadsheet(gb, opts('csv'))).sections)).toEqual([
      '名称：苹果; 数量：3',
    ]);
  });

  it('refuses an unclosed quote and binary content', async () => {
    await expect(parseSpreadsheet(Buffer.from('a,b\n1,"oops\n2,3\n'), opts('csv'))).rejects.toThrow(
      'The CSV file is malformed: the quoted field that starts on line 2 is never closed.',
    );
    await expect(
      parseSpreadsheet(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 1, 2]), opts('csv')),
    ).rejects.toThrow(
      'The CSV file does not contain text (it looks like binary data); check the file and its extension.',
    );
  });
});
