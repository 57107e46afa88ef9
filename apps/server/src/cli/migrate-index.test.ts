/**
 * `lectern migrate-index`: an embedded deployment (SQLite metadata and index, local blobs) moves into
 * PostgreSQL + an S3 bucket (s3rver stand-in); the new deployment signs the same user in, finds the
 * same chunks and serves the same files. Runs when TEST_DATABASE_URL names a server (PostgreSQL pass).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { afterAll, describe, expect, it } from 'vitest';
import { call, newUser, startTestServer, type TestServer } from '../../test/harness.js';
import { createTestDatabase } from '../chunk-index/test-contract-fixtures.js';
import { createKb, runDocs, uploadDocs, waitSettled } from '../modules/kb/test-support.js';
import { loadConfig } from '../config.js';
import { startTaskWorkers } from '../root.js';
import { migrateIndex } from './migrate-index.js';

const pgBase = process.env.TEST_DATABASE_URL;
const SECRET = 'test-secret-key';

describe.runIf(pgBase)('migrate-index: SQLite deployment → PostgreSQL + S3', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const clean of cleanups.reverse()) await clean().catch(() => undefined);
  });

  it(
    'moves accounts, chunks and files; the new deployment answers as the old one did',
    { timeout: 180_000 },
    async () => {
      // The embedded deployment, with a parsed document.
      const old = await startTestServer({ DATABASE_URL: '', LECTERN_SECRET_KEY: SECRET });
      cleanups.push(() => old.close());
      const workers = await startTaskWorkers(old.ctx, { pollMs: 100, tickMs: 200 });
      const user = await newUser(old, 'mover');
      const kbId = await createKb(old, user.token, { name: 'Moving' });
      const text =
        'Granite quarries in Aberdeen shipped stone worldwide.\n\nThe harbour grew with the trade.';
      const [doc] = await uploadDocs(old, user.token, kbId, [{ name: 'granite.txt', data: text }]);
      await runDocs(old, user.token, [doc.id]);
      const settled = await waitSettled(old, user.token, kbId);
      await workers.stop();
      expect(settled.get(doc.id)?.run).toBe('3');
      const before = await call<{ chunks: unknown[] }>(old, '/v1/chunk/retrieval_test', {
        token: user.token,
        body: { kb_id: [kbId], question: 'granite quarries', similarity_threshold: 0 },
      });
      expect(before.body.data!.chunks.length).toBeGreaterThan(0);

      // The target: an empty PostgreSQL database and a bucket.
      const database = await createTestDatabase(pgBase!);
      cleanups.push(() => database.drop());
      const s3dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-migrate-s3-'));
      const s3 = new S3rver({
        address: '127.0.0.1',
        port: 0,
        silent: true,
        directory: s3dir,
        configureBuckets: [{ name: 'moved', configs: [] }],
      });
      const { port } = await s3.run();
      cleanups.push(async () => {
        await s3.close();
        fs.rmSync(s3dir, { recursive: true, force: true });
      });
      const targetEnv = {
        DATABASE_URL: database.url,
        BLOB_STORE: 's3',
        S3_ENDPOINT: `http://127.0.0.1:${port}`,
        S3_BUCKET: 'moved',
        S3_ACCESS_KEY_ID: 'S3RVER',
        S3_SECRET_ACCESS_KEY: 'S3RVER',
      };
      const targetDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-migrate-target-'));
      cleanups.push(async () => fs.rmSync(targetDir, { recursive: true, force: true }));
      const targetConfig = loadConfig({
        ...targetEnv,
        LECTERN_DATA_DIR: targetDir,
        LECTERN_SECRET_KEY: SECRET,
      });

      await expect(
        migrateIndex(old.dataDir, loadConfig({ LECTERN_DATA_DIR: targetDir, LECTERN_SECRET_KEY: SECRET })),
      ).rejects.toThrow(/not scaled out/);
      const report = await migrateIndex(old.dataDir, targetConfig);
      expect(report.tables.user).toBe(1);
      expect(report.chunks).toBe(settled.get(doc.id)!.chunk_num);
      expect(report.blobs).toBeGreaterThanOrEqual(1);
      // A second run finds accounts there and refuses, changing nothing.
      await expect(migrateIndex(old.dataDir, targetConfig)).rejects.toThrow(/already has accounts/);

      // The new deployment: same login, same chunks, same file bytes.
      const moved: TestServer = await startTestServer({ ...targetEnv, LECTERN_SECRET_KEY: SECRET });
      cleanups.push(() => moved.close());
      const login = await call(moved, '/v1/user/login', {
        body: { email: user.email, password: user.password },
      });
      expect(login.body.code).toBe(0);
      const token = login.headers.get('authorization')!;
      const after = await call<{ chunks: Array<{ chunk_id: string }> }>(moved, '/v1/chunk/retrieval_test', {
        token,
        body: { kb_id: [kbId], question: 'granite quarries', similarity_threshold: 0 },
      });
      expect(after.body.data!.chunks.map((c) => c.chunk_id)).toEqual(
        (before.body.data!.chunks as Array<{ chunk_id: string }>).map((c) => c.chunk_id),
      );
      const file = await fetch(`${moved.url}/v1/document/get/${doc.id}`, {
        headers: { authorization: token },
      });
      expect(await file.text()).toBe(text);
    },
  );
});
