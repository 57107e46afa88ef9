import path from 'node:path';
import type { Config } from '../config.js';
import type { BlobStore } from './blob-store.js';
import { LocalBlobStore } from './local-blob-store.js';
import { S3BlobStore } from './s3-blob-store.js';

/** The blob store the configuration asks for (BLOB_STORE): `<dataDir>/blobs` or an S3-compatible bucket. */
export function createBlobStore(config: Config): BlobStore {
  const c = config.blobStore;
  if (c.kind === 's3') {
    return new S3BlobStore({
      bucket: c.bucket,
      region: c.region,
      endpoint: c.endpoint,
      accessKeyId: c.accessKeyId,
      secretAccessKey: c.secretAccessKey,
      forcePathStyle: c.forcePathStyle,
    });
  }
  return new LocalBlobStore(path.join(config.dataDir, 'blobs'));
}
