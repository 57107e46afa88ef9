/**
 * The PostgreSQL chunk index in a deployment: chosen from the configuration, refusing to start without
 * pgvector (with a message saying how to install it), shared by processes (two opened indexes on one
 * database stand for two processes), and deleting chunks inside the metadata transaction of their
 * document. The PostgreSQL parts run when TEST_DATABASE_URL names a server.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { openDb } from '../db/connection.js';
import { migrateToLatest } from '../db/migrate.js';
import { HealthRegistry } from '../health/registry.js';
import { openChunkIndex } from './open-index.js';
import { PgChunkIndex } from './pg-index.js';
import { compactDf, termCounts } from './pg-df.js';
import { PgvectorMissingError } from './pg-schema.js';
import { phraseQuery } from './pg-text.js';
import { planQuery } from './query.js';
import { chunk, fillers } from './test-helpers.js';
import { createTestDatabase } from './test-contract-fixtures.js';
import { deleteDocChunksIn } from './transactional.js';

const pgBase = process.env.TEST_DATABASE_URL;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-ci-config-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
const config = (env: Record<string, string>) =>
  loadConfig({ LECTERN_DATA_DIR: dataDir, LECTERN_SECRET_KEY: 'k', ...env });

describe('chunk index configuration', () => {
  it('is PostgreSQL with a PostgreSQL DATABASE_URL, SQLite otherwise, and CHUNK_INDEX overrides', () => {
    expect(config({}).chunkIndex).toBe('sqlite');
    expect(config({ DATABASE_URL: 'postgres://u@h:5432/d' }).chunkIndex).toBe('postgres');
    expect(config({ DATABASE_URL: 'postgresql://u@h/d', CHUNK_INDEX: 'sqlite' }).chunkIndex).toBe('sqlite');
    expect(() => config({ CHUNK_INDEX: 'postgres' })).toThrow('CHUNK_INDEX=postgres');
    expect(() => config({ CHUNK_INDEX: 'elastic' })).toThrow('Invalid configuration');
  });

  it('reads the S3 settings, path-style by default with an endpoint', () => {
    expect(config({}).blobStore).toEqual({ kind: 'local' });
    expect(
      config({ BLOB_STORE: 's3', S3_BUCKET: 'b', S3_ENDPOINT: 'http://127.0.0.1:9000' }).blobStore,
    ).toEqual({
      kind: 's3',
      bucket: 'b',
      endpoint: 'http://127.0.0.1:9000',
      region: 'us-east-1',
      accessKeyId: undefined,
      secretAccessKey: undefined,
      forcePathStyle: true,
    });
    expect(config({ BLOB_STORE: 's3', S3_BUCKET: 'b' }).blobStore).toMatchObject({ forcePathStyle: false });
    expect(() => config({ BLOB_STORE: 's3' })).toThrow('BLOB_STORE=s3 needs S3_BUCKET');
    expect(() => config({ BLOB_STORE: 's3', S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'x' })).toThrow('go together');
  });
});

describe.runIf(pgBase)('PostgreSQL chunk index in a deployment', () => {
  let db: { url: string; drop(): Promise<void> };
  beforeAll(async () => {
    db = await createTestDatabase(pgBase!);
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('stops start-up with how to install pgvector when the database cannot create it', async () => {
    // A role that may not create the (untrusted) extension in a database of its own.
    const role = `lectern_noext_${Math.random().toString(36).slice(2, 8)}`;
    const admin = new pg.Client({ connectionString: pgBase });
    await admin.connect();
    await admin.query(`CREATE ROLE ${role} LOGIN`);
    await admin.query(`CREATE DATABASE ${role} OWNER ${role}`);
    try {
      const url = new URL(pgBase!);
      url.username = role;
      url.password = '';
      url.pathname = `/${role}`;
      const health = new HealthRegistry();
      const onClose: Array<() => Promise<void> | void> = [];
      const opening = openChunkIndex(config({ DATABASE_URL: url.toString() }), health, onClose);
      await expect(opening).rejects.toThrow(PgvectorMissingError);
      await expect(opening).rejects.toThrow(
        /CREATE EXTENSION vector failed.*apt-get install postgresql-<major>-pgvector.*pgvector\/pgvector:pg<major>.*install-pgvector/,
      );
      expect(onClose).toEqual([]);
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${role} WITH (FORCE)`);
      await admin.query(`DROP ROLE IF EXISTS ${role}`);
      await admin.end();
    }
  });

  it('serves the same index to every process: what one writes, another finds at once', async () => {
    const health = new HealthRegistry();
    const onClose: Array<() => Promise<void> | void> = [];
    const worker = await openChunkIndex(config({ DATABASE_URL: db.url }), health, onClose);
    const api = await PgChunkIndex.open(db.url);
    try {
      expect(await health.run('doc_engine')).toMatchObject({
        status: 'green',
        type: 'postgres-tsvector+pgvector',
      });
      // The API process opened the index before any vector table existed.
      const a = chunk({ content_with_weight: 'garnet crystal', vector: [1, 0, 0] });
      const b = chunk({ content_with_weight: 'garnet sand', vector: [0, 1, 0] });
      await worker.upsert([a, b, ...fillers(6)]);
      await new Promise((r) => setTimeout(r, 2_100)); // the reader looks for new vector tables every 2 s
      const plan = (await planQuery('garnet', (t) => api.termStats(t)))!;
      const res = await api.search({
        filter: { kbIds: ['kb1'], available: 1 },
        text: plan.text,
        vector: { values: [0, 1, 0], topK: 10, floor: 0 },
        offset: 0,
        limit: 10,
      });
      expect(res.hits.map((h) => h.chunk.id)).toEqual([b.id, a.id]);
      expect(res.hits[0].cosine).toBeCloseTo(1);
    } finally {
      await api.close();
      for (const close of onClose.reverse()) await close();
    }
  });

  it("deletes a document's chunks in the metadata transaction: a rollback keeps them", async () => {
    const meta = openDb(db.url, dataDir);
    await migrateToLatest(meta);
    const index = await PgChunkIndex.open(db.url);
    try {
      const before = await index.rowCounts();
      await index.upsert([chunk({ doc_id: 'dx', content_with_weight: 'amber one', vector: [1, 1] })]);
      await expect(
        meta.kysely.transaction().execute(async (trx) => {
          await deleteDocChunksIn(index, trx, ['dx']);
          expect(await index.countByDoc('dx')).toBe(1); // not visible outside the transaction yet
          throw new Error('document delete failed');
        }),
      ).rejects.toThrow('document delete failed');
      expect(await index.countByDoc('dx')).toBe(1);
      expect(await index.rowCounts()).toEqual({ chunks: before.chunks + 1, vectors: before.vectors + 1 });
      await meta.kysely.transaction().execute((trx) => deleteDocChunksIn(index, trx, ['dx']));
      expect(await index.countByDoc('dx')).toBe(0);
      expect(await index.rowCounts()).toEqual(before);
      expect(await index.termStats(['amber'])).toEqual({ total: before.chunks, df: { amber: 0 } });
    } finally {
      await index.close();
      await meta.close();
    }
  });
  it('keeps the term counts equal to counting the rows through inserts, rewrites, edits, deletes and a backfill', async () => {
    let index = await PgChunkIndex.open(db.url);
    // Every term of the index: the counts from lectern_chunk_df against counting the rows with a tsquery.
    const expectCountsMatchRows = async () => {
      const vocab = await index.pool.query<{ lexeme: string }>(
        'SELECT lexeme FROM lectern_chunk, unnest(tsv) UNION SELECT lexeme FROM lectern_chunk, unnest(tsv_sm)',
      );
      const terms = vocab.rows.map((r) => r.lexeme).concat(['gone-term-never-written']);
      const coarse = await termCounts(
        index.pool,
        terms.map((term) => ({ term, fine: false })),
      );
      const both = await termCounts(
        index.pool,
        terms.map((term) => ({ term, fine: true })),
      );
      for (const [i, term] of terms.entries()) {
        const q = phraseQuery([term]);
        const res = await index.pool.query<{ c: number; b: number }>(
          'SELECT COUNT(*) FILTER (WHERE tsv @@ $1::tsquery)::int AS c, ' +
            'COUNT(*) FILTER (WHERE tsv @@ $1::tsquery OR tsv_sm @@ $1::tsquery)::int AS b FROM lectern_chunk',
          [q],
        );
        expect([term, coarse[i], both[i]]).toEqual([term, res.rows[0].c, res.rows[0].b]);
      }
      return terms.length;
    };
    try {
      const a = chunk({
        id: 'dfa',
        kb_id: 'kbdf',
        doc_id: 'dfd1',
        content_with_weight: 'quartz basalt quartz',
        vector: [1, 0],
      });
      const b = chunk({
        id: 'dfb',
        kb_id: 'kbdf',
        doc_id: 'dfd1',
        content_with_weight: '北京大学的学生 basalt',
      });
      const c = chunk({
        id: 'dfc',
        kb_id: 'kbdf',
        doc_id: 'dfd2',
        content_with_weight: 'obsidian 大学 granite',
      });
      await index.upsert([a, b, c, ...fillers(20, 'kbdf')]);
      expect(await expectCountsMatchRows()).toBeGreaterThan(10);
      // A rewrite (same id, other text, within a batch twice), an edit and an availability switch.
      await index.upsert([
        { ...a, content_with_weight: 'pumice' },
        { ...a, content_with_weight: 'pumice basalt' },
      ]);
      await index.update('dfb', { content_with_weight: '学生 granite' });
      await index.setAvailableByIds(['dfc'], 0);
      await expectCountsMatchRows();
      await index.deleteByIds('kbdf', ['dfa']);
      await index.deleteByDoc('dfd2');
      await expectCountsMatchRows();
      await compactDf(index.pool);
      await expectCountsMatchRows();
      // An index made before the table existed: its counts are filled in when it is opened.
      await index.pool.query('DROP TABLE lectern_chunk_df');
      await index.close();
      index = await PgChunkIndex.open(db.url);
      await expectCountsMatchRows();
      await index.deleteByKb('kbdf');
      await expectCountsMatchRows();
    } finally {
      await index.close();
    }
  });
});
