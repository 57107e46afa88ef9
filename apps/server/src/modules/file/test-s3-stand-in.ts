/**
 * An s3rver stand-in on 127.0.0.1 for the S3 import tests (not a test file itself): one bucket filled
 * with the given objects through the real AWS SDK client, and the credentials s3rver accepts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';

/** What `file/import_s3` is given to reach the stand-in (s3rver's fixed key pair). */
export const S3RVER_KEYS = { access_key: 'S3RVER', secret_key: 'S3RVER' };

export interface S3StandIn {
  endpoint: string;
  close(): Promise<void>;
}

export async function startS3StandIn(bucket: string, objects: Record<string, string>): Promise<S3StandIn> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), `lectern-s3-${bucket}-`));
  const s3server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const { port } = await s3server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: S3RVER_KEYS.access_key, secretAccessKey: S3RVER_KEYS.secret_key },
  });
  try {
    for (const [Key, Body] of Object.entries(objects))
      await client.send(new PutObjectCommand({ Bucket: bucket, Key, Body }));
  } finally {
    client.destroy();
  }
  return {
    endpoint,
    async close() {
      await s3server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
