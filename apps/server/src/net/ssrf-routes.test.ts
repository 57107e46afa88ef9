import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, newUser, startTestServer, type TestServer, type TestUser } from '../../test/harness.js';
import { tavilySearch } from '../chat/web-search.js';
import { outboundPolicyOf, setOutboundResolver, type Resolver } from './index.js';

/**
 * Issue 11 item 1 over HTTP: web_crawl, parse-by-URL and model base URLs refuse private targets in
 * every spelling, a public name resolving privately, and a redirect into the private network;
 * LECTERN_SSRF_ALLOW opens exactly what it lists. These servers run without the test allow list.
 */
const SPELLINGS = [
  '127.0.0.1',
  '127.1',
  '2130706433',
  '0177.0.0.1',
  '0x7f.1',
  '0.0.0.0',
  'localhost',
  'localhost.',
  'LOCALHOST',
  '[::1]',
  '[::ffff:127.0.0.1]',
  '[::ffff:7f00:1]',
  '[::127.0.0.1]',
  '169.254.169.254',
  '[fd00:ec2::254]',
  'metadata.google.internal',
  '10.0.0.1',
  '192.168.1.1',
  '100.64.0.1',
];

function startSite(host: string, port: number, routes: http.RequestListener): Promise<http.Server> {
  const server = http.createServer(routes);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}
const portOf = (s: http.Server) => (s.address() as AddressInfo).port;

