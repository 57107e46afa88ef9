import { expect } from 'vitest';
import { tavilyAnswer } from '../../../test/standins/tools/tavily.js';
import { serviceToolSuite } from '../testing/service-suite.js';
import { tavilySearchTool } from './tavily.js';

serviceToolSuite({
  title: 'TavilySearch tool',
  make: tavilySearchTool,
  env: (origin) => ({ LECTERN_TAVILY_BASE_URL: origin }),
  answer: tavilyAnswer,
  params: { api_key: 'tvly-test', max_results: 5 },
  args: { query: 'lighthouses', include_domains: 'example.com' },
  label: 'Tavily',
  auth: /HTTP 401: Unauthorized: missing or invalid API key\./,
  result(run, standin) {
    expect(standin.requests.at(-1)?.body).toMatchObject({
      query: 'lighthouses',
      search_depth: 'basic',
      topic: 'general',
      days: 14,
      max_results: 5,
      include_domains: ['example.com'],
      include_raw_content: false,
    });
    expect(run.chunks.map((c) => [c.docnm_kwd, c.url, c.similarity])).toEqual([
      ['Lighthouse', 'https://example.com/lighthouse', 0.91],
      ['Fog signal', 'https://example.com/fog', 0.5],
    ]);
    expect(run.docAggs).toHaveLength(2);
    expect(run.outputs.formalized_content).toMatch(
      /^\nID: \d+\n├── Title: Lighthouse\n├── URL: https:\/\/example\.com\/lighthouse\n└── Content:\nAbout lighthouses\n/,
    );
    expect(run.result).toBe(run.outputs.formalized_content);
    expect(run.outputs.json).toHaveLength(2);
  },
  empty(run) {
    expect(run.outputs).toEqual({ formalized_content: '', json: [] });
  },
});
