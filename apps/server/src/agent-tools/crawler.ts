/**
 * Crawler (AGENTS.md §10.7, broken in RAGFlow v0.24.0, rebuilt here): a plain GET of the URL through
 * the outbound guard, the page's main content found by Readability and returned as Markdown
 * (`extract_type` markdown), its HTML (`html`) or its text (`content`). No headless browser: pages
 * that only render with JavaScript give what their HTML holds.
 */
import type { ToolComponent, ToolMeta } from '@lectern/agent-core';
import type { ToolDeps } from './context.js';
import { timeLimitMs } from './context.js';
import { callService } from './common/http.js';
import { cleanPage, looksLikeHtml } from './common/html.js';
import { errorText, text } from './common/values.js';

const META: ToolMeta = {
  name: 'crawler',
  description: 'Fetches a web page and returns its main content as clean Markdown.',
  parameters: {
    query: {
      type: 'string',
      description: 'The URL of the page to fetch.',
      default: '{sys.query}',
      required: true,
    },
  },
};

const TYPES = new Set(['markdown', 'html', 'content']);

export function crawlerTool(deps: ToolDeps): ToolComponent {
  return {
    componentName: 'Crawler',
    meta: () => META,
    check: (params) =>
      params.extract_type !== undefined && !TYPES.has(text(params.extract_type))
        ? ['`extract_type` must be markdown, html or content']
        : [],
    async invoke(call) {
      const raw = (await call.render(text(call.args.query ?? call.params.query))).trim();
      // An upstream text may carry the URL among other words: take the first http(s) URL in it.
      const url = /^https?:\/\/\S+/i.test(raw)
        ? raw.split(/\s/)[0]
        : (/https?:\/\/\S+/i.exec(raw)?.[0] ?? '');
      if (!url) throw new Error('URL not valid');
      let answer;
      try {
        answer = await callService(deps, url, {
          headers: {
            Accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5',
            'User-Agent': 'Mozilla/5.0 (compatible; Lectern crawler)',
          },
          timeoutMs: timeLimitMs(deps, 60),
          signal: call.signal,
          maxBytes: 10 * 1024 * 1024,
        });
      } catch (err) {
        if (call.signal.aborted) throw err;
        throw new Error(`Crawler error: ${errorText(err)}`);
      }
      if (answer.status >= 400) throw new Error(`Crawler error: ${url} answered HTTP ${answer.status}`);
      const kind = text(call.params.extract_type || 'markdown');
      let content: string;
      if (!looksLikeHtml(answer.headers.get('content-type'), answer.text)) content = answer.text;
      else {
        const page = cleanPage(answer.text, answer.url);
        content = kind === 'html' ? page.html : kind === 'content' ? page.text : page.markdown;
      }
      call.setOutput('content', content);
      return content;
    },
  };
}
