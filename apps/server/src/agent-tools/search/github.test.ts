import { expect } from 'vitest';
import { githubAnswer } from '../../../test/standins/tools/web-search.js';
import { serviceToolSuite } from '../testing/service-suite.js';
import { githubTool } from './web-search.js';

serviceToolSuite({
  title: 'GitHub tool',
  make: githubTool,
  env: (origin) => ({ LECTERN_GITHUB_BASE_URL: origin }),
  answer: githubAnswer,
  params: { top_n: 5 },
  args: { query: 'rag engine' },
  label: 'GitHub',
  auth: /HTTP 403: API rate limit exceeded/,
  result(run, standin) {
    const req = standin.requests.at(-1)!;
    expect([req.query.get('q'), req.query.get('sort'), req.query.get('per_page')]).toEqual([
      'rag engine',
      'stars',
      '5',
    ]);
    expect(req.headers['x-github-api-version']).toBe('2022-11-28');
    expect(run.chunks.map((c) => [c.docnm_kwd, c.content_with_weight])).toEqual([
      ['ragflow', 'RAG engine\n stars:1000'],
      ['empty', 'None\n stars:3'],
    ]);
  },
  empty(run) {
    expect(run.outputs).toEqual({ formalized_content: '', json: [] });
  },
});
