/**
 * Reader for the Compound File Binary format (MS-CFB, "OLE2"): the container of legacy Office files
 * (.xls, .doc, .ppt), Outlook .msg, and of password-protected OOXML files. Read-only, bounds-checked,
 * with loop protection on every sector chain.
 */
import { ParseError } from '../errors.js';

export const CFB_MAGIC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

const FREESECT = 0xffffffff;
const ENDOFCHAIN = 0xfffffffe;
const NOSTREAM = 0xffffffff;

export function looksLikeCfb(buf: Buffer): boolean {
  return buf.length >= 512 && buf.subarray(0, 8).equals(CFB_MAGIC);
}

interface DirEntry {
  name: string;
  type: number; // 1 storage, 2 stream, 5 root
  left: number;
  right: number;
  child: number;
  start: number;
  size: number;
}

export class CompoundFile {
  private readonly sectorSize: number;
  private readonly miniSectorSize: number;
  private readonly miniCutoff: number;
  private readonly fat: Uint32Array;
  private readonly miniFat: Uint32Array;
  private readonly dir: DirEntry[];
  private miniStream: Buffer | null = null;
  /** Stream paths ("Workbook", "__attach_version1.0_#00000000/__substg1.0_3701000D") → directory index. */
  private readonly paths = new Map<string, number>();

  constructor(
    private readonly buf: Buffer,
    private readonly label: string,
  ) {
    if (!looksLikeCfb(buf))
      throw new ParseError(`This is not a valid ${label} (it is not an OLE2 compound file).`);
    const shift = buf.readUInt16LE(0x1e);
    const miniShift = buf.readUInt16LE(0x20);
    if ((shift !== 9 && shift !== 12) || miniShift !== 6) this.fail('unsupported sector size');
    this.sectorSize = 1 << shift;
    this.miniSectorSize = 1 << miniShift;
    this.miniCutoff = buf.readUInt32LE(0x38);
    const fatSectors = buf.readUInt32LE(0x2c);
    const firstDir = buf.readUInt32LE(0x30);
    const firstMiniFat = buf.readUInt32LE(0x3c);
    const miniFatCount = buf.readUInt32LE(0x40);
    let difatSector = buf.readUInt32LE(0x44);
    const difatCount = buf.readUInt32LE(0x48);
    const maxSectors = Math.ceil(buf.length / this.sectorSize) + 1;
    if (fatSectors > maxSectors) this.fail('the allocation table is larger than the file');

    // The DIFAT lists the FAT sectors: 109 in the header, the rest in a chain of DIFAT sectors.
    const fatList: number[] = [];
    for (let i = 0; i < 109 && fatList.length < fatSectors; i++) fatList.push(buf.readUInt32LE(0x4c + i * 4));
    const perDifat = this.sectorSize / 4 - 1;
    for (let d = 0; d < difatCount && fatList.length < fatSectors; d++) {
      if (difatSector >= maxSectors) this.fail('the DIFAT chain is broken');
      const off = this.sectorOffset(difatSector);
      for (let i = 0; i < perDifat && fatList.length < fatSectors; i++)
        fatList.push(buf.readUInt32LE(off + i * 4));
      difatSector = buf.readUInt32LE(off + perDifat * 4);
    }
    const perSector = this.sectorSize / 4;
    this.fat = new Uint32Array(fatList.length * perSector);
    fatList.forEach((s, i) => {
      const off = this.sectorOffset(s);
      for (let k = 0; k < perSector; k++) this.fat[i * perSector + k] = buf.readUInt32LE(off + k * 4);
    });

    const miniFatBytes = miniFatCount > 0 ? this.readChain(firstMiniFat, -1) : Buffer.alloc(0);
    this.miniFat = new Uint32Array(miniFatBytes.length / 4);
    for (let i = 0; i < this.miniFat.length; i++) this.miniFat[i] = miniFatBytes.readUInt32LE(i * 4);

    const dirBytes = this.readChain(firstDir, -1);
    this.dir = [];
    for (let off = 0; off + 128 <= dirBytes.length; off += 128) {
      const nameLen = Math.min(dirBytes.readUInt16LE(off + 0x40), 64);
      const name = dirBytes.subarray(off, off + Math.max(0, nameLen - 2)).toString('utf16le');
      this.dir.push({
        name,
        type: dirBytes[off + 0x42],
        left: dirBytes.readUInt32LE(off + 0x44),
        right: dirBytes.readUInt32LE(off + 0x48),
        child: dirBytes.readUInt32LE(off + 0x4c),
        start: dirBytes.readUInt32LE(off + 0x74),
        size: dirBytes.readUInt32LE(off + 0x78),
      });
    }
    if (this.dir.length === 0 || this.dir[0].type !== 5) this.fail('the root directory entry is missing');
    this.indexPaths(this.dir[0].child, '', new Set());
  }

