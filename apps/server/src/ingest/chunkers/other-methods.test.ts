import { describe, expect, it } from 'vitest';
import { chunkDocument } from './index.js';
import { contents, ctx, doc, figure, table, text, title } from './test-fixtures.js';

describe('presentation', () => {
  it('makes one chunk per slide with the slide image', () => {
    const s1 = Buffer.from('slide-1');
    const s2 = Buffer.from('slide-2');
    const d = doc([
      { kind: 'title', text: 'Q3 Results', page: 1 },
      { kind: 'text', text: 'Revenue up 10%', page: 1, image: s1 },
      { kind: 'title', text: 'Outlook', page: 2, image: s2 },
      { kind: 'text', text: 'Growth continues', page: 2 },
      { kind: 'text', text: '   ', page: 3, image: Buffer.from('blank') },
    ]);
    expect(chunkDocument('presentation', d, ctx({}, 'deck.pptx'))).toEqual([
      { content_with_weight: 'Q3 Results\nRevenue up 10%', positions: [], image: s1 },
      { content_with_weight: 'Outlook\nGrowth continues', positions: [], image: s2 },
    ]);
  });

  it('groups PDF sections by the page of their positions', () => {
    const d = doc([
      text('Slide one text', [[1, 0, 100, 0, 20]]),
      text('more one', [[1, 0, 100, 30, 40]]),
      text('Slide two', [[2, 0, 100, 0, 20]]),
    ]);
    expect(chunkDocument('presentation', d, ctx({}, 'deck.pdf'))).toEqual([
      {
        content_with_weight: 'Slide one text\nmore one',
        positions: [
          [1, 0, 100, 0, 20],
          [1, 0, 100, 30, 40],
        ],
      },
      { content_with_weight: 'Slide two', positions: [[2, 0, 100, 0, 20]] },
    ]);
  });
});

describe('picture', () => {
  it('joins OCR text and description into one image chunk keeping the picture', () => {
    const img = Buffer.from('png');
    const d = doc([figure('STOP', img), text('A red octagonal stop sign at a crossing.')]);
    expect(chunkDocument('picture', d, ctx({}, 'sign.png'))).toEqual([
      {
        content_with_weight: 'STOP\nA red octagonal stop sign at a crossing.',
        positions: [],
        doc_type_kwd: 'image',
        image: img,
      },
    ]);
    expect(chunkDocument('picture', doc([text('A cat jumps.')]), ctx({}, 'cat.mp4'))[0].doc_type_kwd).toBe(
      'video',
    );
    expect(chunkDocument('picture', doc([figure('', img)]), ctx({}, 'blank.png'))).toEqual([]);
  });
});

describe('one', () => {
  it('makes the whole document one chunk with all positions, tables as HTML, no page furniture', () => {
    const d = doc([
      title('Report', 1, { positions: [[1, 0, 1, 0, 1]] }),
      text('Body', [[1, 0, 1, 2, 3]]),
      table('<table><tr><td>x</td></tr></table>', 'x', [[2, 0, 1, 0, 1]]),
      { kind: 'footer', text: 'Page 1' },
    ]);
    expect(chunkDocument('one', d, ctx({}, 'r.pdf'))).toEqual([
      {
        content_with_weight: 'Report\nBody\n<table><tr><td>x</td></tr></table>',
        positions: [
          [1, 0, 1, 0, 1],
          [1, 0, 1, 2, 3],
          [2, 0, 1, 0, 1],
        ],
      },
    ]);
  });
});

describe('knowledge_graph, email and audio', () => {
  it('knowledge_graph makes naive chunks of 8192 tokens split at newlines by default', () => {
    const line = 'Marie Curie worked with Pierre Curie in Paris on radioactivity research.';
    const d = doc(Array.from({ length: 800 }, () => text(line)));
    const chunks = chunkDocument('knowledge_graph', d, ctx({}, 'k.txt'));
    expect(chunks.length).toBe(2);
    expect(chunks[0].content_with_weight.split('\n').length).toBeGreaterThan(500);
    expect(
      chunkDocument('knowledge_graph', d, ctx({ chunk_token_num: 8192, delimiter: '\n' }, 'k.txt')),
    ).toEqual(chunks);
  });

  it('email merges headers and body naively', () => {
    const d = doc([
      { kind: 'header', text: 'From: a@b.c\nTo: d@e.f\nSubject: Hi' },
      text('Hello there, the meeting moved to Friday.'),
    ]);
    expect(contents(chunkDocument('email', d, ctx({}, 'm.eml')))).toEqual([
      'From: a@b.c\nTo: d@e.f\nSubject: Hi\nHello there, the meeting moved to Friday.',
    ]);
  });

  it('audio keeps the transcript as one chunk', () => {
    expect(
      contents(
        chunkDocument('audio', doc([text('hello everyone'), text('welcome to the show')]), ctx({}, 'a.mp3')),
      ),
    ).toEqual(['hello everyone\nwelcome to the show']);
  });
});
