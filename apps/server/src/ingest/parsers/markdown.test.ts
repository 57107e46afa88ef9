import { describe, expect, it } from 'vitest';
import { parseMarkdown } from './markdown.js';

const md = `---
title: "Front Title"
tags: [a, b]
---
# Guide

Intro paragraph
with two lines.

Setext Heading
--------------

- item one
- item two
  - nested item

1. first
2. second

\`\`\`ts
const a = 1;

const b = '# not a heading';
\`\`\`

| Name | Qty |
|:-----|----:|
| Pen \\| blue | 3 |
| Ink | |

> quoted
> text

***

<table><tr><th>H</th><th>I</th></tr><tr><td rowspan="2">v</td><td>w</td></tr></table>

### Deep *heading* ###
`;

describe('parseMarkdown', () => {
  it('turns headings, code fences, tables, lists and quotes into ordered sections', async () => {
    const doc = await parseMarkdown(Buffer.from(md), { ext: 'md', fileName: 'g.md' });
    expect(doc.title).toBe('Front Title');
    expect(doc.sections).toEqual([
      { kind: 'title', text: 'Guide', level: 1 },
      { kind: 'text', text: 'Intro paragraph\nwith two lines.' },
      { kind: 'title', text: 'Setext Heading', level: 2 },
      { kind: 'list', text: '- item one\n- item two\n  - nested item' },
      { kind: 'list', text: '1. first\n2. second' },
      { kind: 'code', text: "const a = 1;\n\nconst b = '# not a heading';", fields: { language: 'ts' } },
      {
        kind: 'table',
        text: 'Name | Qty\nPen | blue | 3\nInk |',
        html: '<table><tr><th>Name</th><th>Qty</th></tr><tr><td>Pen | blue</td><td>3</td></tr><tr><td>Ink</td><td></td></tr></table>',
      },
      { kind: 'text', text: 'quoted\ntext' },
      {
        kind: 'table',
        text: 'H | I\nv | w',
        html: '<table><tr><th>H</th><th>I</th></tr><tr><td rowspan="2">v</td><td>w</td></tr></table>',
      },
      { kind: 'title', text: 'Deep *heading*', level: 3 },
    ]);
  });

  it('drops MDX imports, exports, JSX-only lines and comments but keeps code fences intact', async () => {
    const mdx =
      "import X from './x'\nexport const meta = {}\n\n# Title\n\n<Callout type=\"info\">\nBe careful.\n</Callout>\n{/* hidden */}\n\n```js\nimport y from 'y'\n```\n";
    const doc = await parseMarkdown(Buffer.from(mdx), { ext: 'mdx', fileName: 'a.mdx' });
    expect(doc.sections).toEqual([
      { kind: 'title', text: 'Title', level: 1 },
      { kind: 'text', text: 'Be careful.' },
      { kind: 'code', text: "import y from 'y'", fields: { language: 'js' } },
    ]);
    expect(doc.title).toBe('Title');
  });

  it('keeps an unclosed fence as code to the end and refuses empty and binary files', async () => {
    const doc = await parseMarkdown(Buffer.from('text\n\n```\nunclosed\ncode'), {
      ext: 'md',
      fileName: 'a.md',
    });
    expect(doc.sections).toEqual([
      { kind: 'text', text: 'text' },
      { kind: 'code', text: 'unclosed\ncode', fields: undefined },
    ]);
    await expect(parseMarkdown(Buffer.alloc(0), { ext: 'md', fileName: 'a.md' })).rejects.toThrow(
      'The file is empty.',
    );
    await expect(
      parseMarkdown(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0]), { ext: 'md', fileName: 'a.md' }),
    ).rejects.toThrow('The Markdown file does not contain text');
  });
});
