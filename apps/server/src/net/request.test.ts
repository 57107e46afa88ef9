import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchBytes, safeFetch } from './fetch.js';
import { createPolicy, type Resolver } from './policy.js';

/**
 * The guard against stand-ins on loopback addresses: 127.0.0.2 plays a public site (allowed by an IP
 * entry), 127.0.0.1 the private target that must never be reached. Nothing leaves the machine.
 */
interface Site {
  server: http.Server;
  port: number;
  hits: Array<{ method: string; url: string; host: string; authorization?: string; body: string }>;
}

function handler(site: Site, routes: (req: http.IncomingMessage, res: http.ServerResponse) => void) {
  return (req: http.IncomingMessage, res: http.ServerResponse) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      site.hits.push({
        method: req.method ?? '',
        url: req.url ?? '',
        host: req.headers.host ?? '',
        authorization: req.headers.authorization,
        body,
      });
      routes(req, res);
    });
  };
}

async function listen(host: string, port: number, routes: Parameters<typeof handler>[1]): Promise<Site> {
  const site = { hits: [] } as unknown as Site;
  site.server = http.createServer(handler(site, routes));
  await new Promise<void>((resolve, reject) => {
    site.server.once('error', reject);
    site.server.listen(port, host, () => resolve());
  });
  site.port = (site.server.address() as AddressInfo).port;
  return site;
}

/** A "public" site on 127.0.0.2 and a private one on 127.0.0.1, on the same port. */
async function twoSites(
  publicRoutes: Parameters<typeof handler>[1],
  privateRoutes: Parameters<typeof handler>[1],
): Promise<{ pub: Site; priv: Site }> {
  for (let attempt = 0; ; attempt++) {
    const pub = await listen('127.0.0.2', 0, publicRoutes);
    try {
      const priv = await listen('127.0.0.1', pub.port, privateRoutes);
      return { pub, priv };
    } catch (err) {
      await new Promise((r) => pub.server.close(r));
      if (attempt > 20) throw err;
    }
  }
}

const close = (s: Site) => new Promise((r) => s.server.close(r));

