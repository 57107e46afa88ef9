import { expect } from 'vitest';
import { duckDuckGoAnswer } from '../../../test/standins/tools/knowledge.js';
import { serviceToolSuite } from '../testing/service-suite.js';
import { duckDuckGoTool } from './knowledge.js';

serviceToolSuite({
  title: 'DuckDuckGo tool',
  make: duckDuckGoTool,
  env: (origin) => ({ LECTERN_DUCKDUCKGO_BASE_URL: origin }),
  answer: duckDuckGoAnswer,
  params: { top_n: 5 },
  args: { query: 'harbour' },
  label: 'DuckDuckGo',
  auth: /rate limited by DuckDuckGo \(HTTP 202\)/,
  result(run, standin) {
    expect(standin.requests.at(-1)!.raw.toString()).toBe('q=harbour&b=&kl=wt-wt');
    expect(run.outputs.json).toEqual([
      { title: 'First hit', href: 'https://example.com/a', body: 'Snippet one' },
      { title: 'Second', href: 'https://example.com/b', body: 'Snippet two' },
    ]);
    expect(run.chunks).toHaveLength(2);
  },
  empty(run) {
    expect(run.outputs).toEqual({ formalized_content: '', json: [] });
  },
});
