/**
 * Reference search tools (AGENTS.md §10.11, §10.12, §10.15, §10.16): Wikipedia (MediaWiki action
 * API), arXiv (Atom API), PubMed (NCBI E-utilities esearch + efetch) and DuckDuckGo (its HTML
 * endpoint, scraped as the duckduckgo-search library does).
 */
import type { ToolComponent } from '@lectern/agent-core';
import { parseHTML } from 'linkedom';
import { baseUrl, type ToolDeps } from '../context.js';
import { callService, jsonOf, textOf, withQuery } from '../common/http.js';
import { queryMeta, serviceTool } from '../common/service-tool.js';
import { int, text } from '../common/values.js';
import { all, first, parseXml } from '../common/xml.js';

type Json = Record<string, unknown>;

export function wikipediaTool(deps: ToolDeps): ToolComponent {
  return serviceTool(
    {
      componentName: 'Wikipedia',
      label: 'Wikipedia',
      primary: 'query',
      timeoutSeconds: 60,
      meta: queryMeta(
        'wikipedia_search',
        'A wide range of how-to and information pages are made available in wikipedia.',
        'The search keyword to execute with wikipedia. The keyword MUST be a specific subject that can match the title.',
      ),
      async run(c) {
        const lang = text(c.params.language || 'en').replace(/[^a-z-]/gi, '') || 'en';
        const api = `${baseUrl(c.deps, 'LECTERN_WIKIPEDIA_BASE_URL', 'https://{lang}.wikipedia.org').replace('{lang}', lang)}/w/api.php`;
        const get = async (query: Record<string, string | number>) =>
          jsonOf<Json>(
            await callService(c.deps, withQuery(api, { format: 'json', action: 'query', ...query }), {
              headers: { 'User-Agent': 'Lectern (https://github.com/) wikipedia tool' },
              timeoutMs: c.timeoutMs,
              signal: c.signal,
            }),
          );
        const found = await get({
          list: 'search',
          srprop: '',
          srlimit: int(c.params.top_n, 10),
          srsearch: c.query,
        });
        if (found.error) throw new Error(text((found.error as Json).info) || 'search failed');
        const titles = ((found.query as Json)?.search as Json[] | undefined)?.map((s) => text(s.title)) ?? [];
        if (titles.length === 0) return { hits: [] };
        const pages = await get({
          prop: 'extracts|info|pageprops',
          explaintext: '',
          exintro: '',
          inprop: 'url',
          ppprop: 'disambiguation',
          redirects: '',
          titles: titles.join('|'),
        });
        const byTitle = new Map<string, Json>();
        for (const p of Object.values(((pages.query as Json)?.pages as Record<string, Json>) ?? {}))
          if (
            p.missing === undefined &&
            !Object.hasOwn((p.pageprops as Json | undefined) ?? {}, 'disambiguation')
          )
            byTitle.set(text(p.title), p);
        const hits = titles
          .map((t) => byTitle.get(t))
          .filter((p): p is Json => !!p)
          .map((p) => ({ title: text(p.title), url: text(p.fullurl), content: text(p.extract) }));
        return { hits };
      },
    },
    deps,
  );
}

export function arxivTool(deps: ToolDeps): ToolComponent {
  return serviceTool(
    {
      componentName: 'ArXiv',
      label: 'ArXiv',
      primary: 'query',
      timeoutSeconds: 12,
      meta: queryMeta(
        'arxiv_search',
        'arXiv is a free distribution service and an open-access archive for nearly 2.4 million scholarly articles.',
        'The search keywords to execute with arXiv. The keywords should be the most important words/terms (includes synonyms) from the original request.',
      ),
      async run(c) {
        const sortBy = text(c.params.sort_by || 'submittedDate');
        const url = withQuery(
          `${baseUrl(c.deps, 'LECTERN_ARXIV_BASE_URL', 'https://export.arxiv.org')}/api/query`,
          {
            search_query: c.query,
            id_list: '',
            sortBy: ['submittedDate', 'lastUpdatedDate', 'relevance'].includes(sortBy)
              ? sortBy
              : 'submittedDate',
            sortOrder: 'descending',
            start: 0,
            max_results: int(c.params.top_n, 12),
          },
        );
        const xml = textOf(await callService(c.deps, url, { timeoutMs: c.timeoutMs, signal: c.signal }));
        const entries = all(parseXml(xml), 'entry');
        return {
          hits: entries.map((e) => ({
            title: first(e, 'title'),
            url:
              all(e, 'link')
                .find((l) => l.getAttribute('title') === 'pdf')
                ?.getAttribute('href') ?? first(e, 'id'),
            content: first(e, 'summary'),
          })),
        };
      },
    },
    deps,
  );
}

