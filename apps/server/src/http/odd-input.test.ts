/**
 * Issue 11 items 6 (odd input → clean envelope errors, never ENAMETOOLONG or a 500) and 9 (an
 * empty upload is refused at upload time) — over HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, newUser, startTestServer, type TestServer, type TestUser } from '../../test/harness.js';
import { createKb, upload, uploadDocs } from '../modules/kb/test-support.js';

let server: TestServer;
let user: TestUser;
let kbId: string;

beforeAll(async () => {
  server = await startTestServer();
  user = await newUser(server);
  kbId = await createKb(server, user.token);
});
afterAll(async () => server.close());

/** A name of exactly `bytes` UTF-8 bytes (multi-byte letters, ASCII padding) ending in `.txt`. */
function nameOf(bytes: number): string {
  const stem = '\u00e9'.repeat(Math.floor((bytes - 4) / 2));
  return `${stem}${'a'.repeat(bytes - 4 - Buffer.byteLength(stem))}.txt`;
}

describe('long names (item 6)', () => {
  it.each([236, 240, 250, 255])('stores and serves an upload named with %i bytes', async (bytes) => {
    const name = nameOf(bytes);
    expect(Buffer.byteLength(name)).toBe(bytes);
    const [doc] = await uploadDocs(server, user.token, kbId, [{ name, data: `hello ${bytes}` }]);
    expect(doc.name).toBe(name);
    const res = await fetch(`${server.url}/v1/document/get/${doc.id}`, {
      headers: { Authorization: user.token },
    });
    expect(await res.text()).toBe(`hello ${bytes}`);
    // A second upload of the same name gets a suffix past 255 bytes and is still stored.
    const [again] = await uploadDocs(server, user.token, kbId, [{ name, data: 'again' }]);
    expect(again.id).not.toBe(doc.id);
  });

  it('refuses names over 255 bytes with 101 on every route that takes one', async () => {
    const long = nameOf(300);
    const up = await upload(server, user.token, { kb_id: kbId }, [{ name: long, data: 'x' }]);
    expect(up.body).toMatchObject({ code: 101, message: 'File name must be 255 bytes or less.' });
    const create = await call(server, '/v1/document/create', {
      token: user.token,
      body: { kb_id: kbId, name: long },
    });
    expect(create.body).toMatchObject({ code: 101, message: 'File name must be 255 bytes or less.' });
    const [doc] = await uploadDocs(server, user.token, kbId, [{ name: 'short.txt', data: 'x' }]);
    const rename = await call(server, '/v1/document/rename', {
      token: user.token,
      body: { doc_id: doc.id, name: long },
    });
    expect(rename.body).toMatchObject({ code: 101 });
    const okRename = await call(server, '/v1/document/rename', {
      token: user.token,
      body: { doc_id: doc.id, name: nameOf(249) },
    });
    expect(okRename.body.code).toBe(0);
    const form = new FormData();
    form.append('kb_id', kbId);
    form.append('name', 'n'.repeat(300));
    form.append('url', 'http://127.0.0.1:9/page');
    const crawl = await fetch(`${server.url}/v1/document/web_crawl`, {
      method: 'POST',
      headers: { Authorization: user.token },
      body: form,
    });
    expect(await crawl.json()).toMatchObject({ code: 101, message: 'File name must be 255 bytes or less.' });
    const kb = await call(server, '/v1/kb/create', { token: user.token, body: { name: 'k'.repeat(300) } });
    expect(kb.body.code).toBe(102);
  });
});

describe('counts (item 6)', () => {
  const bad = [1e308, -1, 'abc', '1e308', 2.5];

  it.each(bad)('refuses page/size/top_k = %s with a clean 100', async (value) => {
    const answers = [
      await call(server, `/v1/document/list?kb_id=${kbId}&page=${value}&page_size=10`, {
        token: user.token,
        body: {},
      }),
      await call(server, `/v1/kb/list?page=1&page_size=${value}`, { token: user.token, body: {} }),
      await call(server, '/v1/chunk/list', { token: user.token, body: { doc_id: 'x', page: value } }),
      await call(server, '/v1/chunk/retrieval_test', {
        token: user.token,
        body: { kb_id: kbId, question: 'q', top_k: value },
      }),
      await call(server, '/v1/chunk/retrieval_test', {
        token: user.token,
        body: { kb_id: kbId, question: 'q', size: value },
      }),
      await call(server, `/v1/dialog/next?page=${value}&page_size=1`, { token: user.token, body: {} }),
    ];
    for (const res of answers) {
      expect(res.status).toBe(200);
      expect(res.body.code).toBe(100);
      expect(res.body.message).toMatch(/^`(page|page_size|size|top_k)` must be /);
    }
  });
});

describe('big filters and broken forms (item 6)', () => {
  it('answers 60 KB keyword filters', async () => {
    const keywords = 'lorem ipsum '.repeat(5001);
    expect(keywords.length).toBeGreaterThan(60_000);
    const filter = await call(server, '/v1/document/filter', {
      token: user.token,
      body: { kb_id: kbId, keywords },
    });
    expect(filter.body.code).toBe(0);
    const [doc] = await uploadDocs(server, user.token, kbId, [{ name: 'kw.txt', data: 'lorem' }]);
    const chunks = await call(server, '/v1/chunk/list', {
      token: user.token,
      body: { doc_id: doc.id, keywords },
    });
    expect([0, 100, 102]).toContain(chunks.body.code);
    expect(chunks.status).toBe(200);
    const retrieval = await call(server, '/v1/chunk/retrieval_test', {
      token: user.token,
      body: { kb_id: kbId, question: keywords },
    });
    expect(retrieval.status).toBe(200);
    expect(retrieval.body.message).not.toMatch(/Something went wrong/);
  });

  it.each([
    ['a boundary that never comes', 'multipart/form-data; boundary=xyz', 'garbage without any boundary'],
    ['no boundary at all', 'multipart/form-data', '--x\r\n\r\n'],
    [
      'a part cut in the middle',
      'multipart/form-data; boundary=b',
      '--b\r\nContent-Disposition: form-data; name="kb_id"\r\n\r\nabc\r\n--b\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nhal',
    ],
  ])('answers a malformed multipart body (%s) with a clean 101', async (_what, type, body) => {
    const res = await fetch(`${server.url}/v1/document/upload`, {
      method: 'POST',
      headers: { Authorization: user.token, 'Content-Type': type },
      body,
    });
    expect(res.status).toBeLessThan(500);
    const json = (await res.json()) as { code: number; message: string };
    expect(json).toMatchObject({ code: 101 });
    expect(json.message).not.toMatch(/Something went wrong/);
  });
});

describe('empty uploads (item 9)', () => {
  it('refuses a zero-byte file at upload time, naming it, and stores nothing', async () => {
    const before = await call<{ total: number }>(server, `/v1/document/list?kb_id=${kbId}`, {
      token: user.token,
      body: {},
    });
    const res = await upload(server, user.token, { kb_id: kbId }, [
      { name: 'fine.txt', data: 'text' },
      { name: 'empty.txt', data: '' },
    ]);
    expect(res.body).toMatchObject({ code: 101, message: 'empty.txt: The file is empty (0 bytes).' });
    const after = await call<{ total: number }>(server, `/v1/document/list?kb_id=${kbId}`, {
      token: user.token,
      body: {},
    });
    expect(after.body.data?.total).toBe(before.body.data?.total);
  });
});
