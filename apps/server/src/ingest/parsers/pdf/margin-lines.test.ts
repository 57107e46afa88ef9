/**
 * Issue 11 item 8: repeated-position text is a running head/footer only when the same (or
 * numbered) text repeats on most pages and the page keeps other text. A document of one line per
 * page at one spot keeps its lines — parsed in-process here, and end to end over HTTP (chunks made).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf, type PdfPage } from '../../../../test/fixtures/pdf/make-pdf.js';
import { call, newUser, startTestServer, type TestServer, type TestUser } from '../../../../test/harness.js';
import { createKb, runDocs, uploadDocs, waitSettled } from '../../../modules/kb/test-support.js';
import { startTaskWorkers } from '../../../root.js';
import { parsePdf } from './index.js';

const onePerPage = (lines: string[]): Buffer =>
  makePdf(lines.map((text): PdfPage => ({ texts: [{ x: 72, y: 40, text, size: 11 }] })));

describe('one line per page at the same position', () => {
  it('keeps every line when the pages have nothing else (numbered or identical text)', async () => {
    for (const lines of [
      ['Chapter 1 begins the story.', 'Chapter 2 continues the story.', 'Chapter 3 ends the story.'],
      ['Same words on each page', 'Same words on each page', 'Same words on each page'],
      ['Alpha is first.', 'Bravo is second.', 'Charlie is third.'],
    ]) {
      const doc = await parsePdf(onePerPage(lines), { ext: 'pdf', fileName: 'one.pdf' });
      expect(doc.sections.map((s) => s.text)).toEqual(lines);
    }
  });

  it('still drops a running head beside body text on most pages', async () => {
    const pages: PdfPage[] = [1, 2, 3].map((n) => ({
      texts: [
        { x: 72, y: 40, text: `Annual Report ${n}`, size: 8 },
        { x: 72, y: 300, text: `Body text of page ${n} with enough words to be a paragraph.`, size: 11 },
      ],
    }));
    const doc = await parsePdf(makePdf(pages), { ext: 'pdf', fileName: 'head.pdf' });
    expect(doc.sections.map((s) => s.text).join(' ')).not.toContain('Annual Report');
  });
});

describe('over HTTP', () => {
  let server: TestServer;
  let user: TestUser;
  let host: Awaited<ReturnType<typeof startTaskWorkers>>;
  beforeAll(async () => {
    server = await startTestServer();
    host = await startTaskWorkers(server.ctx, { pollMs: 100, tickMs: 200 });
    user = await newUser(server);
  });
  afterAll(async () => {
    await host.stop();
    await server.close();
  });

  it('parses a 3-page one-line-per-page PDF into chunks', async () => {
    const kbId = await createKb(server, user.token);
    const pdf = onePerPage(['Line one of the text.', 'Line two of the text.', 'Line three of the text.']);
    const [doc] = await uploadDocs(server, user.token, kbId, [{ name: 'three.pdf', data: pdf }]);
    expect((await runDocs(server, user.token, [doc.id])).body.code).toBe(0);
    const settled = (await waitSettled(server, user.token, kbId)).get(doc.id)!;
    expect(settled.run).toBe('3');
    expect(settled.chunk_num).toBeGreaterThan(0);
    const chunks = await call<{ chunks: Array<{ content_with_weight: string }> }>(server, '/v1/chunk/list', {
      token: user.token,
      body: { doc_id: doc.id },
    });
    const text = chunks.body.data!.chunks.map((c) => c.content_with_weight).join(' ');
    expect(text).toContain('Line two of the text.');
  });
});
