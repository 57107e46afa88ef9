/**
 * HTML → text or Markdown for Invoke (`clean_html`) and Crawler: a DOM from linkedom, the main
 * content found by Mozilla Readability, Markdown written by Turndown.
 */
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import TurndownService from 'turndown';

const NOISE = 'script, style, noscript, template, iframe, svg, canvas, head';
const BLOCKS = new Set([
  'P',
  'DIV',
  'SECTION',
  'ARTICLE',
  'MAIN',
  'HEADER',
  'FOOTER',
  'ASIDE',
  'NAV',
  'LI',
  'TR',
  'TD',
  'TH',
  'H1',
  'H2',
  'H3',
  'H4',
  'H5',
  'H6',
  'PRE',
  'BLOCKQUOTE',
  'BR',
  'DT',
  'DD',
  'FIGCAPTION',
  'TABLE',
  'UL',
  'OL',
]);

export function looksLikeHtml(contentType: string | null, body: string): boolean {
  if (contentType && /html|xml/i.test(contentType)) return /html/i.test(contentType);
  return /^\s*(<!doctype html|<html|<head|<body)/i.test(body);
}

type Doc = ReturnType<typeof parseHTML>['document'];
/** The few node fields the text walk reads (the server compiles without the DOM typings). */
interface DomNode {
  nodeType: number;
  textContent: string | null;
  tagName?: string;
  childNodes: ArrayLike<DomNode>;
}

function documentOf(html: string): Doc {
  return parseHTML(/<html[\s>]/i.test(html) ? html : `<!doctype html><html><body>${html}</body></html>`)
    .document;
}

/** The page's text, one line per block (scripts, styles and other non-text removed). */
export function htmlToText(html: string): string {
  const doc = documentOf(html);
  for (const el of Array.from(doc.querySelectorAll(NOISE)) as Array<{ remove(): void }>) el.remove();
  const lines: string[] = [];
  let line = '';
  const flush = () => {
    const t = line.replace(/\s+/g, ' ').trim();
    if (t) lines.push(t);
    line = '';
  };
  const walk = (node: DomNode) => {
    if (node.nodeType === 3) line += node.textContent ?? '';
    else if (node.nodeType === 1) {
      const block = BLOCKS.has(node.tagName ?? '');
      if (block) flush();
      for (const child of Array.from(node.childNodes)) walk(child);
      if (block) flush();
    }
  };
  walk((doc.body ?? doc.documentElement) as unknown as DomNode);
  flush();
  return lines.join('\n');
}

export interface CleanPage {
  title: string;
  /** the main content's HTML */
  html: string;
  text: string;
  markdown: string;
}

/** The main content of a page (Readability), or the whole body when Readability finds none. */
export function cleanPage(html: string, url: string): CleanPage {
  const doc = documentOf(html);
  // Readability resolves relative links against the document's URL.
  if (!doc.querySelector('base')) {
    const base = doc.createElement('base');
    base.setAttribute('href', url);
    doc.head?.appendChild(base);
  }
  const article = new Readability(doc.cloneNode(true) as ConstructorParameters<typeof Readability>[0], {
    charThreshold: 0,
  }).parse();
  const mainHtml = article?.content?.trim() ? article.content : (doc.body?.innerHTML ?? '');
  const turndown = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
  });
  turndown.remove(['script', 'style', 'noscript', 'iframe']);
  const markdown = turndown.turndown(mainHtml).trim();
  const title = (article?.title ?? doc.title ?? '').trim();
  return {
    title,
    html: mainHtml,
    text: (article?.textContent ?? htmlToText(mainHtml)).replace(/\n{3,}/g, '\n\n').trim(),
    markdown: title && !markdown.startsWith('#') ? `# ${title}\n\n${markdown}` : markdown,
  };
}
