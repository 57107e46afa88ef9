import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDocx, deflatedZeros, para, rawZip } from '../../../test/fixtures/office/ooxml-builders.js';
import { call, newUser, startTestServer, type TestServer, type TestUser } from '../../../test/harness.js';
import {
  createKb,
  listDocs,
  runDocs,
  upload,
  uploadDocs,
  waitSettled,
} from '../../modules/kb/test-support.js';
import { makePdf, textPages } from '../testing/make-pdf.js';
import { startTaskWorkers } from '../../root.js';
import type { WorkerHost } from '../../queue/worker-host.js';

const BAD_FORMAT =
  'There seems to be an issue with your file format. Please verify it is correct and not corrupted.';

describe('bad input and faults: clear errors, failed documents, the server keeps going', () => {
  let server: TestServer;
  let host: WorkerHost;
  let alice: TestUser;
  beforeAll(async () => {
    server = await startTestServer({ WORKER_CONCURRENCY: '3' });
    host = await startTaskWorkers(server.ctx, { pollMs: 100, tickMs: 200 });
    alice = await newUser(server, 'alice');
  });
  afterAll(async () => {
    await host.stop();
    await server.close();
  });

  it('fails truncated, encrypted and bomb files with readable messages while the others finish', async () => {
    const kb = await createKb(server, alice.token, { name: 'Faults' });
    const good = makePdf(textPages(3, 8));
    const truncated = good.subarray(0, Math.floor(good.length * 0.6));
    const encrypted = makePdf(textPages(2, 5), { userPassword: 'secret' });
    const declaredBomb = rawZip([
      {
        name: 'word/document.xml',
        data: Buffer.alloc(0),
        declaredSize: 600 * 1024 * 1024,
        compressed: deflatedZeros(600),
      },
    ]);
    const lyingBomb = rawZip([
      {
        name: 'word/document.xml',
        data: Buffer.alloc(0),
        declaredSize: 2000,
        compressed: deflatedZeros(700),
      },
    ]);
    const docx = await buildDocx({ body: para('A perfectly normal Word document.') });
    const docs = await uploadDocs(server, alice.token, kb, [
      { name: 'good.pdf', data: good },
      { name: 'truncated.pdf', data: truncated },
      { name: 'encrypted.pdf', data: encrypted },
      { name: 'bomb.docx', data: declaredBomb },
      { name: 'liar.docx', data: lyingBomb },
      { name: 'normal.docx', data: docx },
      { name: 'plain.txt', data: 'still fine' },
    ]);
    // A zero-byte file never becomes a document: it is refused at upload (issue 11 item 9).
    const empty = await upload(server, alice.token, { kb_id: kb }, [
      { name: 'empty.pdf', data: Buffer.alloc(0) },
    ]);
    expect(empty.body.message).toBe('empty.pdf: The file is empty (0 bytes).');
    await runDocs(
      server,
      alice.token,
      docs.map((d) => d.id),
    );
    const settled = await waitSettled(server, alice.token, kb, 120_000);
    const byName = new Map([...settled.values()].map((d) => [d.name, d]));
    for (const name of ['good.pdf', 'normal.docx', 'plain.txt']) {
      expect(byName.get(name)?.run, `${name}: ${byName.get(name)?.progress_msg}`).toBe('3');
      expect(byName.get(name)?.chunk_num).toBeGreaterThan(0);
    }
    const failed = (name: string) => {
      const d = byName.get(name)!;
      expect(d.run, name).toBe('4');
      expect(d.progress).toBe(-1);
      const line = d.progress_msg.split('\n').find((l) => l.includes('[ERROR]')) ?? '';
      expect(line).toMatch(/^\d\d:\d\d:\d\d (Page\(\d+~\d+\): )?\[ERROR\] /);
      expect(line).not.toMatch(/ at |node_modules|\.ts:\d+/);
      return line;
    };
    expect(failed('truncated.pdf')).toMatch(/truncated|damaged/i);
    expect(failed('encrypted.pdf')).toMatch(/password/i);
    expect(failed('bomb.docx')).toMatch(/decompression bomb|limit/i);
    expect(failed('liar.docx')).toMatch(/decompression bomb|limit|memory/i);
    expect(byName.has('empty.pdf')).toBe(false);
    // The server is alive and answering.
    expect((await call(server, '/v1/kb/list', { token: alice.token, body: {} })).body.code).toBe(0);
  });

  it('refuses DOCX files that are not zips, PDFs that are not PDFs, and unknown extensions at upload', async () => {
    const kb = await createKb(server, alice.token, { name: 'Refusals' });
    expect(
      (
        await upload(server, alice.token, { kb_id: kb }, [
          { name: 'fake.pdf', data: 'hello, no header here' },
        ])
      ).body,
    ).toMatchObject({
      code: 102,
      message: BAD_FORMAT,
    });
    expect(
      (
        await upload(server, alice.token, { kb_id: kb }, [
          { name: 'fake.docx', data: 'this is plain text, not a zip' },
        ])
      ).body,
    ).toMatchObject({
      code: 102,
      message: BAD_FORMAT,
    });
    const mixed = await upload(server, alice.token, { kb_id: kb }, [
      { name: 'virus.exe', data: 'MZ' },
      { name: 'fake.docx', data: 'not a zip' },
      { name: 'ok.txt', data: 'kept' },
    ]);
    expect(mixed.body.code).toBe(500);
    expect(mixed.body.message).toBe(
      `virus.exe: This type of file has not been supported yet!\nfake.docx: ${BAD_FORMAT}`,
    );
    expect((mixed.body.data as Array<{ name: string }>).map((d) => d.name)).toEqual(['ok.txt']);
    expect((await listDocs(server, alice.token, kb)).map((d) => d.name)).toEqual(['ok.txt']);
  });
});

