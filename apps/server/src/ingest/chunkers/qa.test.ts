import { describe, expect, it } from 'vitest';
import { chunkDocument } from './index.js';
import { contents, ctx, doc, row, table, text, title } from './test-fixtures.js';

const qa = (d: ReturnType<typeof doc>, name: string, language = 'English') =>
  chunkDocument('qa', d, ctx({}, name, language)).map((c) => [c.content_with_weight, c.search_text]);

describe('qa', () => {
  it('reads tab-separated lines; a line without a tab continues the previous answer', () => {
    const d = doc([
      text('What is RAG?\tRetrieval-augmented generation.\nHow fast is it?\tVery fast.\nIt scales too.'),
    ]);
    expect(qa(d, 'faq.txt')).toEqual([
      ['Question: What is RAG?\tAnswer: Retrieval-augmented generation.', 'What is RAG?'],
      ['Question: How fast is it?\tAnswer: Very fast.\nIt scales too.', 'How fast is it?'],
    ]);
  });

  it('reads spreadsheet rows (column 1 question, column 2 answer), keeping a first row that is data', () => {
    const headed = doc([
      row('', ['Question', 'Answer'], ['What is X?', 'X is Y.']),
      row('', ['Question', 'Answer'], ['Why?', 'Because.']),
    ]);
    expect(contents(chunkDocument('qa', headed, ctx({}, 'faq.xlsx')))).toEqual([
      'Question: What is X?\tAnswer: X is Y.',
      'Question: Why?\tAnswer: Because.',
    ]);
    const headless = doc([row('', ['Is it free?', 'Yes.'], ['What is X?', 'X is Y.'])]);
    expect(contents(chunkDocument('qa', headless, ctx({}, 'faq.xlsx')))).toEqual([
      'Question: Is it free?\tAnswer: Yes.',
      'Question: What is X?\tAnswer: X is Y.',
    ]);
    const excelHtml = {
      ...table(
        '<table><tr><th>Q</th><th>A</th></tr><tr><td>Where?</td><td>Here.</td></tr></table>',
        'Q：Where?; A：Here.',
      ),
      fields: { sheet: 'FAQ', html4excel: true },
    };
    expect(contents(chunkDocument('qa', doc([excelHtml]), ctx({ html4excel: true }, 'faq.xlsx')))).toEqual([
      'Question: Where?\tAnswer: Here.',
    ]);
  });

  it('reads CSV text with quoted fields', () => {
    expect(
      contents(chunkDocument('qa', doc([text('q1,a1\n"q2, with comma","a2"')]), ctx({}, 'faq.csv'))),
    ).toEqual(['Question: q1\tAnswer: a1', 'Question: q2, with comma\tAnswer: a2']);
  });

  it('reads "Q:/A:" paragraphs across sections and keeps their positions', () => {
    const d = doc([
      text('Q: What is the capital of France?\nA: Paris.\nIt is big.\nQ: And of Spain?', [
        [1, 10, 300, 10, 60],
      ]),
      text('A: Madrid.', [[2, 10, 300, 10, 20]]),
    ]);
    const chunks = chunkDocument('qa', d, ctx({}, 'faq.pdf'));
    expect(chunks).toEqual([
      {
        content_with_weight: 'Question: What is the capital of France?\tAnswer: Paris.\nIt is big.',
        positions: [[1, 10, 300, 10, 60]],
        search_text: 'What is the capital of France?',
      },
      {
        content_with_weight: 'Question: And of Spain?\tAnswer: Madrid.',
        positions: [
          [1, 10, 300, 10, 60],
          [2, 10, 300, 10, 20],
        ],
        search_text: 'And of Spain?',
      },
    ]);
  });

  it('reads 问：/答： paragraphs and uses the Chinese prefixes', () => {
    const d = doc([text('问：今天星期几？\n答：星期一。\n问：明天呢？\n答：星期二。')]);
    expect(qa(d, 'faq.docx', 'Chinese')).toEqual([
      ['问题：今天星期几？\t回答：星期一。', '今天星期几？'],
      ['问题：明天呢？\t回答：星期二。', '明天呢？'],
    ]);
  });

  it('takes markdown headings as questions and the text below as answers', () => {
    const d = doc([
      title('Billing', 1),
      title('How do I pay?', 2),
      text('Use a card.'),
      title('Refunds', 2),
      text('Within 30 days.'),
      text('Contact support.'),
    ]);
    expect(qa(d, 'faq.md')).toEqual([
      ['Question: How do I pay?\tAnswer: Use a card.', 'How do I pay?'],
      ['Question: Billing / Refunds\tAnswer: Within 30 days.\nContact support.', 'Billing / Refunds'],
    ]);
    const raw = doc([text('# Install\nRun npm i.\n```\n# not a heading\n```\n# Usage\nCall it.')]);
    expect(contents(chunkDocument('qa', raw, ctx({}, 'faq.md')))).toEqual([
      'Question: Install\tAnswer: Run npm i.\n```\n# not a heading\n```',
      'Question: Usage\tAnswer: Call it.',
    ]);
  });

  it('falls back to lines ending with a question mark, and drops questions without answers', () => {
    const d = doc([
      text('Preamble text.'),
      text('Can I cancel?'),
      text('Yes, any time.'),
      text('Is there a trial?'),
    ]);
    expect(contents(chunkDocument('qa', d, ctx({}, 'faq.docx')))).toEqual([
      'Question: Can I cancel?\tAnswer: Yes, any time.',
    ]);
  });
});
