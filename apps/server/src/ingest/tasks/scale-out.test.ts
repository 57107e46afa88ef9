/**
 * Lectern scaled out: two API processes and the workers run as separate processes with data folders of
 * their own, sharing only one PostgreSQL (metadata, tasks, chunk index) and one S3 bucket (an s3rver
 * stand-in). A document uploaded through one API process is parsed by a worker and read through the
 * other; a SIGKILLed worker's tasks are finished by another with no duplicate chunks; a worker stopped
 * with SIGTERM hands its tasks back at once; no process keeps state in its data folder.
 * Runs when TEST_DATABASE_URL names a server (the PostgreSQL pass of `npm test`).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../chunk-index/test-contract-fixtures.js';
import { makePdf, textPages } from '../testing/make-pdf.js';
import { callChild, exited, startChild, type Child } from '../../../test/child-server.js';

const pgBase = process.env.TEST_DATABASE_URL;
const BUCKET = 'lectern-scale';

interface Doc {
  id: string;
  run: string;
  chunk_num: number;
  progress_msg: string;
}

describe.runIf(pgBase)('scale-out: API processes and workers sharing PostgreSQL and S3', () => {
  const children: Child[] = [];
  const dirs: string[] = [];
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const c of children) if (c.proc.exitCode === null) c.proc.kill('SIGKILL');
    for (const c of children) await exited(c.proc);
    for (const clean of cleanups.reverse()) await clean().catch(() => undefined);
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  function dataDir(): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-node-'));
    dirs.push(dir);
    return dir;
  }

  it(
    'uploads through one process, reads through another, survives a killed worker, releases on SIGTERM',
    { timeout: 300_000 },
    async () => {
      const database = await createTestDatabase(pgBase!);
      cleanups.push(() => database.drop());
      const s3dir = dataDir();
      const s3 = new S3rver({
        address: '127.0.0.1',
        port: 0,
        silent: true,
        directory: s3dir,
        configureBuckets: [{ name: BUCKET, configs: [] }],
      });
      const { port } = await s3.run();
      cleanups.push(() => s3.close());
      const shared = {
        DATABASE_URL: database.url,
        BLOB_STORE: 's3',
        S3_ENDPOINT: `http://127.0.0.1:${port}`,
        S3_BUCKET: BUCKET,
        S3_ACCESS_KEY_ID: 'S3RVER',
        S3_SECRET_ACCESS_KEY: 'S3RVER',
        LECTERN_SECRET_KEY: 'scale-out-shared-secret',
        WORKER_CONCURRENCY: '2',
      };
      const node = async (role: 'api' | 'worker', extra: Record<string, string> = {}) => {
        const child = await startChild({
          ...shared,
          LECTERN_ROLE: role,
          LECTERN_DATA_DIR: dataDir(),
          ...extra,
        });
        children.push(child);
        return child;
      };
      const [apiA, apiB] = [await node('api'), await node('api')];

      // A session made by one API process is accepted by the other.
      const reg = await callChild(apiA, '/v1/user/register', {
        nickname: 'scale',
        email: 'scale@example.com',
        password: 'correct-horse-9',
      });
      const token = reg.headers.get('authorization') as string;
      expect((await callChild(apiB, '/v1/user/info', undefined, token)).body.data.email).toBe(
        'scale@example.com',
      );

      const kb = await callChild(
        apiA,
        '/v1/kb/create',
        { name: 'Scale', embd_id: '', parser_config: { task_page_size: 2 } },
        token,
      );
      const kbId = kb.body.data.kb_id as string;
      const uploadAndRun = async (names: string[]) => {
        const form = new FormData();
        form.append('kb_id', kbId);
        for (const name of names)
          form.append('file', new Blob([makePdf(textPages(16, 30, name))]), `${name}.pdf`);
        const up = await fetch(`${apiA.url}/v1/document/upload`, {
          method: 'POST',
          headers: { authorization: token },
          body: form,
        });
        const ids = ((await up.json()) as { data: Array<{ id: string }> }).data.map((d) => d.id);
        expect(ids).toHaveLength(names.length);
        expect((await callChild(apiA, '/v1/document/run', { doc_ids: ids, run: '1' }, token)).body.code).toBe(
          0,
        );
        return ids;
      };
      const docs = async (ids: string[]): Promise<Doc[]> => {
        const list = await callChild(apiB, `/v1/document/list?kb_id=${kbId}&page_size=100`, {}, token);
        return (list.body.data.docs as Doc[]).filter((d) => ids.includes(d.id));
      };
      const tasksDone = async (ids: string[]) =>
        (await docs(ids))
          .map((d) => (d.progress_msg.match(/Task done/g) ?? []).length)
          .reduce((a, b) => a + b, 0);
      const waitFor = async (what: string, ms: number, check: () => Promise<boolean>) => {
        const deadline = Date.now() + ms;
        while (!(await check())) {
          if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
          await new Promise((r) => setTimeout(r, 150));
        }
      };
      const finished = async (ids: string[]) =>
        (await docs(ids)).every((d) => d.run === '3' || d.run === '4');

      // 1. A worker is SIGKILLed mid-parse; another takes its tasks over once their short leases expire.
      const first = await uploadAndRun(['Alpha', 'Bravo']);
      const w1 = await node('worker', { TASK_LEASE_SECONDS: '2' });
      await waitFor('the first tasks', 120_000, async () => (await tasksDone(first)) >= 3);
      w1.proc.kill('SIGKILL');
      await exited(w1.proc);
      expect(await finished(first)).toBe(false);
      const w2 = await node('worker', { TASK_LEASE_SECONDS: '600' });
      await waitFor('the documents of the killed worker', 120_000, () => finished(first));
      const afterKill = await docs(first);
      expect(afterKill.map((d) => d.run)).toEqual(['3', '3']);

      // 2. A worker stopped with SIGTERM hands its tasks back: its 600 s leases do not hold them up.
      const second = await uploadAndRun(['Charlie']);
      await waitFor('a task of the second upload', 120_000, async () => (await tasksDone(second)) >= 1);
      w2.proc.kill('SIGTERM');
      await exited(w2.proc);
      await node('worker', { TASK_LEASE_SECONDS: '600' });
      await waitFor('the released tasks', 90_000, () => finished(second));

      // Every document is whole and its chunks exist once, read through the other API process.
      for (const d of await docs([...first, ...second])) {
        expect(d.run).toBe('3');
        const chunks = await callChild(apiB, '/v1/chunk/list', { doc_id: d.id, page: 1, size: 1000 }, token);
        const texts = (chunks.body.data.chunks as Array<{ content_with_weight: string }>).map(
          (c) => c.content_with_weight,
        );
        expect(texts.length).toBe(d.chunk_num);
        expect(new Set(texts).size).toBe(texts.length);
        expect(d.chunk_num).toBeGreaterThan(0);
      }
      const hits = await callChild(
        apiB,
        '/v1/chunk/retrieval_test',
        { kb_id: [kbId], question: 'Charlie', similarity_threshold: 0 },
        token,
      );
      expect(hits.body.data.chunks.length).toBeGreaterThan(0);

      // Nothing stateful stayed in any process's data folder: no database, index, blobs or key file.
      for (const dir of dirs.slice(1)) {
        for (const stateful of ['lectern.sqlite', 'index.sqlite', 'blobs', 'secret.key'])
          expect(fs.existsSync(path.join(dir, stateful)), `${dir}/${stateful}`).toBe(false);
      }
    },
  );
});
