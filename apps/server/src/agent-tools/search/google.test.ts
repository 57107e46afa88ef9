import { expect } from 'vitest';
import { serpApiAnswer } from '../../../test/standins/tools/web-search.js';
import { serviceToolSuite } from '../testing/service-suite.js';
import { googleTool } from './web-search.js';

serviceToolSuite({
  title: 'Google tool (SerpApi)',
  make: googleTool,
  env: (origin) => ({ LECTERN_GOOGLE_BASE_URL: origin }),
  answer: serpApiAnswer,
  params: { api_key: 'serp-key', country: 'gb' },
  args: { q: 'tides', num: 3 },
  primary: 'q',
  label: 'Google',
  auth: /HTTP 401: Invalid API key/,
  result(run, standin) {
    const q = standin.requests.at(-1)!.query;
    expect([q.get('engine'), q.get('q'), q.get('gl'), q.get('hl'), q.get('num')]).toEqual([
      'google',
      'tides',
      'gb',
      'en',
      '3',
    ]);
    expect(run.chunks.map((c) => c.content_with_weight)).toEqual([
      'Tides for tides',
      'The Moon drives tides.',
    ]);
    expect(run.outputs.json).toHaveLength(2);
  },
  empty(run) {
    expect(run.outputs).toEqual({ formalized_content: '', json: [] });
  },
});
