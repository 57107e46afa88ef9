import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import type { Reference } from '@lectern/shared';
import '../../../i18n';
import { MessageMarkdown } from '../conversation/MessageMarkdown';
import { citedIndexes, referencedDocuments, splitCitations, stripCitations } from './citations';

const chunk = (i: number, doc: string) => ({
  id: `c${i}`,
  content: `content ${i}`,
  document_id: `d-${doc}`,
  document_name: doc,
  dataset_id: 'k',
  image_id: '',
  positions: [],
  url: null,
  similarity: 0,
  vector_similarity: 0,
  term_similarity: 0,
  doc_type: '',
});
const reference: Reference = { chunks: [chunk(0, 'a.md'), chunk(1, 'b.pdf')], doc_aggs: [] };

describe('citation parsing', () => {
  it('splits text and [ID:n] markers in order, tolerating spaces', () => {
    expect(splitCitations('Paris [ID:0] and Lyon [ID: 1 ].')).toEqual([
      { type: 'text', text: 'Paris ' },
      { type: 'citation', index: 0 },
      { type: 'text', text: ' and Lyon ' },
      { type: 'citation', index: 1 },
      { type: 'text', text: '.' },
    ]);
    expect(splitCitations('[ID:3]')).toEqual([{ type: 'citation', index: 3 }]);
    expect(splitCitations('no citations [ID:x] [id:1]')).toEqual([
      { type: 'text', text: 'no citations [ID:x] [id:1]' },
    ]);
  });

  it('lists cited indexes once and strips markers for copying', () => {
    expect(citedIndexes('a [ID:2] b [ID:0] c [ID:2]')).toEqual([2, 0]);
    expect(stripCitations('Paris is big [ID:0][ID:1].')).toBe('Paris is big.');
  });

  it('lists doc_aggs as the sources, or the cited chunks’ documents when an entry has none', () => {
    expect(
      referencedDocuments({ ...reference, doc_aggs: [{ doc_id: 'x', doc_name: 'x.txt', count: 1 }] }, ''),
    ).toEqual([{ doc_id: 'x', doc_name: 'x.txt' }]);
    expect(referencedDocuments(reference, 'see [ID:1] and [ID:1] and [ID:9]')).toEqual([
      { doc_id: 'd-b.pdf', doc_name: 'b.pdf' },
    ]);
  });
});

describe('MessageMarkdown', () => {
  const render = (content: string, ref: Reference = reference) =>
    renderToStaticMarkup(<MessageMarkdown content={content} reference={ref} />);

  it('renders citations as numbered badges that point at their chunk', () => {
    const html = render('Paris is the capital [ID:0]. Lyon too [ID:1].');
    const badges = [
      ...html.matchAll(/<button[^>]*class="citation-badge"[^>]*data-cite="(\d+)"[^>]*>(\d+)<\/button>/g),
    ];
    expect(badges.map((m) => [m[1], m[2]])).toEqual([
      ['0', '1'],
      ['1', '2'],
    ]);
    expect(html).not.toContain('[ID:');
    expect(html).toContain('aria-label="Citation 1"');
  });

  it('renders GFM (tables, strikethrough) and leaves citations in code as typed', () => {
    const html = render('| a | b |\n|---|---|\n| 1 | 2 |\n\n~~old~~ `x [ID:0]`\n\n```\ny [ID:1]\n```');
    expect(html).toContain('<table class="markdown-table">');
    expect(html).toContain('<del>old</del>');
    expect(html).toContain('<code>x [ID:0]</code>');
    expect(html).toContain('y [ID:1]');
    expect(html).not.toContain('citation-badge');
  });

  it('is sanitised: no raw HTML, no script, no javascript: links, no injected attributes', () => {
    const html = render(
      '<script>alert(1)</script>\n\nText <img src=x onerror="alert(2)"> [click](javascript:alert(3)) <b onclick="x()">bold</b> [ok](https://example.com)',
    );
    expect(html).toContain('Text');
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/onerror|onclick/i);
    expect(html).not.toMatch(/href="javascript:/i);
    expect(html).not.toMatch(/<b[ >]/);
    expect(html).toContain('href="https://example.com"');
    expect(html).toContain('rel="noopener noreferrer nofollow"');
  });

  it('shows a badge without a popover target when the chunk is missing', () => {
    const html = render('Claim [ID:7].', { chunks: [], doc_aggs: [] });
    expect(html).toMatch(/data-cite="7"[^>]*>8<\/button>/);
  });
});
