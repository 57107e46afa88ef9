/**
 * The DOCX preview (issue 11 item 12): a real DOCX becomes an HTML page with its text, served as user
 * content through `GET /v1/document/preview/<id>` and `GET /v1/file/preview/<id>`; script-ish payloads
 * in the document (a `javascript:` hyperlink, `<script>` typed as text, a handler in raw HTML) never
 * survive as markup.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, newUser, startTestServer, type TestServer, type TestUser } from '../../test/harness.js';
import {
  buildDocx,
  deflatedZeros,
  inlinePicture,
  para,
  png,
  rawZip,
} from '../../test/fixtures/office/ooxml-builders.js';
import { createKb, uploadDocs } from '../modules/kb/test-support.js';
import { uploadFiles } from '../modules/file/test-support.js';
import { USER_CONTENT_CSP } from './user-content.js';
import { docxPreviewPage, sanitizePreviewHtml } from './docx-preview.js';

const hyperlink = (rid: string, text: string) =>
  `<w:p><w:hyperlink r:id="${rid}"><w:r><w:t>${text}</w:t></w:r></w:hyperlink></w:p>`;

async function sampleDocx(): Promise<Buffer> {
  return buildDocx({
    body:
      para('Quarterly harbour report', 'Heading1') +
      para('The lighthouse keeper logged 42 ships.') +
      para('&lt;script&gt;alert(1)&lt;/script&gt; typed as text') +
      hyperlink('rIdBad', 'bad link') +
      hyperlink('rIdGood', 'good link') +
      `<w:p>${inlinePicture('rIdImg', 'a blue square')}</w:p>`,
    links: [
      { rid: 'rIdBad', target: 'javascript:alert(document.cookie)' },
      { rid: 'rIdGood', target: 'https://example.com/harbour' },
    ],
    media: [{ rid: 'rIdImg', name: 'image1.png', data: await png(4, 4) }],
  });
}

describe('sanitizePreviewHtml', () => {
  it('keeps text structure and drops anything that runs or loads', () => {
    const out = sanitizePreviewHtml(
      '<h1 onclick="x()">Title</h1><p style="background:url(http://evil)">Body &amp; more</p>' +
        '<script>alert(1)</script><style>p{}</style><iframe src="http://evil"></iframe>' +
        '<a href="javascript:alert(1)">js</a><a href=" JaVaScRiPt:alert(1)">js2</a>' +
        '<a href="https://ok.example/">ok</a><img src="http://evil/x.png"><img src="data:image/svg+xml;base64,PHN2Zz4=">' +
        '<img src="data:image/png;base64,iVBORw0KGgo=" alt="pic" onerror="x()"><form><input value="v"></form>',
    );
    expect(out).toBe(
      '<h1>Title</h1><p>Body &amp; more</p><a>js</a><a>js2</a>' +
        '<a href="https://ok.example/" rel="noopener noreferrer" target="_blank">ok</a>' +
        '<img src="data:image/png;base64,iVBORw0KGgo=" alt="pic">',
    );
  });

  it('closes what it opened and ignores stray closing tags', () => {
    expect(sanitizePreviewHtml('<ul><li>one<li>two</p></ul><em>open')).toBe(
      '<ul><li>one</li><li>two<p></p></li></ul><em>open</em>',
    );
  });
});

describe('docxPreviewPage', () => {
  it('turns a real DOCX into a page with its text, pictures inline and script payloads inert', async () => {
    const page = await docxPreviewPage(await sampleDocx());
    expect(page).toContain('<h1>Quarterly harbour report</h1>');
    expect(page).toContain('The lighthouse keeper logged 42 ships.');
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt; typed as text');
    expect(page).not.toMatch(/<script/i);
    expect(page).not.toMatch(/javascript:/i);
    expect(page).toContain('<a>bad link</a>');
    expect(page).toContain('href="https://example.com/harbour"');
    expect(page).toMatch(/<img src="data:image\/png;base64,[A-Za-z0-9+/=]+" alt="a blue square">/);
    expect(page).toContain(`content="default-src 'none'; img-src data:; style-src 'unsafe-inline'"`);
  });
});

describe('preview routes', () => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let docId = '';
  let fileId = '';
  let txtFileId = '';

  beforeAll(async () => {
    server = await startTestServer();
    alice = await newUser(server, 'alice');
    bob = await newUser(server, 'bob');
    const kbId = await createKb(server, alice.token);
    const docx = await sampleDocx();
    docId = (await uploadDocs(server, alice.token, kbId, [{ name: 'report.docx', data: docx }]))[0].id;
    const files = await uploadFiles(server, alice.token, [
      { name: 'report.docx', data: docx },
      { name: 'notes.txt', data: 'plain' },
    ]);
    fileId = files.find((f) => f.name === 'report.docx')!.id;
    txtFileId = files.find((f) => f.name === 'notes.txt')!.id;
  });
  afterAll(() => server.close());

  const fetchPreview = (path: string, token: string) =>
    fetch(`${server.url}${path}`, { headers: { Authorization: token } });

  for (const route of ['document', 'file'] as const) {
    it(`${route}/preview serves the page as user content`, async () => {
      const res = await fetchPreview(
        `/v1/${route}/preview/${route === 'document' ? docId : fileId}`,
        alice.token,
      );
      expect(res.status).toBe(200);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('content-security-policy')).toBe(USER_CONTENT_CSP);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="report\.html"/);
      const page = await res.text();
      expect(page).toContain('The lighthouse keeper logged 42 ships.');
      expect(page).not.toMatch(/<script|javascript:/i);
    });
  }

  it('refuses other readers, unknown ids and other file types with an envelope', async () => {
    expect((await call(server, `/v1/document/preview/${docId}`, { token: bob.token })).body).toMatchObject({
      code: 102,
      message: 'Document not found!',
    });
    // As file/get (API.md §12): another tenant's file is 109.
    expect((await call(server, `/v1/file/preview/${fileId}`, { token: bob.token })).body.code).toBe(109);
    expect((await call(server, '/v1/document/preview/nope', { token: alice.token })).body.code).toBe(102);
    expect((await call(server, `/v1/file/preview/${txtFileId}`, { token: alice.token })).body).toMatchObject({
      code: 101,
      message: 'Preview is only available for DOCX files.',
    });
  });

  it('answers 102 with a readable reason for bytes that are not a DOCX, and for a decompression bomb', async () => {
    const bomb = rawZip([
      {
        name: 'word/document.xml',
        data: Buffer.alloc(0),
        declaredSize: 1000,
        compressed: deflatedZeros(100),
      },
    ]);
    const [broken, bombed] = await uploadFiles(server, alice.token, [
      { name: 'broken.docx', data: 'not a zip' },
      { name: 'bomb.docx', data: bomb },
    ]);
    const notZip = (await call(server, `/v1/file/preview/${broken.id}`, { token: alice.token })).body;
    expect(notZip.code).toBe(102);
    expect(notZip.message).toMatch(/DOCX/);
    const refused = (await call(server, `/v1/file/preview/${bombed.id}`, { token: alice.token })).body;
    expect(refused.code).toBe(102);
    expect(refused.message).toMatch(/decompression bomb/);
  });
});