export function pubmedTool(deps: ToolDeps): ToolComponent {
  return serviceTool(
    {
      componentName: 'PubMed',
      label: 'PubMed',
      primary: 'query',
      timeoutSeconds: 12,
      meta: queryMeta(
        'pubmed_search',
        'PubMed is an openly accessible, free database which includes primarily the MEDLINE database of references and abstracts on life sciences and biomedical topics.',
        'The search keywords to execute with PubMed. The keywords should be the most important words/terms (includes synonyms) from the original request.',
      ),
      async run(c) {
        const base = baseUrl(
          c.deps,
          'LECTERN_PUBMED_BASE_URL',
          'https://eutils.ncbi.nlm.nih.gov/entrez/eutils',
        );
        const common = { tool: 'lectern', email: text(c.params.email || 'A.N.Other@example.com') };
        const get = async (path: string, q: Record<string, string | number>) =>
          textOf(
            await callService(c.deps, withQuery(`${base}/${path}`, { ...q, ...common }), {
              timeoutMs: c.timeoutMs,
              signal: c.signal,
            }),
          );
        const search = parseXml(
          await get('esearch.fcgi', { db: 'pubmed', retmax: int(c.params.top_n, 12), term: c.query }),
        );
        const ids = all(search, 'Id')
          .map((n) => (n.textContent ?? '').trim())
          .filter(Boolean);
        if (ids.length === 0) return { hits: [] };
        const raw = await get('efetch.fcgi', { db: 'pubmed', id: ids.join(','), retmode: 'xml' });
        const articles = all(parseXml(raw.replace(/<\/?[bi]>/g, '')), 'PubmedArticle');
        return {
          hits: articles.map((a) => {
            const title = first(a, 'ArticleTitle') || 'No title';
            const authors = all(a, 'Author')
              .map((au) => [first(au, 'ForeName'), first(au, 'LastName')].filter(Boolean).join(' '))
              .filter(Boolean);
            const doi =
              all(a, 'ArticleId')
                .find((n) => n.getAttribute('IdType') === 'doi')
                ?.textContent?.trim() ?? '-';
            const journal = a.getElementsByTagName('Journal')[0];
            const content = [
              `Title: ${title}`,
              `Authors: ${authors.join(', ') || 'Unknown Authors'}`,
              `Journal: ${(journal && first(journal, 'Title')) || 'Unknown Journal'}`,
              `Volume: ${first(a, 'Volume') || '-'}`,
              `Issue: ${first(a, 'Issue') || '-'}`,
              `Pages: ${first(a, 'MedlinePgn') || '-'}`,
              `DOI: ${doi}`,
              `Abstract: ${first(a, 'AbstractText') || 'No abstract available'}`,
            ].join('\n');
            return { title, url: `https://pubmed.ncbi.nlm.nih.gov/${first(a, 'PMID')}`, content };
          }),
        };
      },
    },
    deps,
  );
}

export function duckDuckGoTool(deps: ToolDeps): ToolComponent {
  const meta = queryMeta(
    'duckduckgo_search',
    'DuckDuckGo is a search engine focused on privacy. It offers search capabilities for web pages, images, and provides translation services.',
    'The search keywords to execute with DuckDuckGo. The keywords should be the most important words/terms (includes synonyms) from the original request.',
  );
  meta.parameters.channel = {
    type: 'string',
    description: 'default:general. The category of the search.',
    enum: ['general', 'news'],
    default: 'general',
    required: false,
  };
  return serviceTool(
    {
      componentName: 'DuckDuckGo',
      label: 'DuckDuckGo',
      primary: 'query',
      timeoutSeconds: 12,
      meta,
      async run(c) {
        const base = baseUrl(c.deps, 'LECTERN_DUCKDUCKGO_BASE_URL', 'https://html.duckduckgo.com');
        const answer = await callService(c.deps, `${base}/html`, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/x-www-form-urlencoded',
            Referer: `${base}/`,
            'User-Agent': 'Mozilla/5.0 (compatible; Lectern)',
          },
          body: new URLSearchParams({ q: c.query, b: '', kl: 'wt-wt' }).toString(),
          timeoutMs: c.timeoutMs,
          signal: c.signal,
        });
        if ([202, 301, 400, 403, 418, 429].includes(answer.status))
          throw new Error(`rate limited by DuckDuckGo (HTTP ${answer.status})`);
        const { document } = parseHTML(textOf(answer));
        const items: Array<{ title: string; href: string; body: string }> = [];
        for (const div of Array.from(document.querySelectorAll('div.result, div.web-result')) as Array<{
          querySelector(
            s: string,
          ): { textContent: string | null; getAttribute(n: string): string | null } | null;
        }>) {
          const a = div.querySelector('h2 a');
          const href = a?.getAttribute('href') ?? '';
          if (!a || !href || href.includes('duckduckgo.com/y.js')) continue;
          const snippet = div.querySelector('.result__snippet');
          items.push({
            title: (a.textContent ?? '').trim(),
            href,
            body: (snippet?.textContent ?? '').trim(),
          });
          if (items.length >= int(c.params.top_n, 10)) break;
        }
        return { hits: items.map((i) => ({ title: i.title, url: i.href, content: i.body })), json: items };
      },
    },
    deps,
  );
}