describe('outbound requests', () => {
  let pub: Site;
  let priv: Site;
  // Resolves "site.test" to the public stand-in; the private one is only reachable by spelling it.
  const resolve: Resolver = async () => [{ address: '127.0.0.2', family: 4 }];
  const policy = createPolicy({ ssrfAllow: '127.0.0.2', resolve });

  beforeAll(async () => {
    ({ pub, priv } = await twoSites(
      (req, res) => {
        const url = new URL(req.url ?? '/', 'http://x');
        if (url.pathname === '/to-private')
          return res.writeHead(302, { location: `http://127.0.0.1:${pub.port}/secret` }).end();
        if (url.pathname === '/to-private-mapped')
          return res.writeHead(301, { location: `http://[::ffff:7f00:1]:${pub.port}/secret` }).end();
        if (url.pathname.startsWith('/loop/')) {
          const n = Number(url.pathname.split('/')[2]);
          return res.writeHead(302, { location: `/loop/${n + 1}` }).end();
        }
        if (url.pathname === '/see-other') return res.writeHead(303, { location: '/echo' }).end();
        if (url.pathname === '/temporary') return res.writeHead(307, { location: '/echo' }).end();
        if (url.pathname === '/echo')
          return res
            .writeHead(200, { 'content-type': 'text/plain' })
            .end(`${req.method} ${req.headers.host}`);
        if (url.pathname === '/big-declared')
          return res
            .writeHead(200, { 'content-length': String(2 * 1024 * 1024) })
            .end(Buffer.alloc(2 * 1024 * 1024));
        if (url.pathname === '/big-streamed') {
          res.writeHead(200, { 'content-type': 'application/octet-stream' });
          let sent = 0;
          const pump = () => {
            while (sent < 4 * 1024 * 1024) {
              sent += 64 * 1024;
              if (!res.write(Buffer.alloc(64 * 1024, 97))) return res.once('drain', pump);
            }
            res.end();
          };
          return pump();
        }
        if (url.pathname === '/gzip-bomb')
          return res
            .writeHead(200, { 'content-encoding': 'gzip' })
            .end(zlib.gzipSync(Buffer.alloc(8 * 1024 * 1024)));
        if (url.pathname === '/gzip')
          return res.writeHead(200, { 'content-encoding': 'gzip' }).end(zlib.gzipSync('hello, compressed'));
        if (url.pathname === '/hang') return; // never answers
        if (url.pathname === '/drip') {
          res.writeHead(200);
          const t = setInterval(() => res.write('.'), 50);
          res.on('close', () => clearInterval(t));
          return;
        }
        res.writeHead(200, { 'content-type': 'text/html' }).end('<p>public page</p>');
      },
      (_req, res) => res.writeHead(200).end('SECRET'),
    ));
  });
  afterAll(async () => {
    await close(pub);
    await close(priv);
  });

  const at = (path: string) => `http://site.test:${pub.port}${path}`;

  it('fetches an allowed target by name, keeping the Host header', async () => {
    const res = await fetchBytes(policy, at('/echo'));
    expect(res.body.toString()).toBe(`GET site.test:${pub.port}`);
    expect(pub.hits.at(-1)?.host).toBe(`site.test:${pub.port}`);
  });

  it('refuses a redirect from an allowed host to 127.0.0.1, in any spelling', async () => {
    for (const path of ['/to-private', '/to-private-mapped']) {
      await expect(fetchBytes(policy, at(path))).rejects.toMatchObject({
        kind: 'blocked',
        message: expect.stringMatching(/^The URL points to a private or local address \(/),
      });
    }
    expect(priv.hits).toEqual([]);
  });

  it('caps redirects', async () => {
    const before = pub.hits.length;
    await expect(fetchBytes(policy, at('/loop/0'))).rejects.toMatchObject({
      kind: 'too_many_redirects',
      message: 'The URL redirects more than 5 times.',
    });
    expect(pub.hits.length - before).toBe(6);
    await expect(fetchBytes(policy, at('/loop/0'), { maxRedirects: 2 })).rejects.toThrow(
      'The URL redirects more than 2 times.',
    );
  });

  it('follows 303 as GET and 307 with the method and body', async () => {
    const seeOther = await safeFetch(policy, at('/see-other'), { method: 'POST', body: 'x=1' });
    expect(await seeOther.text()).toBe(`GET site.test:${pub.port}`);
    expect(seeOther.redirected).toBe(true);
    const temporary = await safeFetch(policy, at('/temporary'), { method: 'POST', body: 'x=2' });
    expect(await temporary.text()).toBe(`POST site.test:${pub.port}`);
    expect(pub.hits.at(-1)?.body).toBe('x=2');
  });

  it('caps the size of an answer, declared, streamed or compressed', async () => {
    const maxBytes = 1024 * 1024;
    await expect(fetchBytes(policy, at('/big-declared'), { maxBytes })).rejects.toMatchObject({
      kind: 'too_large',
      message: 'The answer is larger than the limit of 1 MB.',
    });
    await expect(fetchBytes(policy, at('/big-streamed'), { maxBytes })).rejects.toMatchObject({
      kind: 'too_large',
    });
    await expect(fetchBytes(policy, at('/gzip-bomb'), { maxBytes })).rejects.toMatchObject({
      kind: 'too_large',
    });
    // Through the Response face, the body stream fails.
    const res = await safeFetch(policy, at('/big-streamed'), { maxBytes });
    await expect(res.arrayBuffer()).rejects.toThrow();
    expect((await fetchBytes(policy, at('/gzip'))).body.toString()).toBe('hello, compressed');
  });

  it('caps the total time, waiting for headers or for a body that drips', async () => {
    const started = Date.now();
    await expect(fetchBytes(policy, at('/hang'), { timeoutMs: 300 })).rejects.toMatchObject({
      kind: 'timeout',
      message: `No complete answer from site.test:${pub.port} within 0.3 s.`,
    });
    await expect(fetchBytes(policy, at('/drip'), { timeoutMs: 300 })).rejects.toMatchObject({
      kind: 'timeout',
    });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('refuses other schemes and bad URLs', async () => {
    await expect(fetchBytes(policy, 'ftp://site.test/x')).rejects.toMatchObject({
      kind: 'unsupported_protocol',
    });
    await expect(fetchBytes(policy, 'file:///etc/passwd')).rejects.toMatchObject({
      kind: 'unsupported_protocol',
    });
    await expect(fetchBytes(policy, 'http://')).rejects.toMatchObject({ kind: 'invalid_url' });
  });

  it('DNS rebinding: the connection goes to the address that was checked, never to a later answer', async () => {
    let calls = 0;
    // Public first, private on every later lookup: a guard that resolved twice (check, then connect)
    // would connect to 127.0.0.1.
    const rebinding: Resolver = async () =>
      calls++ === 0 ? [{ address: '127.0.0.2', family: 4 }] : [{ address: '127.0.0.1', family: 4 }];
    const rebindPolicy = createPolicy({ ssrfAllow: '127.0.0.2', resolve: rebinding });
    const res = await fetchBytes(rebindPolicy, `http://rebind.test:${pub.port}/echo`);
    expect(res.body.toString()).toBe(`GET rebind.test:${pub.port}`);
    expect(calls).toBe(1);
    await expect(fetchBytes(rebindPolicy, `http://rebind.test:${pub.port}/echo`)).rejects.toMatchObject({
      kind: 'blocked',
      message: `The URL points to a private or local address (rebind.test → 127.0.0.1); set LECTERN_SSRF_ALLOW to allow it.`,
    });
    expect(priv.hits).toEqual([]);
  });

  it('without an allow list, the loopback stand-ins themselves are refused', async () => {
    const strict = createPolicy({});
    for (const host of [
      '127.0.0.1',
      '127.0.0.2',
      'localhost',
      '[::ffff:127.0.0.1]',
      '2130706433',
      '0x7f.1',
    ]) {
      await expect(fetchBytes(strict, `http://${host}:${pub.port}/`)).rejects.toMatchObject({
        kind: 'blocked',
      });
    }
    expect(priv.hits).toEqual([]);
  });
});
