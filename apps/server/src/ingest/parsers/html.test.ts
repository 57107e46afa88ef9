import { describe, expect, it } from 'vitest';
import { htmlTablesToSheets, parseHtml } from './html.js';

const page = `<!DOCTYPE html><html><head><title>The  Page</title><style>p{color:red}</style>
<script>var x = "<p>not text</p>";</script></head>
<body><nav><a href="/">Home</a></nav>
<h1>Main   heading</h1>
<p>First &amp; <b>bold</b>
paragraph.<br>After break.</p>
<div>Loose text <span>in a div</span><div>nested block</div></div>
<h3>Lists</h3>
<ul><li>one</li><li>two<ol start="3"><li>three</li><li>four</li></ol></li></ul>
<table><caption>Prices</caption><thead><tr><th>Item</th><th colspan="2">Cost</th></tr></thead>
<tbody><tr><td rowspan="2">Pen</td><td>1</td><td>EUR</td></tr><tr><td>2</td><td>USD</td></tr></tbody></table>
<table><tr><td><p>Layout cell one</p></td></tr><tr><td>Layout cell two</td></tr></table>
<pre><code class="language-python">def f():
    return 1</code></pre>
<noscript>Enable JS</noscript><form><input value="x"><button>Go</button></form>
</body></html>`;

describe('parseHtml', () => {
  it('keeps headings, paragraphs, lists, clean tables and code while dropping scripts and styles', async () => {
    const doc = await parseHtml(Buffer.from(page), { ext: 'html', fileName: 'p.html' });
    expect(doc.title).toBe('The Page');
    expect(doc.sections).toEqual([
      { kind: 'text', text: 'Home' },
      { kind: 'title', text: 'Main heading', level: 1 },
      { kind: 'text', text: 'First & bold paragraph.\nAfter break.' },
      { kind: 'text', text: 'Loose text in a div' },
      { kind: 'text', text: 'nested block' },
      { kind: 'title', text: 'Lists', level: 3 },
      { kind: 'list', text: '- one\n- two\n  3. three\n  4. four' },
      {
        kind: 'table',
        text: 'Prices\nItem | Cost\nPen | 1 | EUR\n2 | USD',
        html:
          '<table><caption>Prices</caption><tr><th>Item</th><th colspan="2">Cost</th></tr>' +
          '<tr><td rowspan="2">Pen</td><td>1</td><td>EUR</td></tr><tr><td>2</td><td>USD</td></tr></table>',
      },
      { kind: 'text', text: 'Layout cell one' },
      { kind: 'text', text: 'Layout cell two' },
      { kind: 'code', text: 'def f():\n    return 1', fields: { language: 'python' } },
    ]);
  });

  it('honours <meta charset> for legacy encodings', async () => {
    const head = Buffer.from('<html><head><meta charset="gbk"></head><body><p>', 'latin1');
    const body = Buffer.from([0xd6, 0xd0, 0xce, 0xc4]); // 中文 in GBK
    const doc = await parseHtml(Buffer.concat([head, body, Buffer.from('</p></body></html>')]), {
      ext: 'html',
      fileName: 'a.html',
    });
    expect(doc.sections).toEqual([{ kind: 'text', text: '中文' }]);
  });

  it('never hangs on broken markup and refuses empty and binary input', async () => {
    const doc = await parseHtml(Buffer.from('<div><p>unclosed <b>bold <table><tr><td>a<td>b'), {
      ext: 'htm',
      fileName: 'a.htm',
    });
    expect(doc.sections.map((s) => s.text)).toEqual(['unclosed bold', 'a | b']);
    await expect(parseHtml(Buffer.alloc(0), { ext: 'html', fileName: 'a.html' })).rejects.toThrow(
      'The file is empty.',
    );
    await expect(
      parseHtml(Buffer.from([0x50, 0x4b, 3, 4, 0, 0]), { ext: 'html', fileName: 'a.html' }),
    ).rejects.toThrow('The HTML file does not contain text');
  });

  it('turns HTML tables into sheets with merges (for .xls HTML exports)', () => {
    const sheets = htmlTablesToSheets(
      '<table><tr><td colspan="2">A</td><td>B</td></tr><tr><td>1</td><td>2</td><td>3</td></tr></table>',
    );
    expect(sheets).toEqual([
      {
        name: '',
        grid: [
          ['A', '', 'B'],
          ['1', '2', '3'],
        ],
        merges: [{ r1: 0, c1: 0, r2: 0, c2: 1 }],
      },
    ]);
  });
});
