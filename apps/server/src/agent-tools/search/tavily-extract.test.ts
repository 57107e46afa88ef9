import { expect } from 'vitest';
import { tavilyAnswer } from '../../../test/standins/tools/tavily.js';
import { serviceToolSuite } from '../testing/service-suite.js';
import { tavilyExtractTool } from './tavily.js';

serviceToolSuite({
  title: 'TavilyExtract tool',
  make: tavilyExtractTool,
  env: (origin) => ({ LECTERN_TAVILY_BASE_URL: origin }),
  answer: tavilyAnswer,
  params: { api_key: 'tvly-test' },
  args: { urls: 'https://a.example/x, https://b.example/y', format: 'text' },
  primary: 'urls',
  label: 'Tavily',
  auth: /HTTP 401/,
  result(run, standin) {
    expect(standin.requests.at(-1)?.body).toEqual({
      urls: ['https://a.example/x', 'https://b.example/y'],
      include_images: false,
      extract_depth: 'basic',
      format: 'text',
    });
    expect(run.outputs.json).toEqual([
      { url: 'https://a.example/x', raw_content: '# Page at https://a.example/x', images: [] },
      { url: 'https://b.example/y', raw_content: '# Page at https://b.example/y', images: [] },
    ]);
    expect(run.result).toEqual(run.outputs.json);
  },
  empty(run) {
    expect(run.outputs).toEqual({ json: [] });
  },
});
