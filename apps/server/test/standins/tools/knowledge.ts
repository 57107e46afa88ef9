import { sendJson, type StandinContext } from '../common.js';
import type { StandinMode } from '../../../src/agent-tools/testing/service-suite.js';

/**
 * Stand-ins of the keyless reference services, in their real shapes. They have no API key, so the
 * "auth" case is the refusal each gives a blocked client: MediaWiki and NCBI 403, arXiv 403 text,
 * DuckDuckGo 202 (its rate-limit answer).
 */
function forbidden(c: StandinContext, type = 'text/plain'): true {
  c.res.writeHead(403, { 'content-type': type }).end('Forbidden');
  return true;
}

export function wikipediaAnswer(c: StandinContext, mode: StandinMode): boolean {
  if (c.rec.path !== '/w/api.php') return false;
  if (mode === 'auth') return forbidden(c);
  const q = c.rec.query;
  if (q.get('list') === 'search') {
    const search =
      mode === 'empty'
        ? []
        : [
            { ns: 0, title: 'Lighthouse' },
            { ns: 0, title: 'Lighthouse (disambiguation)' },
            { ns: 0, title: 'Gone page' },
          ];
    sendJson(c.res, 200, { batchcomplete: '', query: { searchinfo: { totalhits: search.length }, search } });
    return true;
  }
  sendJson(c.res, 200, {
    batchcomplete: '',
    query: {
      pages: {
        '101': {
          pageid: 101,
          ns: 0,
          title: 'Lighthouse',
          fullurl: 'https://en.wikipedia.org/wiki/Lighthouse',
          extract: 'A lighthouse is a tower that emits light.',
        },
        '102': {
          pageid: 102,
          ns: 0,
          title: 'Lighthouse (disambiguation)',
          fullurl: 'https://en.wikipedia.org/wiki/L_(d)',
          extract: 'may refer to',
          pageprops: { disambiguation: '' },
        },
        '-1': { ns: 0, title: 'Gone page', missing: '' },
      },
    },
  });
  return true;
}

export function arxivAnswer(c: StandinContext, mode: StandinMode): boolean {
  if (c.rec.path !== '/api/query') return false;
  if (mode === 'auth') return forbidden(c);
  const entry = `<entry><id>http://arxiv.org/abs/2401.00001v1</id><published>2024-01-01T00:00:00Z</published>
    <title>Attention   Is
      All You Need Again</title><summary>  We revisit attention.  </summary><author><name>A. Author</name></author>
    <link href="http://arxiv.org/abs/2401.00001v1" rel="alternate" type="text/html"/>
    <link title="pdf" href="http://arxiv.org/pdf/2401.00001v1" rel="related" type="application/pdf"/>
    <arxiv:primary_category xmlns:arxiv="http://arxiv.org/schemas/atom" term="cs.CL" scheme="http://arxiv.org/schemas/atom"/></entry>`;
  c.res.writeHead(200, { 'content-type': 'application/atom+xml; charset=utf-8' });
  c.res.end(`<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title type="html">ArXiv Query: ${c.rec.query.get('search_query')}</title>
<opensearch:totalResults xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">${mode === 'empty' ? 0 : 1}</opensearch:totalResults>
${mode === 'empty' ? '' : entry}</feed>`);
  return true;
}

export function pubmedAnswer(c: StandinContext, mode: StandinMode): boolean {
  if (mode === 'auth') return forbidden(c);
  c.res.writeHead(200, { 'content-type': 'text/xml; charset=UTF-8' });
  if (c.rec.path.endsWith('/esearch.fcgi')) {
    const ids = mode === 'empty' ? '' : '<Id>38000001</Id><Id>38000002</Id>';
    c.res.end(
      `<?xml version="1.0" encoding="UTF-8" ?><eSearchResult><Count>${mode === 'empty' ? 0 : 2}</Count><RetMax>2</RetMax><IdList>${ids}</IdList></eSearchResult>`,
    );
    return true;
  }
  if (c.rec.path.endsWith('/efetch.fcgi')) {
    const article = (
      pmid: string,
      title: string,
      abstract: string,
    ) => `<PubmedArticle><MedlineCitation Status="MEDLINE"><PMID Version="1">${pmid}</PMID>
<Article><Journal><JournalIssue><Volume>12</Volume><Issue>3</Issue></JournalIssue><Title>Journal of Tests</Title></Journal>
<ArticleTitle>${title}</ArticleTitle><Pagination><MedlinePgn>1-9</MedlinePgn></Pagination>
${abstract ? `<Abstract><AbstractText>${abstract}</AbstractText></Abstract>` : ''}
<AuthorList><Author><LastName>Curie</LastName><ForeName>Marie</ForeName></Author></AuthorList></Article></MedlineCitation>
<PubmedData><ArticleIdList><ArticleId IdType="pubmed">${pmid}</ArticleId><ArticleId IdType="doi">10.1/x${pmid}</ArticleId></ArticleIdList></PubmedData></PubmedArticle>`;
    c.res.end(
      `<?xml version="1.0" ?><PubmedArticleSet>${article('38000001', 'Sleep and <i>memory</i>', 'Sleep helps.')}${article('38000002', 'Second', '')}</PubmedArticleSet>`,
    );
    return true;
  }
  return false;
}

export function duckDuckGoAnswer(c: StandinContext, mode: StandinMode): boolean {
  if (c.rec.path !== '/html') return false;
  if (mode === 'auth') {
    c.res.writeHead(202, { 'content-type': 'text/html' }).end('<html></html>');
    return true;
  }
  const result = (href: string, title: string, snippet: string) =>
    `<div class="result results_links web-result"><div class="links_main"><h2 class="result__title"><a class="result__a" href="${href}">${title}</a></h2><a class="result__snippet" href="${href}">${snippet}</a></div></div>`;
  const body =
    mode === 'empty'
      ? '<div class="no-results">No results.</div>'
      : result('https://duckduckgo.com/y.js?ad_domain=ads.example', 'Ad', 'buy') +
        result('https://example.com/a', 'First <b>hit</b>', 'Snippet <b>one</b>') +
        result('https://example.com/b', 'Second', 'Snippet two');
  c.res
    .writeHead(200, { 'content-type': 'text/html; charset=UTF-8' })
    .end(`<!DOCTYPE html><html><body><div id="links">${body}</div></body></html>`);
  return true;
}
