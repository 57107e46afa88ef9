import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, newUser, startTestServer, type TestServer, type TestUser } from '../../../test/harness.js';
import { makePdf, textPages } from '../../ingest/testing/make-pdf.js';
import { createKb, listDocs, upload } from '../kb/test-support.js';

const PAGE =
  '<html><head><title>Crawled</title></head><body><h1>Crawled page</h1><p>Hello from the web.</p></body></html>';

describe('web_crawl and parse (API.md §6)', () => {
  let site: http.Server;
  let siteUrl: string;
  let open: TestServer;
  let strict: TestServer;
  let alice: TestUser;
  let eve: TestUser;
  beforeAll(async () => {
    site = http.createServer((req, res) => {
      if (req.url === '/page')
        return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
      if (req.url === '/doc')
        return res
          .writeHead(200, { 'content-type': 'application/pdf' })
          .end(makePdf(textPages(1, 4, 'Fetched')));
      if (req.url === '/moved') return res.writeHead(302, { location: '/page' }).end();
      res.writeHead(404).end('nope');
    });
    await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    // ALLOW_PRIVATE_FETCH=1 is the deprecated alias of "allow every private target"; it still works.
    open = await startTestServer({ ALLOW_PRIVATE_FETCH: '1', LECTERN_SSRF_ALLOW: '' });
    strict = await startTestServer({ LECTERN_SSRF_ALLOW: '' });
    alice = await newUser(open, 'alice');
    eve = await newUser(strict, 'eve');
  });
  afterAll(async () => {
    await open.close();
    await strict.close();
    await new Promise((r) => site.close(r));
  });

  it('stores a fetched page as <name>.html and a fetched PDF as <name>.pdf', async () => {
    const kb = await createKb(open, alice.token, { name: 'Web' });
    const crawl = (fields: Record<string, string>) =>
      upload(open, alice.token, fields, [], '/v1/document/web_crawl');
    expect((await crawl({ kb_id: kb, name: 'home', url: `${siteUrl}/moved` })).body).toEqual({
      code: 0,
      message: 'success',
      data: true,
    });
    expect((await crawl({ kb_id: kb, name: 'paper', url: `${siteUrl}/doc` })).body.code).toBe(0);
    const docs = await listDocs(open, alice.token, kb);
    expect(docs.map((d) => [d.name, d.type, d.source_type]).sort()).toEqual([
      ['home.html', 'doc', 'web_crawl'],
      ['paper.pdf', 'pdf', 'web_crawl'],
    ]);
    expect(
      (await call(open, `/v1/kb/basic_info?kb_id=${kb}`, { token: alice.token })).body.data,
    ).toMatchObject({ downloaded: 2 });

    expect((await crawl({ name: 'x', url: `${siteUrl}/page` })).body).toMatchObject({
      code: 101,
      message: 'Lack of "KB ID"',
    });
    expect((await crawl({ kb_id: kb, name: 'x', url: 'not a url' })).body).toMatchObject({
      code: 101,
      message: 'The URL format is invalid',
    });
    expect((await crawl({ kb_id: kb, name: 'x', url: `${siteUrl}/missing` })).body).toMatchObject({
      code: 100,
      message: 'Download failure.',
    });
    expect((await crawl({ kb_id: 'f'.repeat(32), name: 'x', url: `${siteUrl}/page` })).body).toMatchObject({
      code: 100,
      message: "Can't find this dataset!",
    });
    const bob = await newUser(open, 'bob');
    expect(
      (
        await upload(
          open,
          bob.token,
          { kb_id: kb, name: 'x', url: `${siteUrl}/page` },
          [],
          '/v1/document/web_crawl',
        )
      ).body.code,
    ).toBe(109);
  });

  it('refuses loopback and private addresses unless allowed', async () => {
    const kb = await createKb(strict, eve.token, { name: 'Strict' });
    const res = await upload(
      strict,
      eve.token,
      { kb_id: kb, name: 'home', url: `${siteUrl}/page` },
      [],
      '/v1/document/web_crawl',
    );
    expect(res.body.code).toBe(101);
    expect(res.body.message).toBe(
      'The URL points to a private or local address (127.0.0.1); set LECTERN_SSRF_ALLOW to allow it.',
    );
    const viaName = await upload(
      strict,
      eve.token,
      { kb_id: kb, name: 'home', url: siteUrl.replace('127.0.0.1', 'localhost') + '/page' },
      [],
      '/v1/document/web_crawl',
    );
    expect(viaName.body.message).toMatch(/private or local address \(localhost → 127\.0\.0\.1\)/);
    expect(await listDocs(strict, eve.token, kb)).toEqual([]);
  });

  it('parse returns the plain text of uploaded files or of a URL', async () => {
    const res = await upload(
      open,
      alice.token,
      {},
      [
        { name: 'a.txt', data: 'first file text' },
        { name: 'b.html', data: PAGE },
      ],
      '/v1/document/parse',
    );
    expect(res.body.code).toBe(0);
    expect(res.body.data).toContain('first file text');
    expect(res.body.data).toContain('Hello from the web.');
    const byUrl = await call(open, '/v1/document/parse', {
      token: alice.token,
      body: { url: `${siteUrl}/doc` },
    });
    expect(byUrl.body.data).toContain('Fetched page 1');
    expect(
      (await call(open, '/v1/document/parse', { token: alice.token, body: { url: 'ftp://x' } })).body,
    ).toMatchObject({ code: 101, message: 'The URL format is invalid' });
    expect((await call(open, '/v1/document/parse', { token: alice.token, body: {} })).body).toMatchObject({
      code: 101,
      message: 'No file part!',
    });
  });
});
