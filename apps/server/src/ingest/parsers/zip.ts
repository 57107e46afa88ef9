/**
 * A small, defensive ZIP reader for office packages (DOCX/XLSX/PPTX).
 *
 * Why not JSZip for reading: it inflates whatever an entry contains, so a crafted archive (a "decompression
 * bomb") can exhaust memory. Here the limits are enforced on what the central directory declares and again
 * while inflating:
 *  - opening: more entries than `maxEntries`, or a declared total above `maxTotalBytes` at a bomb-like
 *    expansion ratio (> 100×), is refused before anything is inflated;
 *  - reading: an entry whose declared size does not fit the remaining budget (`maxTotalBytes` minus what was
 *    already inflated) is refused, and zlib's `maxOutputLength` stops inflating the moment an entry produces
 *    more than it declared — so a lying header cannot get past either check. CRCs are verified.
 */
import zlib from 'node:zlib';
import { ParseError } from '../errors.js';

export interface ZipLimits {
  /** Sum of the uncompressed sizes of all entries (declared and actual). */
  maxTotalBytes: number;
  /** Number of entries in the central directory. */
  maxEntries: number;
}

export const DEFAULT_ZIP_LIMITS: ZipLimits = { maxTotalBytes: 512 * 1024 * 1024, maxEntries: 20_000 };

interface ZipEntry {
  name: string;
  method: number;
  flags: number;
  crc: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

/** Expansion ratio above which an over-the-cap archive is refused outright (office XML deflates ~5–30×). */
const MAX_RATIO = 100;

const SIG_LOCAL = 0x04034b50;
const SIG_CENTRAL = 0x02014b50;
const SIG_EOCD = 0x06054b50;
const SIG_EOCD64 = 0x06064b50;
const SIG_EOCD64_LOCATOR = 0x07064b50;

/** True when the buffer starts like a ZIP archive (a local file header or an empty archive). */
export function looksLikeZip(buf: Buffer): boolean {
  return (
    buf.length >= 4 &&
    buf[0] === 0x50 &&
    buf[1] === 0x4b &&
    (buf[2] === 3 || buf[2] === 5) &&
    (buf[3] === 4 || buf[3] === 6)
  );
}

function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? `${Math.round(n / (1024 * 1024))} MB` : `${Math.round(n / 1024)} KB`;
}

function normalizeName(name: string): string {
  return name.replace(/\\/g, '/').replace(/^\/+/, '');
}

export class ZipArchive {
  private readonly entries = new Map<string, ZipEntry>();
  private inflated = 0;
  private readonly cache = new Map<string, Buffer>();

  private constructor(
    private readonly buf: Buffer,
    private readonly label: string,
    private readonly limits: ZipLimits,
  ) {}

  /**
   * Reads the central directory. `label` names the format in messages ("DOCX file").
   * Throws ParseError when the bytes are not a ZIP archive, are damaged, or exceed the limits.
   */
  static open(buf: Buffer, label: string, limits: ZipLimits = DEFAULT_ZIP_LIMITS): ZipArchive {
    const zip = new ZipArchive(buf, label, limits);
    zip.readDirectory();
    return zip;
  }

  /** Entry names as stored (normalised to forward slashes, no leading slash). */
  names(): string[] {
    return [...this.entries.values()].map((e) => e.name);
  }

  has(name: string): boolean {
    return this.entries.has(normalizeName(name).toLowerCase());
  }

  /** Uncompressed size the directory declares for an entry (0 when absent). */
  sizeOf(name: string): number {
    return this.entries.get(normalizeName(name).toLowerCase())?.size ?? 0;
  }

  /** Inflates one entry; null when the archive has no such entry. Names are matched case-insensitively (OPC). */
  read(name: string): Buffer | null {
    const key = normalizeName(name).toLowerCase();
    const cached = this.cache.get(key);
    if (cached) return cached;
    const entry = this.entries.get(key);
    if (!entry) return null;
    // Each entry is inflated (and counted against the budget) once, however often it is used.
    const data = this.inflate(entry);
    this.cache.set(key, data);
    return data;
  }

  /** Like `read` but throws a readable ParseError when the entry is missing. */
  require(name: string): Buffer {
    const data = this.read(name);
    if (!data) throw new ParseError(`The ${this.label} is damaged: the part "${name}" is missing.`);
    return data;
  }

  private fail(detail: string): never {
    throw new ParseError(`The ${this.label} is damaged: ${detail}.`);
  }

