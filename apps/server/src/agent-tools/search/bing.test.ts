import { expect } from 'vitest';
import { bingAnswer } from '../../../test/standins/tools/web-search.js';
import { serviceToolSuite } from '../testing/service-suite.js';
import { bingTool } from './web-search.js';

serviceToolSuite({
  title: 'Bing tool',
  make: bingTool,
  env: (origin) => ({ LECTERN_BING_BASE_URL: origin }),
  answer: bingAnswer,
  params: { api_key: 'bing-key', country: 'US' },
  args: { query: 'harbour' },
  label: 'Bing',
  auth: /HTTP 401: Access denied due to invalid subscription key\./,
  result(run, standin) {
    expect(standin.requests.at(-1)!.path).toBe('/v7.0/search');
    expect(run.chunks.map((c) => [c.docnm_kwd, c.content_with_weight])).toEqual([
      ['Harbour news', 'Ships arrive'],
    ]);
  },
  empty(run) {
    expect(run.outputs).toEqual({ formalized_content: '', json: [] });
  },
});
