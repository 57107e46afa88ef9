import type { Readable } from 'node:stream';

/** Port for original uploads, page images, chunk images and thumbnails. Key = "<bucket>/<name>". */
export interface BlobStore {
  readonly kind: string;
  put(key: string, data: Buffer): Promise<void>;
  get(key: string): Promise<Buffer | null>;
  /** Writes a blob from a stream, never holding it whole (large uploads). */
  putStream(key: string, body: Readable): Promise<void>;
  /** The blob as a stream, or null when it does not exist. */
  getStream(key: string): Promise<Readable | null>;
  exists(key: string): Promise<boolean>;
  delete(key: string): Promise<void>;
  /** Removes every blob whose key starts with `prefix` (a KB's bucket, say). */
  deletePrefix(prefix: string): Promise<void>;
  /** Throws when the store cannot be written and read back. */
  health(): Promise<void>;
}
