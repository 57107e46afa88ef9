/**
 * Issue 11 items 2 (user bytes never run in the app's origin; the app's own security headers),
 * 4 (per-route body limits, 413 before buffering) and 7 (CORS) — over HTTP.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, newUser, startTestServer, type TestServer, type TestUser } from '../../test/harness.js';
import { createKb, uploadDocs } from '../modules/kb/test-support.js';

let server: TestServer;
let user: TestUser;
let kbId: string;

beforeAll(async () => {
  server = await startTestServer({ CORS_ORIGINS: 'https://app.example.org, http://localhost:5173/' });
  user = await newUser(server);
  kbId = await createKb(server, user.token);
});
afterAll(async () => server.close());

async function getDoc(docId: string) {
  return fetch(`${server.url}/v1/document/get/${docId}`, { headers: { Authorization: user.token } });
}

describe('user content (item 2)', () => {
  it.each([
    ['page.html', '<html><script>alert(document.domain)</script></html>'],
    ['pic.svg', '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'],
    ['feed.xml', '<?xml version="1.0"?><x:script xmlns:x="http://www.w3.org/1999/xhtml">alert(1)</x:script>'],
  ])('serves %s as an attachment in text/plain, sandboxed, nosniff', async (name, body) => {
    const [doc] = await uploadDocs(server, user.token, kbId, [{ name, data: body }]);
    const res = await getDoc(doc.id);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toMatch(/^sandbox; default-src 'none'/);
    expect(await res.text()).toBe(body);
  });

  it('serves passive types inline with their type, still sandboxed and nosniff', async () => {
    const [doc] = await uploadDocs(server, user.token, kbId, [{ name: 'n\u00e4me.txt', data: 'plain' }]);
    const res = await getDoc(doc.id);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(
      `inline; filename="n_me.txt"; filename*=UTF-8''${encodeURIComponent('n\u00e4me.txt')}`,
    );
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toContain('sandbox');
  });

  it('sends the app headers on API answers and web pages; share pages may be framed', async () => {
    const api = await fetch(`${server.url}/v1/system/config`);
    expect(api.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(api.headers.get('x-content-type-options')).toBe('nosniff');
    expect(api.headers.get('content-security-policy')).toContain("frame-ancestors 'self'");
    expect(api.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    const page = await fetch(`${server.url}/knowledge`);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.headers.get('content-security-policy')).toContain("style-src 'self' 'unsafe-inline'");
    const share = await fetch(`${server.url}/chat/share?shared_id=x&auth=y`);
    expect(share.headers.get('content-security-policy')).toContain('frame-ancestors *');
    expect(share.headers.get('x-frame-options')).toBeNull();
  });
});

/**
 * Sends a request whose headers promise `declared` bytes (null = chunked), writing up to `sent`
 * bytes, and resolves with the answer as soon as it arrives (the server may stop reading first).
 */
function rawPost(
  path: string,
  declared: number | null,
  sent: number,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { 'Content-Type': 'application/json' };
    if (declared !== null) headers['Content-Length'] = declared;
    const req = http.request(new URL(path, server.url), { method: 'POST', headers });
    let answered = false;
    req.on('response', (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => {
        answered = true;
        req.destroy();
        resolve({ status: res.statusCode ?? 0, body });
      });
    });
    req.on('error', (err) => {
      if (!answered) reject(err);
    });
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    let written = 0;
    const pump = () => {
      while (written < sent && !answered && !req.destroyed) {
        const n = Math.min(chunk.length, sent - written);
        written += n;
        if (!req.write(chunk.subarray(0, n))) return void req.once('drain', pump);
      }
      if (declared === null && !answered && !req.destroyed) req.end();
    };
    pump();
  });
}

describe('body limits (item 4)', () => {
  it('refuses a declared oversized login body with 413 before reading it', async () => {
    const res = await rawPost('/v1/user/login', 300 * 1024 * 1024, 256 * 1024);
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toEqual({ code: 400, message: 'Request body too large', data: null });
  });

  it('cuts off a streamed (chunked) body past the limit with 413', async () => {
    const res = await rawPost('/v1/user/login', null, 3 * 1024 * 1024);
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body).message).toBe('Request body too large');
  });

  it('lets routes that carry long texts take more than the small limit', async () => {
    const big = 'x'.repeat(1_500_000);
    const small = await call(server, '/v1/kb/list', { token: user.token, body: { big } });
    expect(small.status).toBe(413);
    const large = await call(server, '/v1/user/setting', { token: user.token, body: { nickname: 'n', big } });
    expect(large.body.code).toBe(0);
  });
});

describe('CORS (item 7)', () => {
  const preflight = (path: string, origin: string, method = 'POST') =>
    fetch(`${server.url}${path}`, {
      method: 'OPTIONS',
      headers: { Origin: origin, 'Access-Control-Request-Method': method },
    });

  it('reflects only configured origins, with credentials', async () => {
    const ok = await fetch(`${server.url}/v1/system/config`, {
      headers: { Origin: 'https://app.example.org' },
    });
    expect(ok.headers.get('access-control-allow-origin')).toBe('https://app.example.org');
    expect(ok.headers.get('access-control-allow-credentials')).toBe('true');
    expect(ok.headers.get('access-control-expose-headers')).toMatch(/Authorization/);
    const dev = await preflight('/v1/user/login', 'http://localhost:5173');
    expect(dev.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
  });

  it('gives an arbitrary origin nothing on account and data routes', async () => {
    for (const res of [
      await preflight('/v1/user/login', 'https://evil.example'),
      await fetch(`${server.url}/v1/user/info`, {
        headers: { Origin: 'https://evil.example', Authorization: user.token },
      }),
    ]) {
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    }
  });

  it('lets any site call the share/embed and API-key routes, without credentials', async () => {
    const share = await preflight('/v1/conversation/getsse/0123', 'https://blog.example', 'GET');
    expect(share.headers.get('access-control-allow-origin')).toBe('*');
    expect(share.headers.get('access-control-allow-credentials')).toBeNull();
    const legacy = await preflight('/v1/api/completion', 'https://blog.example');
    expect(legacy.headers.get('access-control-allow-origin')).toBe('*');
  });
});
