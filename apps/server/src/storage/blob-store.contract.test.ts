/**
 * The BlobStore contract, run against both adapters: the local folder and an S3-compatible bucket
 * (the S3 protocol spoken by an s3rver stand-in on 127.0.0.1, through the real AWS SDK client). Then
 * the app itself with BLOB_STORE=s3: an upload lands in the bucket and downloads back through the API.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, newUser, startTestServer } from '../../test/harness.js';
import { createKb, upload } from '../modules/kb/test-support.js';
import type { BlobStore } from './blob-store.js';
import { LocalBlobStore } from './local-blob-store.js';
import { S3BlobStore } from './s3-blob-store.js';

const BUCKET = 'lectern-test';
const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
let s3dir: string;
let s3server: S3rver;
let endpoint: string;

beforeAll(async () => {
  s3dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-s3rver-'));
  s3server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: s3dir,
    configureBuckets: [{ name: BUCKET, configs: [] }],
  });
  const { port } = await s3server.run();
  endpoint = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  await s3server?.close();
  fs.rmSync(s3dir, { recursive: true, force: true });
});

function s3Store(bucket = BUCKET): S3BlobStore {
  return new S3BlobStore({ bucket, region: 'us-east-1', endpoint, forcePathStyle: true, ...CREDENTIALS });
}

async function drain(stream: Readable | null): Promise<Buffer | null> {
  if (!stream) return null;
  const parts: Buffer[] = [];
  for await (const p of stream) parts.push(Buffer.from(p as Uint8Array));
  return Buffer.concat(parts);
}

/** A stream of `size` pseudo-random bytes in 1 MiB pieces (never one buffer). */
function bigStream(size: number, seed: number): Readable {
  let sent = 0;
  let x = seed;
  return new Readable({
    read() {
      if (sent >= size) return void this.push(null);
      const n = Math.min(1 << 20, size - sent);
      const b = Buffer.alloc(n);
      for (let i = 0; i < n; i++) {
        x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
        b[i] = x >>> 24;
      }
      sent += n;
      this.push(b);
    },
  });
}

const stores: Array<{ name: string; open: () => BlobStore }> = [
  { name: 'local', open: () => new LocalBlobStore(fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-blobs-'))) },
  { name: 's3', open: () => s3Store() },
];

describe.each(stores)('BlobStore contract: $name', ({ open }) => {
  let store: BlobStore;
  beforeAll(() => {
    store = open();
  });

  it('writes, reads back, overwrites and reports existence', async () => {
    const bytes = Buffer.from([0, 1, 2, 255, 254, 10, 13]);
    await store.put('kb1/file.bin', bytes);
    expect(await store.get('kb1/file.bin')).toEqual(bytes);
    expect(await store.exists('kb1/file.bin')).toBe(true);
    await store.put('kb1/file.bin', Buffer.from('second'));
    expect((await store.get('kb1/file.bin'))!.toString()).toBe('second');
    expect(await store.get('kb1/missing.bin')).toBeNull();
    expect(await store.exists('kb1/missing.bin')).toBe(false);
    expect(await store.getStream('kb1/missing.bin')).toBeNull();
  });

  it('deletes one blob (again without error), and a prefix with everything under it only', async () => {
    await store.put('gone/a', Buffer.from('a'));
    await store.delete('gone/a');
    await store.delete('gone/a');
    expect(await store.exists('gone/a')).toBe(false);
    for (const k of ['doc9/img1', 'doc9/deep/img2', 'doc99/keep', 'doc9x', 'other/doc9'])
      await store.put(k, Buffer.from(k));
    await store.deletePrefix('doc9');
    await store.deletePrefix('doc9');
    for (const k of ['doc9/img1', 'doc9/deep/img2']) expect(await store.exists(k)).toBe(false);
    for (const k of ['doc99/keep', 'doc9x', 'other/doc9']) expect(await store.exists(k)).toBe(true);
  });

  it('keeps keys inside the store: empty, "." and ".." segments are dropped', async () => {
    await store.put('../../escape/./x//y', Buffer.from('inside'));
    expect((await store.get('escape/x/y'))!.toString()).toBe('inside');
    await expect(store.put('/../', Buffer.from('x'))).rejects.toThrow('Invalid blob key');
  });

  it('streams a large upload and download (multipart on S3) without changing a byte', async () => {
    const size = 18 * 1024 * 1024 + 123;
    await store.putStream('big/blob', bigStream(size, 42));
    const back = await drain(await store.getStream('big/blob'));
    const expected = await drain(bigStream(size, 42));
    expect(back!.length).toBe(size);
    expect(back!.equals(expected!)).toBe(true);
    expect((await store.get('big/blob'))!.length).toBe(size);
  }, 60_000);

  it('passes its health probe', async () => {
    await expect(store.health()).resolves.toBeUndefined();
  });
});

describe('S3 blob store', () => {
  it('says which bucket it cannot reach', async () => {
    await expect(s3Store('no-such-bucket').health()).rejects.toThrow(
      'S3 bucket "no-such-bucket" is not reachable',
    );
  });

  it('serves the app with BLOB_STORE=s3: uploads land in the bucket and download back', async () => {
    const server = await startTestServer({
      BLOB_STORE: 's3',
      S3_ENDPOINT: endpoint,
      S3_BUCKET: BUCKET,
      S3_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
      S3_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
    });
    try {
      expect(server.ctx.blobs.kind).toBe('s3');
      const user = await newUser(server, 's3user');
      const kbId = await createKb(server, user.token, { name: 'Bucketed' });
      const res = await upload(server, user.token, { kb_id: kbId }, [
        { name: 'note.txt', data: 'stored in S3' },
      ]);
      const doc = (res.body.data as Array<{ id: string; location: string }>)[0];
      const client = new S3Client({
        region: 'us-east-1',
        endpoint,
        forcePathStyle: true,
        credentials: CREDENTIALS,
      });
      const listed = await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: `${kbId}/` }));
      expect(listed.Contents?.map((o) => o.Key)).toContain(`${kbId}/${doc.location}`);
      client.destroy();
      const raw = await fetch(`${server.url}/v1/document/get/${doc.id}`, {
        headers: { Authorization: user.token },
      });
      expect(await raw.text()).toBe('stored in S3');
      const status = await call<Record<string, { status: string }>>(server, '/v1/system/status', {
        token: user.token,
      });
      expect(JSON.stringify(status.body.data)).toContain('s3');
    } finally {
      await server.close();
    }
  });
});
