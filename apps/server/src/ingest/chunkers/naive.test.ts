import { describe, expect, it } from 'vitest';
import { countTokens } from '../tokens.js';
import { chunkDocument } from './index.js';
import { contents, ctx, doc, figure, row, table, text } from './test-fixtures.js';

const SENTENCES = [
  'The cat sat on the mat.', // 7 tokens
  'Dogs bark at night.', // 6
  'Birds sing in the morning.', // 7
  'Fish swim in the sea.', // 6
  'The sun rises in the east.', // 7
  'Rain falls in spring.', // 5
];

describe('naive chunking', () => {
  it('appends sections until the chunk exceeds chunk_token_num, then starts a new chunk', () => {
    expect(SENTENCES.map(countTokens)).toEqual([7, 6, 7, 6, 7, 5]);
    const chunks = chunkDocument('naive', doc(SENTENCES.map((s) => text(s))), ctx({ chunk_token_num: 16 }));
    expect(contents(chunks)).toEqual([
      'The cat sat on the mat.\nDogs bark at night.\nBirds sing in the morning.',
      'Fish swim in the sea.\nThe sun rises in the east.\nRain falls in spring.',
    ]);
    expect(chunks.every((c) => c.positions.length === 0 && c.doc_type_kwd === undefined)).toBe(true);
  });

  it('lowers the budget by the overlap and carries the tail of the previous chunk into the next one', () => {
    const chunks = chunkDocument(
      'naive',
      doc(SENTENCES.map((s) => text(s))),
      ctx({ chunk_token_num: 16, overlapped_percent: 50 }),
    );
    expect(contents(chunks)).toEqual([
      'The cat sat on the mat.\nDogs bark at night.',
      'Dogs bark at night.\nBirds sing in the morning.',
      'sing in the morning.\nFish swim in the sea.',
      'Fish swim in the sea.\nThe sun rises in the east.',
      'sun rises in the east.\nRain falls in spring.',
    ]);
  });

  it('cuts an oversized text at the delimiter characters (default \\n!?;。；！？) before merging', () => {
    const long =
      'Stop right there! Who goes there? Friend or foe; tell me now! The night is dark and full of sounds? We wait here';
    const chunks = chunkDocument('naive', doc([text(long)]), ctx({ chunk_token_num: 8 }));
    expect(contents(chunks)).toEqual([
      'Stop right there! Who goes there? Friend or foe;',
      // " The night is dark and full of sounds?" alone is 9 tokens > 8: cut at whitespace.
      'tell me now! The night is dark and full of',
      'sounds? We wait here',
    ]);
    // Nothing is lost: the chunks hold every word in order.
    expect(contents(chunks).join(' ').replace(/\s+/g, ' ')).toBe(long);
  });

  it('splits a text with no delimiter at whitespace so no piece exceeds the budget', () => {
    const words =
      'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon';
    const chunks = chunkDocument('naive', doc([text(words)]), ctx({ chunk_token_num: 8, delimiter: '\n' }));
    expect(contents(chunks)).toEqual([
      'alpha beta gamma delta epsilon zeta eta',
      'theta iota kappa lambda mu nu xi omicron pi rho sigma tau',
      'upsilon',
    ]);
  });

  it('cuts at every occurrence of a back-quoted delimiter, one chunk per piece, ignoring the budget', () => {
    const d = doc([text('intro\n## One\nalpha beta\n## Two\ngamma'), text('delta ## Three epsilon')]);
    const chunks = chunkDocument('naive', d, ctx({ chunk_token_num: 1, delimiter: '`##`' }));
    expect(contents(chunks)).toEqual(['intro', 'One\nalpha beta', 'Two\ngamma\ndelta', 'Three epsilon']);
  });

  it('accepts several multi-character back-quoted delimiters; plain characters are then not cut', () => {
    const d = doc([text('a; b ===c; d---e! f')]);
    const chunks = chunkDocument('naive', d, ctx({ chunk_token_num: 1, delimiter: '\n;!`===``---`' }));
    expect(contents(chunks)).toEqual(['a; b', 'c; d', 'e! f']);
  });

  it('keeps every section position in the chunk and custom pieces keep the positions of their sections', () => {
    const d = doc([
      text('First block of text on page one.', [[1, 10, 200, 20, 40]]),
      text('Second block right below it.', [[1, 10, 200, 45, 60]]),
      text('Third block on the next page.', [[2, 10, 200, 20, 40]]),
    ]);
    const merged = chunkDocument('naive', d, ctx({ chunk_token_num: 512 }));
    expect(merged).toHaveLength(1);
    expect(merged[0].positions).toEqual([
      [1, 10, 200, 20, 40],
      [1, 10, 200, 45, 60],
      [2, 10, 200, 20, 40],
    ]);
    const cut = chunkDocument(
      'naive',
      doc([d.sections[0], text('## tail'), d.sections[2]]),
      ctx({ delimiter: '`##`' }),
    );
    expect(contents(cut)).toEqual([
      'First block of text on page one.',
      'tail\nThird block on the next page.',
    ]);
    expect(cut[0].positions).toEqual([[1, 10, 200, 20, 40]]);
    expect(cut[1].positions).toEqual([[2, 10, 200, 20, 40]]);
  });

  it('makes tables and figures chunks of their own, with optional surrounding context', () => {
    const png = Buffer.from('figure-png');
    const d = doc([
      text('Before the table there is an introduction sentence.', [[1, 10, 100, 20, 30]]),
      table('<table><tr><td>a</td></tr></table>', 'a', [[1, 10, 200, 40, 80]]),
      text('After the table comes the conclusion of the section.', [[1, 10, 100, 90, 100]]),
      figure('Figure 1: a chart', png, [[2, 0, 50, 0, 50]]),
    ]);
    const plain = chunkDocument('naive', d, ctx({ chunk_token_num: 512 }));
    expect(plain).toEqual([
      {
        content_with_weight:
          'Before the table there is an introduction sentence.\nAfter the table comes the conclusion of the section.',
        positions: [
          [1, 10, 100, 20, 30],
          [1, 10, 100, 90, 100],
        ],
      },
      {
        content_with_weight: '<table><tr><td>a</td></tr></table>',
        positions: [[1, 10, 200, 40, 80]],
        doc_type_kwd: 'table',
      },
      {
        content_with_weight: 'Figure 1: a chart',
        positions: [[2, 0, 50, 0, 50]],
        doc_type_kwd: 'image',
        image: png,
      },
    ]);
    const withContext = chunkDocument(
      'naive',
      d,
      ctx({ chunk_token_num: 512, table_context_size: 4, image_context_size: 3 }),
    );
    expect(contents(withContext).slice(1)).toEqual([
      'an introduction sentence.\n<table><tr><td>a</td></tr></table>\nAfter the table comes',
      'the section.\nFigure 1: a chart',
    ]);
  });

  it('merges spreadsheet row lines by token count, or gives one chunk per 12-row HTML table with html4excel', () => {
    const rows = [0, 1, 2, 3, 4].map((i) => row('Staff', ['Name', 'Age'], [`Person${i}`, 30 + i]));
    expect(countTokens(rows[0].text)).toBe(8);
    expect(contents(chunkDocument('naive', doc(rows), ctx({ chunk_token_num: 10 })))).toEqual([
      'Name：Person0; Age：30\nName：Person1; Age：31',
      'Name：Person2; Age：32\nName：Person3; Age：33',
      'Name：Person4; Age：34',
    ]);
    const html = (n: number) => `<table><tr><th>Name</th></tr><tr><td>P${n}</td></tr></table>`;
    const tables = [1, 2].map((n) => ({
      ...table(html(n), `Name：P${n}`),
      fields: { sheet: 'Staff', html4excel: true },
    }));
    const chunks = chunkDocument('naive', doc(tables), ctx({ html4excel: true, table_context_size: 50 }));
    expect(chunks).toEqual([
      { content_with_weight: html(1), positions: [], doc_type_kwd: 'table' },
      { content_with_weight: html(2), positions: [], doc_type_kwd: 'table' },
    ]);
  });

  it('drops empty and whitespace-only chunks and page headers/footers', () => {
    const d = doc([
      text('   '),
      { kind: 'header', text: 'ACME Corp — page 3' },
      text('Real content.'),
      text('\n\n'),
      figure('  '),
    ]);
    expect(contents(chunkDocument('naive', d, ctx()))).toEqual(['Real content.']);
    expect(chunkDocument('naive', doc([]), ctx())).toEqual([]);
  });

  it('is deterministic and `general` is the same method', () => {
    const d = doc(SENTENCES.map((s, i) => text(s, [[1, 0, 10, i * 10, i * 10 + 5]])));
    const a = chunkDocument('naive', d, ctx({ chunk_token_num: 10, overlapped_percent: 20 }));
    const b = chunkDocument('general', d, ctx({ chunk_token_num: 10, overlapped_percent: 20 }));
    expect(b).toEqual(a);
    expect(chunkDocument('naive', d, ctx({ chunk_token_num: 10, overlapped_percent: 20 }))).toEqual(a);
  });

  it('chunks 10,000 sections of ~50 tokens well under a second', () => {
    const sections = Array.from({ length: 10_000 }, (_, i) =>
      text(
        `Paragraph ${i} explains how section ${i % 97} of the handbook relates to chapter ${i % 13}, ` +
          `why the committee revised it in ${1990 + (i % 30)}, and which ${i % 7} appendices list the exceptions.`,
      ),
    );
    const tokens = countTokens(sections[123].text);
    expect(tokens).toBeGreaterThan(35);
    expect(tokens).toBeLessThan(65);
    const started = performance.now();
    const chunks = chunkDocument('naive', doc(sections), ctx({ chunk_token_num: 512 }));
    const elapsed = performance.now() - started;
    expect(chunks.length).toBeGreaterThan(700);
    expect(chunks.length).toBeLessThan(1100);
    // Guard against re-tokenizing accumulated text (quadratic); typical runs take ~0.2–0.4 s here.
    expect(elapsed).toBeLessThan(1500);
  });
});
