import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPolicy } from '../net/index.js';
import { sendJson, startStandin, type Standin } from '../../test/standins/common.js';
import { invokeTool } from './invoke.js';
import { runTool, testDeps } from './testing/invoke.js';

/** Invoke against a local HTTP service: methods, variables, headers, clean HTML, errors, the guard. */
describe('Invoke tool', () => {
  let service: Standin;
  const tool = invokeTool(testDeps({}, { timeoutMs: 400 }));
  beforeAll(async () => {
    service = await startStandin([
      (c) => {
        if (c.rec.path === '/page') {
          c.res.writeHead(200, { 'content-type': 'text/html' });
          c.res.end(
            '<html><head><style>p{}</style></head><body><h1>Title</h1><script>x()</script><p>First <b>para</b>.</p><ul><li>one</li><li>two</li></ul></body></html>',
          );
          return true;
        }
        if (c.rec.path === '/missing') return (sendJson(c.res, 404, { error: 'no such thing' }), true);
        sendJson(c.res, 200, {
          method: c.rec.method,
          query: Object.fromEntries(c.rec.query),
          body: c.rec.body ?? c.rec.raw.toString(),
          auth: c.rec.headers.authorization ?? null,
          type: c.rec.headers['content-type'] ?? null,
        });
        return true;
      },
    ]);
  });
  afterAll(() => service.close());
  const refs = { 'sys.query': 'lectern', 'Cpn:A@n': 3, token: 'abc' };

  it('GET sends the variables as the query string (literal value, else the reference) with rendered headers', async () => {
    const run = await runTool(tool, {
      params: {
        url: service.origin.replace('http://', '') + '/echo?fixed=1',
        method: 'GET',
        headers: '{"Authorization": "Bearer {token}"}',
        variables: [
          { key: 'q', ref: 'sys.query', value: '' },
          { key: 'n', ref: 'Cpn:A@n' },
          { key: 'lit', value: 'x' },
        ],
      },
      refs,
    });
    expect(run.error).toBeUndefined();
    expect(JSON.parse(run.outputs.result as string)).toMatchObject({
      method: 'GET',
      query: { fixed: '1', q: 'lectern', n: '3', lit: 'x' },
      auth: 'Bearer abc',
    });
  });

  it('POST sends JSON, or form fields with datatype formdata', async () => {
    const json = await runTool(tool, {
      params: { url: `${service.origin}/echo`, method: 'post', variables: [{ key: 'n', ref: 'Cpn:A@n' }] },
      refs,
    });
    expect(JSON.parse(json.result as string)).toMatchObject({
      method: 'POST',
      body: { n: 3 },
      type: 'application/json',
    });
    const form = await runTool(tool, {
      params: {
        url: `${service.origin}/echo`,
        method: 'put',
        datatype: 'formdata',
        variables: [{ key: 'a', value: 'b c' }],
      },
    });
    expect(JSON.parse(form.result as string)).toMatchObject({ method: 'PUT', body: 'a=b+c' });
  });

  it('cleans HTML to its text lines, and returns an error status body as the result', async () => {
    const page = await runTool(tool, {
      params: { url: `${service.origin}/page`, clean_html: true, method: 'post' },
    });
    expect(page.result).toBe('Title\nFirst para.\none\ntwo');
    const missing = await runTool(tool, { params: { url: `${service.origin}/missing` } });
    expect(missing.result).toBe('{"error":"no such thing"}');
  });

  it('reports bad headers, a timeout after the retries, and refuses a private target without the allow list', async () => {
    expect((await runTool(tool, { params: { url: service.origin, headers: '{nope' } })).error).toMatch(
      /headers.*JSON object/,
    );
    service.fail('hang', 2);
    const hung = await runTool(tool, {
      params: { url: `${service.origin}/slow`, max_retries: 1, delay_after_error: 0.01 },
    });
    expect(hung.error).toMatch(/^Invoke: no answer from 127\.0\.0\.1:\d+ within 0\.4 s$/);
    expect(hung.sleeps).toEqual([10]);
    const before = service.requests.length;
    const strict = invokeTool(testDeps({}, { policy: createPolicy({}) }));
    const refused = await runTool(strict, { params: { url: `${service.origin}/echo` } });
    expect(refused.error).toMatch(/^Invoke: .*(private|loopback|not allowed|refused)/i);
    expect(service.requests.length).toBe(before);
  });
});
