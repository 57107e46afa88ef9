import { sendJson, type StandinContext } from '../common.js';
import type { StandinMode } from '../../../src/agent-tools/testing/service-suite.js';

/** Tavily API stand-in: `POST /search` and `/extract` with `Authorization: Bearer <key>`, real shapes. */
export function tavilyAnswer(c: StandinContext, mode: StandinMode): boolean {
  if (mode === 'auth' || c.rec.headers.authorization !== 'Bearer tvly-test')
    return (sendJson(c.res, 401, { detail: { error: 'Unauthorized: missing or invalid API key.' } }), true);
  if (c.rec.path === '/search') {
    const body = c.rec.body as { query: string; max_results: number };
    const results =
      mode === 'empty'
        ? []
        : [
            {
              title: 'Lighthouse',
              url: 'https://example.com/lighthouse',
              content: `About ${body.query}`,
              score: 0.91,
              raw_content: null,
            },
            {
              title: 'Fog signal',
              url: 'https://example.com/fog',
              content: 'Horns in the fog',
              score: 0.5,
              raw_content: null,
            },
          ].slice(0, body.max_results);
    sendJson(c.res, 200, {
      query: body.query,
      answer: null,
      images: [],
      follow_up_questions: null,
      response_time: 0.4,
      results,
    });
    return true;
  }
  if (c.rec.path === '/extract') {
    const body = c.rec.body as { urls: string[] };
    const results =
      mode === 'empty' ? [] : body.urls.map((url) => ({ url, raw_content: `# Page at ${url}`, images: [] }));
    sendJson(c.res, 200, { results, failed_results: [], response_time: 0.2 });
    return true;
  }
  return false;
}
