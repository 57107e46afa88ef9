import { describe, expect, it } from 'vitest';
import { chunkDocument } from './index.js';
import { detectBulletStyle, BULLET_STYLES } from './numbering.js';
import { contents, ctx, doc, table, text, title } from './test-fixtures.js';

describe('laws', () => {
  it('groups each article with its clauses under its chapter (English numbering)', () => {
    const d = doc([
      text('Data Protection Act'),
      text('Chapter I General provisions'),
      text('Article 1 Subject matter'),
      text('(1) This Act lays down rules on the protection of persons.'),
      text('(2) It protects fundamental rights.'),
      text('Article 2 Scope'),
      text('(1) This Act applies to automated processing.'),
      text('Chapter II Principles'),
      text('Article 3 Lawfulness'),
      text('Processing shall be lawful only if consent was given.'),
    ]);
    expect(contents(chunkDocument('laws', d, ctx()))).toEqual([
      'Data Protection Act',
      'Chapter I General provisions\nArticle 1 Subject matter\n(1) This Act lays down rules on the protection of persons.\n(2) It protects fundamental rights.',
      'Chapter I General provisions\nArticle 2 Scope\n(1) This Act applies to automated processing.',
      'Chapter II Principles\nArticle 3 Lawfulness\nProcessing shall be lawful only if consent was given.',
    ]);
  });

  it('reads Chinese 第…章 / 第…条 numbering, even from one multi-line text section', () => {
    const d = doc([
      text(
        '第一章 总则\n第一条 为了保护公民的合法权益，制定本法。\n（一）保护个人信息；\n（二）规范处理活动。\n' +
          '第二条 本法适用于境内的处理活动。\n第二章 规则\n第三条 处理个人信息应当遵循合法原则。',
      ),
    ]);
    expect(contents(chunkDocument('laws', d, ctx({}, 'law.txt', 'Chinese')))).toEqual([
      '第一章 总则\n第一条 为了保护公民的合法权益，制定本法。\n（一）保护个人信息；\n（二）规范处理活动。',
      '第一章 总则\n第二条 本法适用于境内的处理活动。',
      '第二章 规则\n第三条 处理个人信息应当遵循合法原则。',
    ]);
  });

  it('uses decimal numbering (1. / 1.1) as the two levels', () => {
    const d = doc([
      text('1. Definitions'),
      text('1.1 "Agreement" means this document.'),
      text('1.2 "Party" means a signatory.'),
      text('Each party signs below.'),
      text('2. Term'),
      text('2.1 The term is one year.'),
    ]);
    expect(contents(chunkDocument('laws', d, ctx()))).toEqual([
      '1. Definitions\n1.1 "Agreement" means this document.',
      '1. Definitions\n1.2 "Party" means a signatory.\nEach party signs below.',
      '2. Term\n2.1 The term is one year.',
    ]);
  });

  it('splits an article longer than the budget, each piece keeping the hierarchy', () => {
    const d = doc([
      text('Article 1 Duties'),
      ...['one', 'two', 'three', 'four'].map((w) => text(`The ${w} duty applies to everyone here.`)),
    ]);
    expect(contents(chunkDocument('laws', d, ctx({ chunk_token_num: 20 })))).toEqual([
      'Article 1 Duties\nThe one duty applies to everyone here.\nThe two duty applies to everyone here.',
      'Article 1 Duties\nThe three duty applies to everyone here.\nThe four duty applies to everyone here.',
    ]);
  });

  it('falls back to naive merging when nothing is numbered', () => {
    const d = doc([text('No structure here.'), text('Just two lines.')]);
    expect(contents(chunkDocument('laws', d, ctx()))).toEqual(['No structure here.\nJust two lines.']);
  });
});

describe('book', () => {
  it('merges hierarchically so every chunk starts with its section path', () => {
    const d = doc([
      title('Chapter 1 Beginnings', 1),
      text('It was a bright cold day in April.'),
      title('1.1 The Station', 2),
      text('The train arrived late.'),
      text('Nobody waited on the platform.'),
      title('1.2 The Town', 2),
      text('The town was quiet.'),
      title('Chapter 2 Endings', 1),
      text('Everything ends.'),
      table('<table><tr><td>Map</td></tr></table>', 'Map'),
    ]);
    const chunks = chunkDocument('book', d, ctx());
    expect(contents(chunks)).toEqual([
      'Chapter 1 Beginnings\nIt was a bright cold day in April.',
      'Chapter 1 Beginnings\n1.1 The Station\nThe train arrived late.\nNobody waited on the platform.',
      'Chapter 1 Beginnings\n1.2 The Town\nThe town was quiet.',
      'Chapter 2 Endings\nEverything ends.',
      '<table><tr><td>Map</td></tr></table>',
    ]);
    expect(chunks[4].doc_type_kwd).toBe('table');
  });

  it('detects the numbering style on plain lines and keeps up to 5 levels of path', () => {
    const d = doc([
      text('# Part'),
      text('## Chapter'),
      text('### Section'),
      text('#### Sub'),
      text('##### Subsub'),
      text('###### Deepest heading'),
      text('Body text.'),
      text('###### Another deep heading'),
      text('More body.'),
    ]);
    expect(detectBulletStyle(d.sections.map((s) => s.text))).toBe(
      BULLET_STYLES.findIndex((s) => s.name === 'markdown'),
    );
    expect(contents(chunkDocument('book', d, ctx()))).toEqual([
      // The sixth level is below the 5-level path: its headings stay inside the body.
      '# Part\n## Chapter\n### Section\n#### Sub\n##### Subsub\n###### Deepest heading\nBody text.\n###### Another deep heading\nMore body.',
    ]);
  });

  it('keeps a heading that has no text below it as a chunk of its own path', () => {
    const d = doc([title('Preface', 1), title('Chapter 1', 1), text('Once upon a time.')]);
    expect(contents(chunkDocument('book', d, ctx()))).toEqual(['Preface', 'Chapter 1\nOnce upon a time.']);
  });

  it('falls back to a naive merge of 256 tokens without any heading style', () => {
    const sentence = 'This sentence has exactly ten tokens in it, I think.';
    const d = doc(Array.from({ length: 60 }, () => text(sentence)));
    const chunks = chunkDocument('book', d, ctx());
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunkDocument('naive', d, ctx({ chunk_token_num: 256 }))).toEqual(chunks);
  });
});
