import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import '../../../i18n';
import { AnswerBody } from './AnswerBody';

const reference = {
  chunks: [
    {
      id: 'c0',
      content: 'Heat pumps work down to minus twenty degrees.',
      document_id: 'd0',
      document_name: 'heat-pumps.md',
      dataset_id: 'k',
      image_id: '',
      positions: [],
      url: null,
      similarity: 0.8,
      vector_similarity: 0.8,
      term_similarity: 0.8,
      doc_type: '',
    },
  ],
  doc_aggs: [{ doc_id: 'd0', doc_name: 'heat-pumps.md', count: 1 }],
};

describe('AnswerBody', () => {
  it('shows the reasoning apart from the answer, open while the model still thinks', () => {
    const html = renderToStaticMarkup(
      <AnswerBody content={'<think>Check the chunk.'} reference={reference} streaming />,
    );
    expect(html).toContain('Thinking…');
    expect(html).toMatch(/data-testid="thinking"[^>]*>Check the chunk\.</);
    expect(html).not.toContain('&lt;think&gt;');
  });

  it('renders a finished answer: thought process collapsed, citation badge, sources list', () => {
    const html = renderToStaticMarkup(
      <AnswerBody
        content={'<think>Check the chunk.</think>It works down to **minus twenty** [ID:0].'}
        reference={reference}
      />,
    );
    expect(html).toContain('Thought process');
    expect(html).not.toContain('Check the chunk.'); // collapsed: not rendered until opened
    expect(html).toContain('<strong>minus twenty</strong>');
    expect(html).toMatch(/class="citation-badge"[^>]*data-cite="0"/);
    expect(html).toMatch(/<ul aria-label="Sources"[\s\S]*heat-pumps\.md/);
    expect(html).not.toContain('streaming-cursor');
  });

  it('hides the sources while streaming and marks the cursor', () => {
    const html = renderToStaticMarkup(
      <AnswerBody content="Partial answer" reference={reference} streaming />,
    );
    expect(html).toContain('streaming-cursor');
    expect(html).not.toContain('aria-label="Sources"');
  });
});
