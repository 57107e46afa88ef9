import { describe, expect, it } from 'vitest';
import { parseRtf } from './rtf.js';

const rtf = String.raw`{\rtf1\ansi\ansicpg1252\deff0
{\fonttbl{\f0\froman Times New Roman;}{\f1\fswiss Arial;}}
{\colortbl;\red0\green0\blue0;}
{\*\generator Riched20 10.0;}
{\stylesheet{\ql \snext0 Normal;}{\s1\ql\outlinelevel0 \sbasedon0 \snext0 heading 1;}{\*\cs10 \additive Default Paragraph Font;}}
{\info{\title Hidden info title}{\author Ann}}
{\header \pard\plain Page header text\par}
\pard\plain\s1 Introduction\par
\pard\plain Caf\'e9 costs \u8364? 3 \endash{} nice {\b bold} text\line second line\par
{\*\pn ignored}\pard Visit {\field{\*\fldinst HYPERLINK "http://x"}{\fldrslt the site}} today.\par
{\listtext\pard\plain 1.\tab}\pard\ls1 First item\par
{\listtext\pard\plain 2.\tab}\pard\ls1 Second item\par
{\pict\pngblip 89504e470d0a}
\trowd\clmgf\cellx1000\clmrg\cellx2000\cellx3000
\pard\intbl Merged head\cell \cell Right\cell\row
\trowd\clvmgf\cellx1000\cellx2000\cellx3000
\pard\intbl A\cell B\par more\cell C\cell\row
\trowd\clvmrg\cellx1000\cellx2000\cellx3000
\pard\intbl \cell D\cell E\cell\row
\pard After the table with \{braces\} and a \\ backslash.\par
}`;

describe('parseRtf', () => {
  it('reads headings, text with escapes and unicode, fields, lists and merged tables', async () => {
    const doc = await parseRtf(Buffer.from(rtf, 'latin1'), { ext: 'rtf', fileName: 'a.rtf' });
    expect(doc.sections).toEqual([
      { kind: 'title', text: 'Introduction', level: 1 },
      { kind: 'text', text: 'Café costs € 3 – nice bold text\nsecond line' },
      { kind: 'text', text: 'Visit the site today.' },
      { kind: 'list', text: '1. First item\n2. Second item' },
      {
        kind: 'table',
        text: 'Merged head | Right\nA | B more | C\nD | E',
        html:
          '<table><tr><td colspan="2">Merged head</td><td>Right</td></tr>' +
          '<tr><td rowspan="2">A</td><td>B<br>more</td><td>C</td></tr><tr><td>D</td><td>E</td></tr></table>',
      },
      { kind: 'text', text: 'After the table with {braces} and a \\ backslash.' },
    ]);
  });

  it("decodes \\'hh bytes in the declared code page (GBK)", async () => {
    const src = String.raw`{\rtf1\ansi\ansicpg936 {\fonttbl{\f0 SimSun;}}\pard \'d6\'d0\'ce\'c4 text\par}`;
    const doc = await parseRtf(Buffer.from(src, 'latin1'), { ext: 'rtf', fileName: 'a.rtf' });
    expect(doc.sections).toEqual([{ kind: 'text', text: '中文 text' }]);
  });

  it('survives unbalanced braces and refuses empty or non-RTF input', async () => {
    const doc = await parseRtf(Buffer.from('{\\rtf1 unclosed {\\b group\\par'), {
      ext: 'rtf',
      fileName: 'a.rtf',
    });
    expect(doc.sections.map((s) => s.text)).toEqual(['unclosed group']);
    await expect(parseRtf(Buffer.alloc(0), { ext: 'rtf', fileName: 'a.rtf' })).rejects.toThrow(
      'The file is empty.',
    );
    await expect(parseRtf(Buffer.from('plain text'), { ext: 'rtf', fileName: 'a.rtf' })).rejects.toThrow(
      'This is not a valid RTF file (it does not start with "{\\rtf").',
    );
  });
});