  private readDirectory(): void {
    const buf = this.buf;
    if (buf.length < 22 || !looksLikeZip(buf)) {
      throw new ParseError(`This is not a valid ${this.label} (it is not a zip archive).`);
    }
    // The end-of-central-directory record sits in the last 22 + 65535 (comment) bytes.
    let eocd = -1;
    for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 0xffff); i--) {
      if (buf.readUInt32LE(i) === SIG_EOCD) {
        eocd = i;
        break;
      }
    }
    if (eocd < 0) this.fail('the zip directory is missing (the file may be truncated)');
    let count = buf.readUInt16LE(eocd + 10);
    let cdSize = buf.readUInt32LE(eocd + 12);
    let cdOffset = buf.readUInt32LE(eocd + 16);
    const locator = eocd - 20;
    if (locator >= 0 && buf.readUInt32LE(locator) === SIG_EOCD64_LOCATOR) {
      const eocd64 = Number(buf.readBigUInt64LE(locator + 8));
      if (eocd64 + 56 > buf.length || buf.readUInt32LE(eocd64) !== SIG_EOCD64)
        this.fail('the zip64 directory is invalid');
      count = Number(buf.readBigUInt64LE(eocd64 + 32));
      cdSize = Number(buf.readBigUInt64LE(eocd64 + 40));
      cdOffset = Number(buf.readBigUInt64LE(eocd64 + 48));
    }
    if (count > this.limits.maxEntries) {
      throw new ParseError(
        `The ${this.label} contains ${count} archive entries, more than the limit of ${this.limits.maxEntries}; it may be a decompression bomb.`,
      );
    }
    if (cdOffset + cdSize > buf.length)
      this.fail('the zip directory points outside the file (the file may be truncated)');
    let declaredTotal = 0;
    let compressedTotal = 0;
    let p = cdOffset;
    for (let i = 0; i < count; i++) {
      if (p + 46 > buf.length || buf.readUInt32LE(p) !== SIG_CENTRAL)
        this.fail('the zip directory is corrupt');
      const flags = buf.readUInt16LE(p + 8);
      const method = buf.readUInt16LE(p + 10);
      const crc = buf.readUInt32LE(p + 16);
      let compressedSize = buf.readUInt32LE(p + 20);
      let size = buf.readUInt32LE(p + 24);
      const nameLen = buf.readUInt16LE(p + 28);
      const extraLen = buf.readUInt16LE(p + 30);
      const commentLen = buf.readUInt16LE(p + 32);
      let localOffset = buf.readUInt32LE(p + 42);
      const nameBytes = buf.subarray(p + 46, p + 46 + nameLen);
      const name = normalizeName(nameBytes.toString(flags & 0x800 ? 'utf8' : 'latin1'));
      // Zip64 extended information: the 64-bit values appear in order for the fields set to 0xFFFFFFFF.
      let e = p + 46 + nameLen;
      const extraEnd = e + extraLen;
      while (e + 4 <= extraEnd) {
        const id = buf.readUInt16LE(e);
        const len = buf.readUInt16LE(e + 2);
        if (id === 0x0001) {
          let q = e + 4;
          if (size === 0xffffffff && q + 8 <= e + 4 + len) {
            size = Number(buf.readBigUInt64LE(q));
            q += 8;
          }
          if (compressedSize === 0xffffffff && q + 8 <= e + 4 + len) {
            compressedSize = Number(buf.readBigUInt64LE(q));
            q += 8;
          }
          if (localOffset === 0xffffffff && q + 8 <= e + 4 + len)
            localOffset = Number(buf.readBigUInt64LE(q));
        }
        e += 4 + len;
      }
      p = extraEnd + commentLen;
      if (name.endsWith('/')) continue; // directory entry
      declaredTotal += size;
      compressedTotal += compressedSize;
      this.entries.set(name.toLowerCase(), { name, method, flags, crc, compressedSize, size, localOffset });
    }
    // Over the cap with a bomb-like ratio: refuse before inflating anything. (A package that is simply large,
    // e.g. with stored media, opens; the cap then applies to the entries actually read.)
    if (
      declaredTotal > this.limits.maxTotalBytes &&
      declaredTotal > MAX_RATIO * Math.max(1, compressedTotal)
    ) {
      throw new ParseError(
        `The ${this.label} would unpack to more than ${formatBytes(this.limits.maxTotalBytes)} (the limit); it may be a decompression bomb.`,
      );
    }
  }

  private inflate(entry: ZipEntry): Buffer {
    const buf = this.buf;
    if (entry.flags & 0x1) {
      throw new ParseError(
        `The ${this.label} is password-protected (encrypted); remove the password and upload it again.`,
      );
    }
    const lo = entry.localOffset;
    if (lo + 30 > buf.length || buf.readUInt32LE(lo) !== SIG_LOCAL)
      this.fail(`the entry "${entry.name}" is corrupt`);
    const start = lo + 30 + buf.readUInt16LE(lo + 26) + buf.readUInt16LE(lo + 28);
    const end = start + entry.compressedSize;
    if (end > buf.length) this.fail(`the entry "${entry.name}" is truncated`);
    const raw = buf.subarray(start, end);
    const budget = this.limits.maxTotalBytes - this.inflated;
    if (entry.size > budget) {
      throw new ParseError(
        `The ${this.label} would unpack to more than ${formatBytes(this.limits.maxTotalBytes)} (the limit); it may be a decompression bomb.`,
      );
    }
    let out: Buffer;
    if (entry.method === 0) {
      if (entry.compressedSize !== entry.size) this.fail(`the entry "${entry.name}" has inconsistent sizes`);
      out = raw;
    } else if (entry.method === 8) {
      if (entry.size === 0) {
        out = Buffer.alloc(0);
      } else {
        try {
          // Never produce more than the entry declared: a lying header is caught while inflating.
          out = zlib.inflateRawSync(raw, { maxOutputLength: entry.size });
        } catch (err) {
          if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
            throw new ParseError(
              `The ${this.label} is unsafe: the entry "${entry.name}" inflates beyond its declared size of ${entry.size} bytes (limit exceeded); it may be a decompression bomb.`,
            );
          }
          this.fail(`the entry "${entry.name}" cannot be decompressed`);
        }
      }
    } else {
      this.fail(`the entry "${entry.name}" uses an unsupported compression method (${entry.method})`);
    }
    if (out.length !== entry.size) this.fail(`the entry "${entry.name}" has the wrong size`);
    if (typeof zlib.crc32 === 'function' && out.length > 0 && zlib.crc32(out) >>> 0 !== entry.crc) {
      this.fail(`the entry "${entry.name}" fails its checksum`);
    }
    this.inflated += out.length;
    return out;
  }
}
