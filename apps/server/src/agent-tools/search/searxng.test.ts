import { expect } from 'vitest';
import { searxngAnswer } from '../../../test/standins/tools/web-search.js';
import { serviceToolSuite } from '../testing/service-suite.js';
import { searxngTool } from './web-search.js';

serviceToolSuite({
  title: 'SearXNG tool',
  make: searxngTool,
  env: (origin) => ({ LECTERN_SEARXNG_BASE_URL: origin }),
  answer: searxngAnswer,
  params: { top_n: '2' },
  args: { query: 'harbour' },
  label: 'SearXNG',
  auth: /Network error: HTTP 403/,
  result(run, standin) {
    const q = standin.requests.at(-1)!.query;
    expect([q.get('q'), q.get('format'), q.get('safesearch')]).toEqual(['harbour', 'json', '1']);
    expect(run.chunks.map((c) => c.docnm_kwd)).toEqual(['Result 1', 'Result 2']);
    expect(run.outputs.json).toHaveLength(2);
  },
  empty(run) {
    expect(run.outputs).toEqual({ formalized_content: '', json: [] });
  },
});