  private fail(detail: string): never {
    throw new ParseError(`The ${this.label} is damaged: ${detail}.`);
  }

  private sectorOffset(sector: number): number {
    const off = (sector + 1) * this.sectorSize;
    if (off + this.sectorSize > this.buf.length) {
      // The last sector may be short in truncated-but-readable files; anything further out is damage.
      if (off >= this.buf.length) this.fail('a sector lies outside the file (the file may be truncated)');
    }
    return off;
  }

  private readChain(start: number, size: number): Buffer {
    const parts: Buffer[] = [];
    const seen = new Set<number>();
    let s = start;
    let total = 0;
    while (s !== ENDOFCHAIN && s !== FREESECT) {
      if (seen.has(s) || s >= this.fat.length) this.fail('a sector chain is broken or loops');
      seen.add(s);
      const off = this.sectorOffset(s);
      parts.push(this.buf.subarray(off, Math.min(off + this.sectorSize, this.buf.length)));
      total += this.sectorSize;
      if (size >= 0 && total >= size) break;
      s = this.fat[s];
    }
    const out = Buffer.concat(parts);
    return size >= 0 ? out.subarray(0, size) : out;
  }

  private readMiniChain(start: number, size: number): Buffer {
    if (!this.miniStream) this.miniStream = this.readChain(this.dir[0].start, this.dir[0].size);
    const out = Buffer.alloc(size);
    const seen = new Set<number>();
    let s = start;
    let pos = 0;
    while (pos < size) {
      if (s === ENDOFCHAIN || seen.has(s) || s >= this.miniFat.length)
        this.fail('a mini-stream chain is broken');
      seen.add(s);
      const off = s * this.miniSectorSize;
      if (off >= this.miniStream.length) this.fail('a mini sector lies outside the mini stream');
      pos += this.miniStream.copy(out, pos, off, Math.min(off + this.miniSectorSize, off + size - pos));
      s = this.miniFat[s];
    }
    return out;
  }

  private indexPaths(id: number, prefix: string, seen: Set<number>): void {
    // The siblings form a red-black tree; walk it iteratively (left/right) and recurse into storages.
    const stack = [id];
    while (stack.length) {
      const i = stack.pop()!;
      if (i === NOSTREAM || i >= this.dir.length) continue;
      if (seen.has(i)) this.fail('the directory tree loops');
      seen.add(i);
      const e = this.dir[i];
      const p = prefix ? `${prefix}/${e.name}` : e.name;
      this.paths.set(p.toLowerCase(), i);
      if (e.type === 1) this.indexPaths(e.child, p, seen);
      stack.push(e.left, e.right);
    }
  }

  /** Case-insensitive: true when a stream or storage exists at this path. */
  has(path: string): boolean {
    return this.paths.has(path.toLowerCase());
  }

  /** Paths of all entries (streams and storages). */
  list(): string[] {
    return [...this.paths.keys()];
  }

  /** Names of the direct children of a storage ('' = root). */
  childrenOf(storage: string): string[] {
    const pre = storage ? storage.toLowerCase() + '/' : '';
    return [...this.paths.entries()]
      .filter(([p]) => p.startsWith(pre) && !p.slice(pre.length).includes('/'))
      .map(([, i]) => this.dir[i].name);
  }

  /** Reads a stream; null when absent. */
  read(path: string): Buffer | null {
    const i = this.paths.get(path.toLowerCase());
    if (i === undefined) return null;
    const e = this.dir[i];
    if (e.type !== 2) return null;
    if (e.size === 0) return Buffer.alloc(0);
    if (e.size > this.buf.length) this.fail(`the stream "${e.name}" is larger than the file`);
    return e.size < this.miniCutoff ? this.readMiniChain(e.start, e.size) : this.readChain(e.start, e.size);
  }
}