describe('upload limits: a rejected batch stores nothing', () => {
  let server: TestServer;
  let alice: TestUser;
  beforeAll(async () => {
    server = await startTestServer({ MAX_FILE_BYTES: '2048', MAX_DOCS_PER_TENANT: '35' });
    alice = await newUser(server, 'alice');
  });
  afterAll(async () => server.close());

  it('rejects a 33-file batch and a file over the size limit without storing anything', async () => {
    const kb = await createKb(server, alice.token, { name: 'Limits' });
    const many = Array.from({ length: 33 }, (_, i) => ({ name: `f${i}.txt`, data: `file ${i}` }));
    expect((await upload(server, alice.token, { kb_id: kb }, many)).body).toMatchObject({
      code: 101,
      message: 'Too many files in one upload: at most 32 files per batch.',
    });
    const big = await upload(server, alice.token, { kb_id: kb }, [
      { name: 'small.txt', data: 'fits' },
      { name: 'big.txt', data: 'x'.repeat(4096) },
    ]);
    expect(big.body).toMatchObject({
      code: 101,
      message: 'big.txt: The file is larger than the upload limit (2.0 KB).',
    });
    expect(await listDocs(server, alice.token, kb)).toEqual([]);
    expect(
      await server.ctx.db.kysely
        .selectFrom('file')
        .select('id')
        .where('source_type', '=', 'knowledgebase')
        .execute(),
    ).toEqual([]);
    // Exactly 32 files is fine.
    const ok = await upload(server, alice.token, { kb_id: kb }, many.slice(0, 32));
    expect(ok.body.code).toBe(0);
    expect((ok.body.data as unknown[]).length).toBe(32);
    // The optional per-tenant cap (MAX_DOCS_PER_TENANT=35): 3 more fit, the rest are refused per file.
    const capped = await upload(
      server,
      alice.token,
      { kb_id: kb },
      Array.from({ length: 5 }, (_, i) => ({ name: `g${i}.txt`, data: 'more' })),
    );
    expect(capped.body.code).toBe(500);
    expect(capped.body.message).toBe(
      ['g3.txt', 'g4.txt'].map((n) => `${n}: Exceed the maximum file number of a free user!`).join('\n'),
    );
    expect((capped.body.data as unknown[]).length).toBe(3);
  });
});
