/** Port for original uploads, page images, chunk images and thumbnails. Key = "<bucket>/<name>". */
export interface BlobStore {
  readonly kind: string;
  put(key: string, data: Buffer): Promise<void>;
  get(key: string): Promise<Buffer | null>;
  exists(key: string): Promise<boolean>;
  delete(key: string): Promise<void>;
  /** Removes every blob whose key starts with `prefix` (a KB's bucket, say). */
  deletePrefix(prefix: string): Promise<void>;
  /** Throws when the store cannot be written and read back. */
  health(): Promise<void>;
}
