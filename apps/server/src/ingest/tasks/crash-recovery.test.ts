/**
 * Killing the server in the middle of parsing and starting it again: every document still finishes,
 * with no duplicate chunks. The server runs as a real child process (tsx) that is SIGKILLed while
 * its tasks hold leases; a second process on the same data folder (and database) takes over once
 * the leases expire.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { closeRoot, createRoot } from '../../root.js';
import { makePdf, textPages } from '../testing/make-pdf.js';
import { callChild as api, exited, startChild, type Child } from '../../../test/child-server.js';

describe('crash recovery', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-crash-'));
  let pgName: string | undefined;
  const children: Child[] = [];
  afterAll(async () => {
    for (const c of children) if (c.proc.exitCode === null) c.proc.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (pgName && process.env.TEST_DATABASE_URL) {
      const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${pgName} WITH (FORCE)`);
      await admin.end();
    }
  });

  it(
    'finishes every document after a SIGKILL mid-parse, with no duplicate chunks',
    { timeout: 240_000 },
    async () => {
      const env: Record<string, string> = {
        LECTERN_DATA_DIR: dataDir,
        LECTERN_SECRET_KEY: 'crash-test-secret',
        TASK_LEASE_SECONDS: '2',
        WORKER_CONCURRENCY: '2',
      };
      if (process.env.TEST_DATABASE_URL) {
        pgName = `lectern_crash_${Date.now().toString(36)}`;
        const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
        await admin.connect();
        await admin.query(`CREATE DATABASE ${pgName}`);
        await admin.end();
        const u = new URL(process.env.TEST_DATABASE_URL);
        u.pathname = `/${pgName}`;
        env.DATABASE_URL = u.toString();
      }
      const first = await startChild(env);
      children.push(first);
      const reg = await api(first, '/v1/user/register', {
        nickname: 'crash',
        email: 'crash@example.com',
        password: 'correct-horse-9',
      });
      const token = reg.headers.get('authorization') as string;
      const kb = await api(
        first,
        '/v1/kb/create',
        { name: 'Crash', embd_id: '', parser_config: { task_page_size: 2 } },
        token,
      );
      const kbId = kb.body.data.kb_id as string;
      const form = new FormData();
      form.append('kb_id', kbId);
      for (let i = 0; i < 3; i++)
        form.append('file', new Blob([makePdf(textPages(20, 40, `Doc${i}`))]), `doc${i}.pdf`);
      form.append('file', new Blob(['a short text document\nwith two lines']), 'note.txt');
      const up = await fetch(`${first.url}/v1/document/upload`, {
        method: 'POST',
        headers: { authorization: token },
        body: form,
      });
      const docs = ((await up.json()) as { data: Array<{ id: string }> }).data;
      expect(docs).toHaveLength(4);
      expect(
        (await api(first, '/v1/document/run', { doc_ids: docs.map((d) => d.id), run: '1' }, token)).body.code,
      ).toBe(0);

      // Kill once some tasks are done and others are still queued or running.
      const deadline = Date.now() + 120_000;
      for (;;) {
        const list = await api(first, `/v1/document/list?kb_id=${kbId}`, {}, token);
        const msgs = (list.body.data.docs as Array<{ progress_msg: string; run: string }>)
          .map((d) => d.progress_msg)
          .join('\n');
        const done = (msgs.match(/Task done/g) ?? []).length;
        if (done >= 3) break;
        if (Date.now() > deadline) throw new Error(`no progress: ${msgs}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      first.proc.kill('SIGKILL');
      await exited(first.proc);

      const second = await startChild(env);
      children.push(second);
      const waitUntil = Date.now() + 180_000;
      let final: Array<{ id: string; run: string; chunk_num: number; progress_msg: string }> = [];
      for (;;) {
        const list = await api(second, `/v1/document/list?kb_id=${kbId}`, {}, token);
        final = list.body.data.docs;
        if (final.every((d) => d.run === '3' || d.run === '4')) break;
        if (Date.now() > waitUntil) throw new Error(`not finished: ${final.map((d) => d.run).join(',')}`);
        await new Promise((r) => setTimeout(r, 250));
      }
      expect(final.map((d) => d.run)).toEqual(['3', '3', '3', '3']);
      second.proc.kill('SIGTERM');
      await exited(second.proc);

      // Inspect the data the two processes left behind.
      const ctx = await createRoot(loadConfig({ ...env, LOG_LEVEL: 'silent' }));
      try {
        const index = ctx.chunkIndex;
        const tasks = await ctx.db.kysely.selectFrom('task').selectAll().where('kb_id', '=', kbId).execute();
        expect(tasks.some((t) => t.retry_count > 0)).toBe(true);
        let sum = 0;
        for (const d of final) {
          const own = tasks.filter((t) => t.doc_id === d.id);
          expect(own.every((t) => t.progress === 1)).toBe(true);
          const ids = own.flatMap((t) => t.chunk_ids.split(' ').filter(Boolean));
          expect(new Set(ids).size).toBe(ids.length);
          expect(d.chunk_num).toBe(ids.length);
          expect(await index.countByDoc(d.id)).toBe(d.chunk_num);
          const chunks = (await index.list({ kbIds: [kbId], docIds: [d.id] }, 'position', 0, 10_000)).chunks;
          expect(new Set(chunks.map((c) => c.content_with_weight)).size).toBe(chunks.length);
          sum += d.chunk_num;
        }
        const kbRow = await ctx.db.kysely
          .selectFrom('knowledgebase')
          .selectAll()
          .where('id', '=', kbId)
          .executeTakeFirstOrThrow();
        expect(kbRow.chunk_num).toBe(sum);
        const pages = final.filter((d) => d.progress_msg.includes('Page(19~20): Task done')).length;
        expect(pages).toBe(3);
      } finally {
        await closeRoot(ctx);
      }
    },
  );
});
