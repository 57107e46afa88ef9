import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newUser, startTestServer, type TestServer, type TestUser } from '../../../test/harness.js';
import { createKb, runDocs, uploadDocs, waitSettled } from '../../modules/kb/test-support.js';
import { startTaskWorkers } from '../../root.js';
import type { WorkerHost } from '../../queue/worker-host.js';

const dir = path.resolve(process.cwd(), '../shared/data/pdfs');
const pdfDir = fs.existsSync(dir) ? dir : path.resolve(process.cwd(), '../../../shared/data/pdfs');

// The real-world PDFs live outside the repository (../shared/data/pdfs); without them there is nothing to run.
describe.skipIf(!fs.existsSync(pdfDir))('real-world PDFs end to end through upload, queue and index', () => {
  let server: TestServer;
  let host: WorkerHost;
  let alice: TestUser;
  beforeAll(async () => {
    server = await startTestServer();
    host = await startTaskWorkers(server.ctx, { pollMs: 100, tickMs: 300 });
    alice = await newUser(server, 'alice');
  });
  afterAll(async () => {
    await host.stop();
    await server.close();
  });

  it(
    'parses every PDF of the evaluation set to run "3" with indexed chunks',
    { timeout: 300_000 },
    async () => {
      const files = fs
        .readdirSync(pdfDir)
        .filter((f) => f.endsWith('.pdf'))
        .sort();
      const kb = await createKb(server, alice.token, { name: 'Real PDFs' });
      const docs = await uploadDocs(
        server,
        alice.token,
        kb,
        files.map((f) => ({ name: f, data: fs.readFileSync(path.join(pdfDir, f)) })),
      );
      await runDocs(
        server,
        alice.token,
        docs.map((d) => d.id),
      );
      const settled = await waitSettled(server, alice.token, kb, 280_000);
      const index = server.ctx.chunkIndex;
      for (const d of docs) {
        const row = settled.get(d.id)!;
        expect(row.run, `${row.name}: ${row.progress_msg.split('\n').slice(-3).join(' | ')}`).toBe('3');
        expect(row.chunk_num, row.name).toBeGreaterThan(0);
        expect(await index.countByDoc(d.id)).toBe(row.chunk_num);
      }
      const ocr = docs.find((d) => d.name === 'docling_ocr_test.pdf');
      if (ocr) {
        const chunks = (await index.list({ kbIds: [kb], docIds: [ocr.id] }, 'position', 0, 50)).chunks;
        expect(chunks.map((c) => c.content_with_weight).join(' ').length).toBeGreaterThan(50);
      }
    },
  );
});