describe('outbound guard over HTTP', () => {
  let strict: TestServer;
  let allowing: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let privateSite: http.Server;
  let publicSite: http.Server;
  let privateHits = 0;
  let strictKb: string;
  let allowingKb: string;

  beforeAll(async () => {
    privateSite = await startSite('127.0.0.1', 0, (_req, res) => {
      privateHits++;
      res.writeHead(200, { 'content-type': 'text/plain' }).end('SECRET');
    });
    publicSite = await startSite('127.0.0.2', 0, (req, res) => {
      if (req.url === '/to-private')
        return res.writeHead(302, { location: `http://127.0.0.1:${portOf(privateSite)}/` }).end();
      if (req.url?.startsWith('/loop/'))
        return res.writeHead(302, { location: `/loop/${Number(req.url.split('/')[2]) + 1}` }).end();
      if (req.url === '/big')
        return res.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(5000));
      res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Hello from 127.0.0.2</h1>');
    });
    strict = await startTestServer({
      LECTERN_SSRF_ALLOW: '',
      MODEL_VERIFY: '1',
      MODEL_VERIFY_TIMEOUT_MS: '2000',
    });
    allowing = await startTestServer({ LECTERN_SSRF_ALLOW: 'intranet.test, 127.0.0.2/31' });
    // Names resolve through a stand-in resolver: public.example is a "public" name with a private address.
    const resolver: Resolver = async (host) => {
      if (host === 'public.example') return [{ address: '10.1.2.3', family: 4 }];
      if (host === 'intranet.test' || host === 'other.test') return [{ address: '127.0.0.2', family: 4 }];
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    };
    setOutboundResolver(strict.ctx.config, resolver);
    setOutboundResolver(allowing.ctx.config, resolver);
    alice = await newUser(strict, 'alice');
    bob = await newUser(allowing, 'bob');
    const kb = async (s: TestServer, u: TestUser) =>
      (
        (await call(s, '/v1/kb/create', { token: u.token, body: { name: 'web', embd_id: '' } })).body
          .data as {
          kb_id: string;
        }
      ).kb_id;
    strictKb = await kb(strict, alice);
    allowingKb = await kb(allowing, bob);
  });
  afterAll(async () => {
    await strict.close();
    await allowing.close();
    await new Promise((r) => privateSite.close(r));
    await new Promise((r) => publicSite.close(r));
  });

  const crawl = (s: TestServer, u: TestUser, kbId: string, url: string) =>
    call(s, '/v1/document/web_crawl', { token: u.token, body: { kb_id: kbId, name: 'page', url } });

  it('web_crawl and parse refuse every spelling of a private or metadata address', async () => {
    const port = portOf(privateSite);
    for (const host of SPELLINGS) {
      const url = `http://${host}:${port}/`;
      const res = await crawl(strict, alice, strictKb, url);
      expect({ url, ...res.body }).toMatchObject({
        url,
        code: 101,
        message: expect.stringMatching(
          /^The URL points to a (private or local|cloud metadata) address \(.+\); set LECTERN_SSRF_ALLOW to allow it\.$/,
        ),
      });
      const parsed = await call(strict, '/v1/document/parse', { token: alice.token, body: { url } });
      expect(parsed.body.code).toBe(101);
    }
    expect(privateHits).toBe(0);
    const docs = await call(strict, `/v1/document/list?kb_id=${strictKb}`, { token: alice.token, body: {} });
    expect((docs.body.data as { total: number }).total).toBe(0);
  });

  it('refuses a public name that resolves to a private address', async () => {
    const res = await crawl(strict, alice, strictKb, 'http://public.example/page');
    expect(res.body).toMatchObject({
      code: 101,
      message:
        'The URL points to a private or local address (public.example → 10.1.2.3); set LECTERN_SSRF_ALLOW to allow it.',
    });
  });

  it('LECTERN_SSRF_ALLOW: an allowed host name and CIDR are fetched, a redirect out of them is refused', async () => {
    const port = portOf(publicSite);
    expect((await crawl(allowing, bob, allowingKb, `http://intranet.test:${port}/`)).body).toMatchObject({
      code: 0,
      data: true,
    });
    expect((await crawl(allowing, bob, allowingKb, `http://127.0.0.2:${port}/`)).body.code).toBe(0);
    // other.test resolves to 127.0.0.2 too: allowed by the CIDR entry, not by its name.
    expect((await crawl(allowing, bob, allowingKb, `http://other.test:${port}/`)).body.code).toBe(0);
    const redirected = await crawl(allowing, bob, allowingKb, `http://intranet.test:${port}/to-private`);
    expect(redirected.body).toMatchObject({
      code: 101,
      message:
        'The URL points to a private or local address (127.0.0.1); set LECTERN_SSRF_ALLOW to allow it.',
    });
    expect(
      (await crawl(allowing, bob, allowingKb, `http://127.0.0.1:${portOf(privateSite)}/`)).body.code,
    ).toBe(101);
    expect(privateHits).toBe(0);
  });

  it('caps redirects and the size of a crawled page', async () => {
    const capped = await startTestServer({ LECTERN_SSRF_ALLOW: '127.0.0.2', MAX_FILE_BYTES: '1000' });
    try {
      const carol = await newUser(capped, 'carol');
      const kbId = (
        (await call(capped, '/v1/kb/create', { token: carol.token, body: { name: 'web', embd_id: '' } })).body
          .data as { kb_id: string }
      ).kb_id;
      const port = portOf(publicSite);
      expect((await crawl(capped, carol, kbId, `http://127.0.0.2:${port}/loop/0`)).body).toMatchObject({
        code: 101,
        message: 'The URL redirects more than 5 times.',
      });
      expect((await crawl(capped, carol, kbId, `http://127.0.0.2:${port}/big`)).body).toMatchObject({
        code: 101,
        message: 'The answer is larger than the limit of 1000 bytes.',
      });
    } finally {
      await capped.close();
    }
  });

  it('a model base URL on a private address is refused unless allowed', async () => {
    const port = portOf(privateSite);
    for (const base of [`http://127.0.0.1:${port}/v1`, `http://[::ffff:127.0.0.1]:${port}/v1`]) {
      const res = await call(strict, '/v1/llm/add_llm', {
        token: alice.token,
        body: {
          llm_factory: 'OpenAI-API-Compatible',
          llm_name: 'internal-chat',
          model_type: 'chat',
          api_base: base,
          api_key: 'sk-x',
        },
      });
      expect(res.body.code).toBe(102);
      expect(res.body.message).toMatch(
        /OpenAI-API-Compatible: The URL points to a private or local address \(.+\); set LECTERN_SSRF_ALLOW to allow it\.$/,
      );
    }
    expect(privateHits).toBe(0);
  });

  it('web search (Tavily) goes through the guard', async () => {
    await expect(
      tavilySearch('tvly-key', 'q', {
        baseUrl: `http://127.0.0.1:${portOf(privateSite)}`,
        policy: outboundPolicyOf(strict.ctx.config),
      }),
    ).rejects.toThrow(
      'Web search (Tavily) refused: The URL points to a private or local address (127.0.0.1); set LECTERN_SSRF_ALLOW to allow it.',
    );
    expect(privateHits).toBe(0);
  });
});
