/**
 * Blobs in an S3-compatible bucket (AWS S3, MinIO, Ceph, R2…) through the AWS SDK v3, so that every
 * API process and worker of a deployment reads what any other wrote. Keys are the same as the local
 * store's (path segments, no empty, `.` or `..` segment), a "prefix" is a key's folder: `deletePrefix(p)`
 * removes `p` and everything under `p/`, as the local store removes a folder. Uploads stream (multipart
 * above MULTIPART_BYTES, with @aws-sdk/lib-storage), downloads stream or collect into a Buffer.
 */
import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { BlobStore } from './blob-store.js';

/** A Buffer up to this size is one PUT; larger ones and streams go up in parts. */
const MULTIPART_BYTES = 16 * 1024 * 1024;
const PART_BYTES = 8 * 1024 * 1024;

export interface S3BlobStoreOptions {
  bucket: string;
  region: string;
  /** Unset = AWS. */
  endpoint?: string;
  /** Unset = the SDK's default credential chain. */
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
}

function keyOf(key: string): string {
  const safe = key
    .split('/')
    .filter((part) => part.length > 0 && part !== '.' && part !== '..')
    .join('/');
  if (safe.length === 0) throw new Error(`Invalid blob key "${key}"`);
  return safe;
}

function isNotFound(err: unknown): boolean {
  if (err instanceof S3ServiceException) {
    return err.name === 'NoSuchKey' || err.name === 'NotFound' || err.$metadata?.httpStatusCode === 404;
  }
  return false;
}

export class S3BlobStore implements BlobStore {
  readonly kind = 's3';
  readonly bucket: string;
  private readonly client: S3Client;

  constructor(opts: S3BlobStoreOptions) {
    this.bucket = opts.bucket;
    this.client = new S3Client({
      region: opts.region,
      endpoint: opts.endpoint,
      forcePathStyle: opts.forcePathStyle,
      credentials:
        opts.accessKeyId && opts.secretAccessKey
          ? { accessKeyId: opts.accessKeyId, secretAccessKey: opts.secretAccessKey }
          : undefined,
    });
  }

  async put(key: string, data: Buffer): Promise<void> {
    if (data.length > MULTIPART_BYTES) return this.putStream(key, Readable.from([data]));
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: keyOf(key), Body: data }));
  }

  async putStream(key: string, body: Readable): Promise<void> {
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: keyOf(key), Body: body },
      partSize: PART_BYTES,
      queueSize: 2,
      leavePartsOnError: false,
    });
    await upload.done();
  }

  async getStream(key: string): Promise<Readable | null> {
    try {
      const res = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: keyOf(key) }));
      if (!res.Body) return Readable.from([]);
      // In Node the SDK's body is an http.IncomingMessage (a Readable).
      return res.Body as Readable;
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async get(key: string): Promise<Buffer | null> {
    const stream = await this.getStream(key);
    if (!stream) return null;
    const parts: Buffer[] = [];
    for await (const part of stream)
      parts.push(Buffer.isBuffer(part) ? part : Buffer.from(part as Uint8Array));
    return Buffer.concat(parts);
  }

  async exists(key: string): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: keyOf(key) }));
      return true;
    } catch (err) {
      if (isNotFound(err)) return false;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: keyOf(key) }));
  }

  async deletePrefix(prefix: string): Promise<void> {
    const folder = keyOf(prefix);
    await this.delete(folder);
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: `${folder}/`, ContinuationToken: token }),
      );
      const keys = (page.Contents ?? []).flatMap((o) => (o.Key ? [{ Key: o.Key }] : []));
      if (keys.length > 0) {
        const res = await this.client.send(
          new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: keys, Quiet: true } }),
        );
        if (res.Errors && res.Errors.length > 0)
          throw new Error(
            `could not delete ${res.Errors[0].Key}: ${res.Errors[0].Message ?? res.Errors[0].Code}`,
          );
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async health(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
    } catch (err) {
      const why = err instanceof Error ? err.name || err.message : String(err);
      throw new Error(`S3 bucket "${this.bucket}" is not reachable (${why})`);
    }
    const key = '.health/probe';
    await this.put(key, Buffer.from('ok'));
    const back = await this.get(key);
    if (back?.toString() !== 'ok') throw new Error('blob store read-back mismatch');
  }

  close(): void {
    this.client.destroy();
  }
}
