import { sendJson, type StandinContext } from '../common.js';
import type { StandinMode } from '../../../src/agent-tools/testing/service-suite.js';

/**
 * Stand-ins of the JSON web-search APIs, each in its real response shape: SerpApi (`GET /search`,
 * `api_key` query, `{"error"}` with 401), GitHub (`GET /search/repositories`, `{"message"}` with
 * 403), SearXNG (`GET /search?format=json`, 403 when the json format is disabled), Bing v7
 * (`Ocp-Apim-Subscription-Key`, `{"error": {"code", "message"}}` with 401).
 */
export function serpApiAnswer(c: StandinContext, mode: StandinMode): boolean {
  if (c.rec.path !== '/search') return false;
  if (mode === 'auth' || c.rec.query.get('api_key') !== 'serp-key')
    return (
      sendJson(c.res, 401, {
        error: 'Invalid API key. Your API key should be here: https://serpapi.com/manage-api-key',
      }),
      true
    );
  const q = c.rec.query.get('q');
  const organic_results =
    mode === 'empty'
      ? undefined
      : [
          { position: 1, title: 'Tide tables', link: 'https://example.com/tides', snippet: `Tides for ${q}` },
          {
            position: 2,
            title: 'Moon',
            link: 'https://example.com/moon',
            snippet: 'short',
            about_this_result: { source: { description: 'The Moon drives tides.' } },
          },
        ];
  sendJson(c.res, 200, {
    search_metadata: { status: 'Success' },
    search_parameters: { engine: 'google', q },
    ...(organic_results
      ? { organic_results }
      : { search_information: { organic_results_state: 'Fully empty' } }),
  });
  return true;
}

export function githubAnswer(c: StandinContext, mode: StandinMode): boolean {
  if (c.rec.path !== '/search/repositories') return false;
  if (mode === 'auth')
    return (
      sendJson(c.res, 403, {
        message: 'API rate limit exceeded for 127.0.0.1.',
        documentation_url: 'https://docs.github.com/rest',
      }),
      true
    );
  const items =
    mode === 'empty'
      ? []
      : [
          {
            name: 'ragflow',
            full_name: 'infiniflow/ragflow',
            html_url: 'https://github.com/infiniflow/ragflow',
            description: 'RAG engine',
            watchers: 1000,
            stargazers_count: 1000,
            language: 'Python',
          },
          {
            name: 'empty',
            full_name: 'x/empty',
            html_url: 'https://github.com/x/empty',
            description: null,
            watchers: 3,
            stargazers_count: 3,
            language: null,
          },
        ];
  sendJson(c.res, 200, { total_count: items.length, incomplete_results: false, items });
  return true;
}

export function searxngAnswer(c: StandinContext, mode: StandinMode): boolean {
  if (c.rec.path !== '/search') return false;
  if (mode === 'auth') {
    c.res.writeHead(403, { 'content-type': 'text/html' }).end('<html><body>403 Forbidden</body></html>');
    return true;
  }
  const results =
    mode === 'empty'
      ? []
      : [1, 2, 3].map((i) => ({
          url: `https://example.com/${i}`,
          title: `Result ${i}`,
          content: `Snippet ${i}`,
          engine: 'duckduckgo',
          score: 1 / i,
          category: 'general',
        }));
  sendJson(c.res, 200, {
    query: c.rec.query.get('q'),
    number_of_results: 0,
    results,
    answers: [],
    suggestions: [],
    infoboxes: [],
    unresponsive_engines: [],
  });
  return true;
}

export function bingAnswer(c: StandinContext, mode: StandinMode): boolean {
  if (!c.rec.path.startsWith('/v7.0/')) return false;
  if (mode === 'auth' || c.rec.headers['ocp-apim-subscription-key'] !== 'bing-key')
    return (
      sendJson(c.res, 401, {
        error: { code: 'PermissionDenied', message: 'Access denied due to invalid subscription key.' },
      }),
      true
    );
  const value =
    mode === 'empty'
      ? []
      : [
          {
            name: 'Harbour <b>news</b>',
            url: 'https://example.com/h',
            snippet: 'Ships <b>arrive</b>',
            description: 'News text',
          },
        ];
  if (c.rec.path === '/v7.0/news/search') sendJson(c.res, 200, { _type: 'News', value });
  else
    sendJson(c.res, 200, {
      _type: 'SearchResponse',
      ...(value.length ? { webPages: { totalEstimatedMatches: 1, value } } : {}),
    });
  return true;
}
