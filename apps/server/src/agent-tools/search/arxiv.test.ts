import { expect } from 'vitest';
import { arxivAnswer } from '../../../test/standins/tools/knowledge.js';
import { serviceToolSuite } from '../testing/service-suite.js';
import { arxivTool } from './knowledge.js';

serviceToolSuite({
  title: 'ArXiv tool',
  make: arxivTool,
  env: (origin) => ({ LECTERN_ARXIV_BASE_URL: origin }),
  answer: arxivAnswer,
  params: { top_n: 4, sort_by: 'relevance' },
  args: { query: 'attention' },
  label: 'ArXiv',
  auth: /HTTP 403/,
  result(run, standin) {
    const q = standin.requests.at(-1)!.query;
    expect([q.get('search_query'), q.get('sortBy'), q.get('max_results')]).toEqual([
      'attention',
      'relevance',
      '4',
    ]);
    expect(run.chunks.map((c) => [c.docnm_kwd, c.url, c.content_with_weight])).toEqual([
      ['Attention Is All You Need Again', 'http://arxiv.org/pdf/2401.00001v1', 'We revisit attention.'],
    ]);
  },
  empty(run) {
    expect(run.outputs).toEqual({ formalized_content: '' });
  },
});
