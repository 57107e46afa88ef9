/**
 * Web search APIs answering JSON (AGENTS.md §10.10, §10.13, §10.14, §10.21): Google through SerpApi,
 * GitHub repository search, a SearXNG instance, Bing Web/News Search v7.
 */
import type { ToolComponent } from '@lectern/agent-core';
import { baseUrl, type ToolDeps } from '../context.js';
import { callService, jsonOf, ServiceError, withQuery } from '../common/http.js';
import { queryMeta, serviceTool } from '../common/service-tool.js';
import { int, text } from '../common/values.js';

type Json = Record<string, unknown>;
const arr = (v: unknown): Json[] => (Array.isArray(v) ? (v as Json[]) : []);

export function googleTool(deps: ToolDeps): ToolComponent {
  return serviceTool(
    {
      componentName: 'Google',
      label: 'Google',
      primary: 'q',
      timeoutSeconds: 12,
      meta: {
        name: 'google_search',
        description: 'Search the world wide web using Google (through SerpApi).',
        parameters: {
          q: {
            type: 'string',
            description: 'The search keywords to execute with Google.',
            default: '{sys.query}',
            required: true,
          },
          start: {
            type: 'integer',
            description: 'Parameter defines the result offset.',
            default: '0',
            required: false,
          },
          num: {
            type: 'integer',
            description: 'Parameter defines the maximum number of results to return.',
            default: '6',
            required: false,
          },
        },
      },
      check: (p) => (text(p.api_key).trim() ? [] : ['`api_key` is required']),
      async run(c) {
        const url = withQuery(`${baseUrl(c.deps, 'LECTERN_GOOGLE_BASE_URL', 'https://serpapi.com')}/search`, {
          engine: 'google',
          q: c.query,
          google_domain: 'google.com',
          gl: text(c.params.country || 'us'),
          hl: text(c.params.language || 'en'),
          api_key: text(c.params.api_key),
          output: 'json',
          // RAGFlow never forwarded these two; Lectern does.
          start: int(c.args.start, 0),
          num: int(c.args.num, 6),
        });
        const answer = await callService(c.deps, url, { timeoutMs: c.timeoutMs, signal: c.signal });
        const body = jsonOf<Json>(answer, (b) => text((b as Json).error) || undefined);
        if (body.error) throw new ServiceError(text(body.error));
        const results = arr(body.organic_results);
        return {
          hits: results.map((r) => ({
            title: text(r.title),
            url: text(r.link),
            content: text(
              ((r.about_this_result as Json)?.source as Json | undefined)?.description || r.snippet,
            ),
          })),
          json: results,
        };
      },
    },
    deps,
  );
}

export function githubTool(deps: ToolDeps): ToolComponent {
  return serviceTool(
    {
      componentName: 'GitHub',
      label: 'GitHub',
      primary: 'query',
      timeoutSeconds: 12,
      meta: queryMeta(
        'github_search',
        'GitHub repository search is a feature that enables users to find specific repositories on the GitHub platform.',
        'The search keywords to execute with GitHub.',
      ),
      async run(c) {
        const url = withQuery(
          `${baseUrl(c.deps, 'LECTERN_GITHUB_BASE_URL', 'https://api.github.com')}/search/repositories`,
          {
            q: c.query,
            sort: 'stars',
            order: 'desc',
            per_page: int(c.params.top_n, 10),
          },
        );
        const answer = await callService(c.deps, url, {
          headers: {
            Accept: 'application/vnd.github+json',
            'X-GitHub-Api-Version': '2022-11-28',
            'User-Agent': 'Lectern',
          },
          timeoutMs: c.timeoutMs,
          signal: c.signal,
        });
        const body = jsonOf<Json>(answer, (b) => text((b as Json).message) || undefined);
        const items = arr(body.items);
        return {
          hits: items.map((r) => ({
            title: text(r.name),
            url: text(r.html_url),
            content: `${r.description === null || r.description === undefined ? 'None' : text(r.description)}\n stars:${text(r.watchers)}`,
          })),
          json: items,
        };
      },
    },
    deps,
  );
}

