import { expect } from 'vitest';
import { wikipediaAnswer } from '../../../test/standins/tools/knowledge.js';
import { serviceToolSuite } from '../testing/service-suite.js';
import { wikipediaTool } from './knowledge.js';

serviceToolSuite({
  title: 'Wikipedia tool',
  make: wikipediaTool,
  env: (origin) => ({ LECTERN_WIKIPEDIA_BASE_URL: origin }),
  answer: wikipediaAnswer,
  params: { top_n: 3, language: 'en' },
  args: { query: 'lighthouse' },
  label: 'Wikipedia',
  auth: /HTTP 403/,
  result(run, standin) {
    expect(standin.requests.at(-2)!.query.get('srsearch')).toBe('lighthouse');
    expect(run.chunks.map((c) => [c.docnm_kwd, c.url, c.content_with_weight])).toEqual([
      ['Lighthouse', 'https://en.wikipedia.org/wiki/Lighthouse', 'A lighthouse is a tower that emits light.'],
    ]);
    expect(run.outputs).not.toHaveProperty('json');
  },
  empty(run) {
    expect(run.outputs).toEqual({ formalized_content: '' });
  },
});
