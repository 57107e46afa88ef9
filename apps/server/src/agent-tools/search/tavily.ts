/** TavilySearch and TavilyExtract (AGENTS.md §10.8–10.9): `POST <base>/search` and `/extract`. */
import type { ToolComponent } from '@lectern/agent-core';
import { baseUrl, type ToolDeps } from '../context.js';
import { callService, jsonOf } from '../common/http.js';
import { serviceTool, type ServiceCall } from '../common/service-tool.js';
import { bool, int, list, text } from '../common/values.js';

const ENV = 'LECTERN_TAVILY_BASE_URL';
const DEFAULT = 'https://api.tavily.com';

interface TavilyHit {
  title?: string;
  url?: string;
  content?: string;
  raw_content?: string | null;
  score?: number;
}

/** Tavily's error body: `{"detail": {"error": "..."}}`. */
const tavilyError = (b: unknown) => text((b as { detail?: { error?: unknown } })?.detail?.error) || undefined;

async function post(c: ServiceCall, path: string, body: Record<string, unknown>): Promise<unknown> {
  const apiKey = text(c.params.api_key);
  const base = baseUrl(c.deps, ENV, c.deps.env.TAVILY_BASE_URL || DEFAULT);
  const answer = await callService(c.deps, `${base}${path}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Authorization: `Bearer ${apiKey}`,
      'X-Client-Source': 'lectern',
    },
    body: JSON.stringify(body),
    timeoutMs: c.timeoutMs,
    signal: c.signal,
  });
  return jsonOf(answer, tavilyError);
}

export function tavilySearchTool(deps: ToolDeps): ToolComponent {
  return serviceTool(
    {
      componentName: 'TavilySearch',
      label: 'Tavily',
      primary: 'query',
      timeoutSeconds: 12,
      meta: {
        name: 'tavily_search',
        description:
          'Tavily is a search engine optimized for LLMs, aimed at efficient, quick and persistent search results.',
        parameters: {
          query: {
            type: 'string',
            description: 'The search keywords to execute with Tavily.',
            default: '{sys.query}',
            required: true,
          },
          topic: {
            type: 'string',
            description: 'default:general. The category of the search.',
            enum: ['general', 'news'],
            default: 'general',
            required: false,
          },
          include_domains: {
            type: 'array',
            description: 'default:[]. A list of domains only from which the search results can be included.',
            default: [],
            items: { type: 'string' },
            required: false,
          },
          exclude_domains: {
            type: 'array',
            description: 'default:[]. A list of domains from which the search results can not be included',
            default: [],
            items: { type: 'string' },
            required: false,
          },
        },
      },
      check: (p) => (text(p.api_key).trim() ? [] : ['`api_key` is required']),
      async run(c) {
        const body = (await post(c, '/search', {
          query: c.query,
          search_depth: text(c.params.search_depth || 'basic'),
          topic: text(c.args.topic || c.params.topic || 'general'),
          days: int(c.params.days, 14),
          max_results: int(c.params.max_results, 6),
          include_domains: list(c.args.include_domains),
          exclude_domains: list(c.args.exclude_domains),
          include_answer: bool(c.params.include_answer, false),
          include_raw_content: false,
          include_images: false,
          include_image_descriptions: bool(c.params.include_image_descriptions, false),
        })) as { results?: TavilyHit[] };
        const results = Array.isArray(body.results) ? body.results : [];
        return {
          hits: results.map((r) => ({
            title: text(r.title),
            url: text(r.url),
            content: text(r.raw_content || r.content),
            score: typeof r.score === 'number' ? r.score : undefined,
          })),
          json: results,
        };
      },
    },
    deps,
  );
}

export function tavilyExtractTool(deps: ToolDeps): ToolComponent {
  return serviceTool(
    {
      componentName: 'TavilyExtract',
      label: 'Tavily',
      primary: 'urls',
      emptyOutput: 'json',
      timeoutSeconds: 600,
      meta: {
        name: 'tavily_extract',
        description: 'Extract web page content from one or more specified URLs using Tavily Extract.',
        parameters: {
          urls: {
            type: 'array',
            description: 'The URLs to extract content from.',
            default: '',
            items: { type: 'string' },
            required: true,
          },
          extract_depth: {
            type: 'string',
            description: 'The depth of the extraction process.',
            enum: ['basic', 'advanced'],
            default: 'basic',
            required: false,
          },
          format: {
            type: 'string',
            description: 'The format of the extracted web page content.',
            enum: ['markdown', 'text'],
            default: 'markdown',
            required: false,
          },
        },
      },
      check: (p) => (text(p.api_key).trim() ? [] : ['`api_key` is required']),
      async run(c) {
        const body = (await post(c, '/extract', {
          urls: list(c.query),
          include_images: false,
          extract_depth: text(c.args.extract_depth || 'basic'),
          format: text(c.args.format || 'markdown'),
        })) as { results?: unknown[] };
        const results = Array.isArray(body.results) ? body.results : [];
        return { outputs: { json: results }, result: results };
      },
    },
    deps,
  );
}
