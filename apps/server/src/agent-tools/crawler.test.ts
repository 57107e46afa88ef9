import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStandin, type Standin } from '../../test/standins/common.js';
import { crawlerTool } from './crawler.js';
import { runTool, testDeps } from './testing/invoke.js';

const ARTICLE = `<!doctype html><html><head><title>Lighthouses</title><script>track()</script></head><body>
<nav><a href="/">Home</a> | <a href="/about">About</a></nav>
<article><h1>Lighthouses of the North</h1>
<p>Lighthouses guided ships along the rocky coast for <strong>centuries</strong>, long before satellite navigation.</p>
<p>Each tower had its own <a href="/signals">light signature</a> so that sailors could tell them apart at night.</p>
<ul><li>Fixed light</li><li>Flashing light</li></ul></article>
<footer>© 2026 Coast Society · <a href="/privacy">Privacy</a></footer></body></html>`;

/** Crawler against a local site: Markdown of the main content, html/content variants, errors. */
describe('Crawler tool', () => {
  let site: Standin;
  const tool = crawlerTool(testDeps({}, { timeoutMs: 400 }));
  beforeAll(async () => {
    site = await startStandin([
      (c) => {
        if (c.rec.path === '/gone') return (c.res.writeHead(410).end('gone'), true);
        c.res.writeHead(200, {
          'content-type': c.rec.path === '/plain' ? 'text/plain' : 'text/html; charset=utf-8',
        });
        c.res.end(c.rec.path === '/plain' ? 'just text' : ARTICLE);
        return true;
      },
    ]);
  });
  afterAll(() => site.close());

  it('turns the page into clean Markdown of its main content', async () => {
    const run = await runTool(tool, {
      params: { query: '{sys.query}' },
      refs: { 'sys.query': `read ${site.origin}/post please` },
    });
    expect(run.error).toBeUndefined();
    const md = run.outputs.content as string;
    expect(md).toContain('Lighthouses guided ships along the rocky coast for **centuries**');
    expect(md).toContain(`[light signature](${site.origin}/signals)`);
    expect(md).toMatch(/-\s+Fixed light\n-\s+Flashing light/);
    expect(md).not.toMatch(/track\(\)|Privacy|About/);
  });

  it('gives the text or the HTML with extract_type content/html, and plain text as it is', async () => {
    const content = await runTool(tool, {
      params: { extract_type: 'content' },
      args: { query: `${site.origin}/post` },
    });
    expect(content.outputs.content).toContain('Each tower had its own light signature');
    expect(content.outputs.content).not.toContain('<');
    const html = await runTool(tool, {
      params: { extract_type: 'html' },
      args: { query: `${site.origin}/post` },
    });
    expect(html.outputs.content).toContain('<strong>centuries</strong>');
    expect((await runTool(tool, { args: { query: `${site.origin}/plain` } })).outputs.content).toBe(
      'just text',
    );
  });

  it('reports an invalid URL, an HTTP error and a timeout', async () => {
    expect((await runTool(tool, { args: { query: 'no url here' } })).error).toBe('URL not valid');
    expect((await runTool(tool, { args: { query: `${site.origin}/gone` } })).error).toMatch(/HTTP 410/);
    site.fail('hang');
    expect((await runTool(tool, { args: { query: `${site.origin}/slow` } })).error).toMatch(
      /Crawler error: no answer .* within 0\.4 s/,
    );
    expect(tool.check?.({ extract_type: 'pdf' })).toHaveLength(1);
  });
});
