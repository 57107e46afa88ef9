import crypto from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { BlobStore } from './blob-store.js';

/**
 * A key segment longer than this (UTF-8 bytes) is stored under a hashed file name: file systems
 * refuse names over 255 bytes (ENAMETOOLONG), and keys carry user-chosen names. Shorter segments
 * keep their name, so blobs written before this rule stay where they are (229 = 255 minus the
 * temporary-file suffix the store used to append, so no longer name was ever written).
 */
const MAX_SEGMENT_BYTES = 229;

function segmentName(part: string): string {
  if (Buffer.byteLength(part, 'utf8') <= MAX_SEGMENT_BYTES) return part;
  return `~${crypto.createHash('sha256').update(part).digest('hex')}`;
}

/** A temporary file beside `file`, with a short name of its own (never derived from the key). */
function tmpBeside(file: string): string {
  return path.join(path.dirname(file), `.tmp-${process.pid}-${crypto.randomBytes(8).toString('hex')}`);
}

/** Blobs as files under `<dataDir>/blobs`; keys are sanitised so they cannot escape the folder. */
export class LocalBlobStore implements BlobStore {
  readonly kind = 'local';

  constructor(private readonly root: string) {}

  private pathOf(key: string): string {
    const safe = key
      .split('/')
      .filter((part) => part.length > 0 && part !== '.' && part !== '..')
      .map(segmentName)
      .join(path.sep);
    if (safe.length === 0) throw new Error(`Invalid blob key "${key}"`);
    return path.join(this.root, safe);
  }

  async put(key: string, data: Buffer): Promise<void> {
    const file = this.pathOf(key);
    await fs.mkdir(path.dirname(file), { recursive: true });
    const tmp = tmpBeside(file);
    await fs.writeFile(tmp, data);
    await fs.rename(tmp, file);
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      return await fs.readFile(this.pathOf(key));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async putStream(key: string, body: Readable): Promise<void> {
    const file = this.pathOf(key);
    await fs.mkdir(path.dirname(file), { recursive: true });
    const tmp = tmpBeside(file);
    try {
      await pipeline(body, createWriteStream(tmp));
      await fs.rename(tmp, file);
    } finally {
      await fs.rm(tmp, { force: true });
    }
  }

  async getStream(key: string): Promise<Readable | null> {
    const file = this.pathOf(key);
    try {
      // Opened before it is handed out, so a missing file is null here rather than a stream error.
      const handle = await fs.open(file, 'r');
      return handle.createReadStream();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async exists(key: string): Promise<boolean> {
    try {
      await fs.access(this.pathOf(key));
      return true;
    } catch {
      return false;
    }
  }

  async delete(key: string): Promise<void> {
    await fs.rm(this.pathOf(key), { force: true });
  }

  async deletePrefix(prefix: string): Promise<void> {
    await fs.rm(this.pathOf(prefix), { recursive: true, force: true });
  }

  async health(): Promise<void> {
    const key = '.health/probe';
    await this.put(key, Buffer.from('ok'));
    const back = await this.get(key);
    if (back?.toString() !== 'ok') throw new Error('blob store read-back mismatch');
  }
}
