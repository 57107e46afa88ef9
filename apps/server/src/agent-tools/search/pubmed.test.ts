import { expect } from 'vitest';
import { pubmedAnswer } from '../../../test/standins/tools/knowledge.js';
import { serviceToolSuite } from '../testing/service-suite.js';
import { pubmedTool } from './knowledge.js';

serviceToolSuite({
  title: 'PubMed tool',
  make: pubmedTool,
  env: (origin) => ({ LECTERN_PUBMED_BASE_URL: `${origin}/entrez/eutils` }),
  answer: pubmedAnswer,
  params: { top_n: 2, email: 'me@example.com' },
  args: { query: 'sleep memory' },
  label: 'PubMed',
  auth: /HTTP 403/,
  result(run, standin) {
    const fetch = standin.requests.at(-1)!;
    expect([fetch.path, fetch.query.get('id'), fetch.query.get('email')]).toEqual([
      '/entrez/eutils/efetch.fcgi',
      '38000001,38000002',
      'me@example.com',
    ]);
    expect(run.chunks[0].url).toBe('https://pubmed.ncbi.nlm.nih.gov/38000001');
    expect(run.chunks[0].content_with_weight).toBe(
      'Title: Sleep and memory\nAuthors: Marie Curie\nJournal: Journal of Tests\nVolume: 12\nIssue: 3\nPages: 1-9\nDOI: 10.1/x38000001\nAbstract: Sleep helps.',
    );
    expect(run.chunks[1].content_with_weight).toContain('Abstract: No abstract available');
  },
  empty(run) {
    expect(run.outputs).toEqual({ formalized_content: '' });
  },
});