export function searxngTool(deps: ToolDeps): ToolComponent {
  const meta = queryMeta(
    'searxng_search',
    'SearXNG is a privacy-focused metasearch engine.',
    'The search keywords to execute with SearXNG.',
  );
  meta.parameters.searxng_url = {
    type: 'string',
    description: 'The base URL of your SearXNG instance.',
    default: '',
    required: false,
  };
  return serviceTool(
    {
      componentName: 'SearXNG',
      label: 'SearXNG',
      primary: 'query',
      timeoutSeconds: 10,
      meta,
      async run(c) {
        const base = (
          text(c.params.searxng_url) ||
          text(c.args.searxng_url) ||
          c.deps.env.LECTERN_SEARXNG_BASE_URL ||
          ''
        )
          .trim()
          .replace(/\/+$/, '');
        if (!base) return { hits: [], json: [] };
        const url = withQuery(`${base}/search`, {
          q: c.query,
          format: 'json',
          categories: 'general',
          language: 'auto',
          safesearch: 1,
          pageno: 1,
        });
        const answer = await callService(c.deps, url, { timeoutMs: c.timeoutMs, signal: c.signal });
        if (answer.status >= 400)
          throw new ServiceError(`Network error: HTTP ${answer.status}`, answer.status);
        const body = jsonOf<unknown>(answer);
        if (!body || typeof body !== 'object' || Array.isArray(body))
          throw new ServiceError('Invalid response from SearXNG');
        const results = (body as Json).results;
        if (!Array.isArray(results)) throw new ServiceError('Invalid results format from SearXNG');
        const top = (results as Json[]).slice(0, int(c.params.top_n, 10));
        return {
          hits: top.map((r) => ({ title: text(r.title), url: text(r.url), content: text(r.content) })),
          json: top,
        };
      },
    },
    deps,
  );
}

export function bingTool(deps: ToolDeps): ToolComponent {
  return serviceTool(
    {
      componentName: 'Bing',
      label: 'Bing',
      primary: 'query',
      timeoutSeconds: 12,
      meta: queryMeta(
        'bing_search',
        'Search the web with the Bing Web Search API.',
        'The search keywords to execute with Bing.',
      ),
      check: (p) => (text(p.api_key).trim() ? [] : ['`api_key` is required']),
      async run(c) {
        const news = text(c.params.channel) === 'News';
        const url = withQuery(
          `${baseUrl(c.deps, 'LECTERN_BING_BASE_URL', 'https://api.bing.microsoft.com')}/v7.0/${news ? 'news/search' : 'search'}`,
          {
            q: c.query,
            textDecorations: 'true',
            textFormat: 'HTML',
            cc: text(c.params.country || 'CN'),
            answerCount: 1,
            promote: news ? 'News' : 'Webpages',
            count: int(c.params.top_n, 10),
          },
        );
        const answer = await callService(c.deps, url, {
          headers: {
            'Ocp-Apim-Subscription-Key': text(c.params.api_key),
            'Accept-Language': text(c.params.language || 'en'),
          },
          timeoutMs: c.timeoutMs,
          signal: c.signal,
        });
        const body = jsonOf<Json>(answer, (b) => text(((b as Json).error as Json)?.message) || undefined);
        const items = arr(news ? body.value : (body.webPages as Json | undefined)?.value).slice(
          0,
          int(c.params.top_n, 10),
        );
        const strip = (s: unknown) => text(s).replace(/<\/?b>/g, '');
        return {
          hits: items.map((r) => ({
            title: strip(r.name),
            url: text(r.url),
            content: strip(news ? r.description : r.snippet),
          })),
          json: items,
        };
      },
    },
    deps,
  );
}
