/**
 * Legacy Excel 97–2003 workbooks (.xls, BIFF8 inside an OLE2 compound file) → sheets, without the abandoned
 * `xlsx` package. Reads the records that carry cell values (MS-XLS): shared strings (SST with CONTINUE
 * splits), LABELSST, LABEL, RSTRING, NUMBER, RK, MULRK, FORMULA cached results (+ STRING), BOOLERR,
 * MERGEDCELLS, plus FORMAT/XF/DATEMODE for dates and percentages. Excel 5/95 (BIFF5) files and
 * password-protected workbooks are refused with a readable message.
 */
import { progressMessage } from '@lectern/shared';
import { ParseError } from '../errors.js';
import { CompoundFile } from './cfb.js';
import {
  formatKind,
  formatNumberCell,
  numberFormatCode,
  typedNumber,
  type ValueKind,
} from './number-format.js';
import type { CellValue, Merge, SheetData } from './spreadsheet.js';

const LABEL = 'XLS file';
const R = {
  BOF: 0x0809,
  EOF: 0x000a,
  FILEPASS: 0x002f,
  DATEMODE: 0x0022,
  FORMAT: 0x041e,
  XF: 0x00e0,
  BOUNDSHEET: 0x0085,
  SST: 0x00fc,
  CONTINUE: 0x003c,
  LABELSST: 0x00fd,
  LABEL: 0x0204,
  RSTRING: 0x00d6,
  NUMBER: 0x0203,
  RK: 0x027e,
  MULRK: 0x00bd,
  FORMULA: 0x0006,
  STRING: 0x0207,
  BOOLERR: 0x0205,
  MERGEDCELLS: 0x00e5,
} as const;

const ERRORS: Record<number, string> = {
  0: '#NULL!',
  7: '#DIV/0!',
  15: '#VALUE!',
  23: '#REF!',
  29: '#NAME?',
  36: '#NUM!',
  42: '#N/A',
};

interface Rec {
  type: number;
  data: Buffer;
  /** Offset of the record header in the stream. */
  at: number;
}

function* records(stream: Buffer, start: number): Generator<Rec> {
  let p = start;
  while (p + 4 <= stream.length) {
    const type = stream.readUInt16LE(p);
    const len = stream.readUInt16LE(p + 2);
    if (p + 4 + len > stream.length)
      throw new ParseError(`The ${LABEL} is damaged: a record runs past the end of the workbook.`);
    yield { type, data: stream.subarray(p + 4, p + 4 + len), at: p };
    p += 4 + len;
  }
}

/** Reads bytes across the segments of a record and its CONTINUE records (MS-XLS 2.5.294 splitting rules). */
class SegmentReader {
  private si = 0;
  private pos = 0;
  constructor(private readonly segs: Buffer[]) {}

  private cur(): Buffer {
    while (this.si < this.segs.length && this.pos >= this.segs[this.si].length) {
      this.si++;
      this.pos = 0;
    }
    if (this.si >= this.segs.length)
      throw new ParseError(`The ${LABEL} is damaged: the shared string table is truncated.`);
    return this.segs[this.si];
  }

  done(): boolean {
    return (
      this.si >= this.segs.length ||
      (this.si === this.segs.length - 1 && this.pos >= this.segs[this.si].length)
    );
  }

  u8(): number {
    const b = this.cur();
    return b[this.pos++];
  }

  u16(): number {
    return this.u8() | (this.u8() << 8);
  }

  u32(): number {
    return (this.u16() | (this.u16() << 16)) >>> 0;
  }

  skip(n: number): void {
    while (n > 0) {
      const b = this.cur();
      const k = Math.min(n, b.length - this.pos);
      this.pos += k;
      n -= k;
    }
  }

  /** XLUnicodeRichExtendedString: when the characters cross into a CONTINUE, a new flags byte precedes them. */
  unicodeString(cch: number): string {
    const flags = this.u8();
    let high = (flags & 1) !== 0;
    const runs = flags & 8 ? this.u16() : 0;
    const ext = flags & 4 ? this.u32() : 0;
    let out = '';
    let left = cch;
    while (left > 0) {
      if (this.si < this.segs.length && this.pos >= this.segs[this.si].length) {
        // The characters continue in the next CONTINUE record, which starts with its own flags byte.
        this.si++;
        this.pos = 0;
        high = (this.u8() & 1) !== 0;
        continue;
      }
      const b = this.cur();
      const avail = high ? (b.length - this.pos) >> 1 : b.length - this.pos;
      if (avail === 0)
        throw new ParseError(`The ${LABEL} is damaged: a string is split in the middle of a character.`);
      const k = Math.min(left, avail);
      out += high
        ? b.toString('utf16le', this.pos, this.pos + k * 2)
        : b.toString('latin1', this.pos, this.pos + k);
      this.pos += high ? k * 2 : k;
      left -= k;
    }
    this.skip(runs * 4 + ext);
    return out;
  }
}

/** XLUnicodeString inside one record: cch (u16 or u8), flags, characters. */
function recordString(data: Buffer, off: number, shortCount = false): string {
  const cch = shortCount ? data[off] : data.readUInt16LE(off);
  const reader = new SegmentReader([data.subarray(off + (shortCount ? 1 : 2))]);
  return reader.unicodeString(cch);
}

function rkValue(rk: number): number {
  const div100 = rk & 1;
  let v: number;
  if (rk & 2) v = rk >> 2;
  else {
    const b = Buffer.alloc(8);
    b.writeUInt32LE(0, 0);
    b.writeUInt32LE((rk & 0xfffffffc) >>> 0, 4);
    v = b.readDoubleLE(0);
  }
  return div100 ? v / 100 : v;
}

interface Globals {
  date1904: boolean;
  formats: Map<number, string>;
  xfFormats: number[];
  sheets: Array<{ name: string; pos: number; kind: number }>;
  sst: string[];
}

function readGlobals(stream: Buffer): Globals {
  const g: Globals = { date1904: false, formats: new Map(), xfFormats: [], sheets: [], sst: [] };
  let first = true;
  let sstSegs: Buffer[] | null = null;
  const finishSst = () => {
    if (!sstSegs) return;
    const r = new SegmentReader(sstSegs);
    r.u32(); // total references
    const unique = r.u32();
    for (let i = 0; i < unique && !r.done(); i++) g.sst.push(r.unicodeString(r.u16()));
    sstSegs = null;
  };
  for (const rec of records(stream, 0)) {
    if (first) {
      if (rec.type !== R.BOF)
        throw new ParseError(`The ${LABEL} is damaged: the workbook does not start with a BOF record.`);
      const version = rec.data.readUInt16LE(0);
      if (version !== 0x0600) {
        throw new ParseError(
          `This XLS file uses the Excel 5.0/95 format, which is not supported; save it as .xlsx and upload it again.`,
        );
      }
      first = false;
      continue;
    }
    if (rec.type === R.CONTINUE && sstSegs) {
      sstSegs.push(rec.data);
      continue;
    }
    finishSst();
    switch (rec.type) {
      case R.FILEPASS:
        throw new ParseError(
          `The ${LABEL} is password-protected (encrypted); remove the password and upload it again.`,
        );
      case R.DATEMODE:
        g.date1904 = rec.data.readUInt16LE(0) === 1;
        break;
      case R.FORMAT:
        g.formats.set(rec.data.readUInt16LE(0), recordString(rec.data, 2));
        break;
      case R.XF:
        g.xfFormats.push(rec.data.readUInt16LE(2));
        break;
      case R.BOUNDSHEET:
        g.sheets.push({
          pos: rec.data.readUInt32LE(0),
          kind: rec.data[5],
          name: recordString(rec.data, 6, true),
        });
        break;
      case R.SST:
        sstSegs = [rec.data];
        break;
      default:
        break;
    }
    if (rec.type === R.EOF) break;
  }
  finishSst();
  return g;
}

function readSheet(
  stream: Buffer,
  g: Globals,
  name: string,
  pos: number,
  kinds: Map<number, { kind: ValueKind; code?: string }>,
): SheetData {
  const grid: Array<string[] | undefined> = [];
  const values: Array<CellValue[] | undefined> = [];
  const merges: Merge[] = [];
  const put = (row: number, col: number, cell: string | { text: string; value: CellValue }) => {
    const text = typeof cell === 'string' ? cell : cell.text;
    if (text === '' || col > 16383) return;
    const cells = grid[row] ?? (grid[row] = []);
    while (cells.length < col) cells.push('');
    cells[col] = text;
    if (typeof cell !== 'string') (values[row] ?? (values[row] = []))[col] = cell.value;
  };
  const num = (xf: number, v: number) => {
    const k = kinds.get(xf) ?? { kind: 'general' as ValueKind };
    return {
      text: formatNumberCell(v, k.kind, g.date1904, k.code),
      value: typedNumber(v, k.kind, g.date1904, k.code),
    };
  };
  let pendingString: { row: number; col: number } | null = null;
  let first = true;
  for (const rec of records(stream, pos)) {
    const d = rec.data;
    if (first) {
      if (rec.type !== R.BOF)
        throw new ParseError(
          `The ${LABEL} is damaged: the sheet "${name}" does not start where the workbook says.`,
        );
      first = false;
      continue;
    }
    if (rec.type === R.EOF) break;
    if (d.length < 4 && rec.type !== R.STRING && rec.type !== R.CONTINUE) continue;
    switch (rec.type) {
      case R.LABELSST:
        put(d.readUInt16LE(0), d.readUInt16LE(2), g.sst[d.readUInt32LE(6)] ?? '');
        break;
      case R.LABEL:
      case R.RSTRING:
        put(d.readUInt16LE(0), d.readUInt16LE(2), recordString(d, 6));
        break;
      case R.NUMBER:
        put(d.readUInt16LE(0), d.readUInt16LE(2), num(d.readUInt16LE(4), d.readDoubleLE(6)));
        break;
      case R.RK:
        put(d.readUInt16LE(0), d.readUInt16LE(2), num(d.readUInt16LE(4), rkValue(d.readUInt32LE(6))));
        break;
      case R.MULRK: {
        const row = d.readUInt16LE(0);
        const firstCol = d.readUInt16LE(2);
        const count = (d.length - 6) / 6;
        for (let i = 0; i < count; i++) {
          put(row, firstCol + i, num(d.readUInt16LE(4 + i * 6), rkValue(d.readUInt32LE(6 + i * 6))));
        }
        break;
      }
      case R.FORMULA: {
        const row = d.readUInt16LE(0);
        const col = d.readUInt16LE(2);
        if (d.readUInt16LE(12) !== 0xffff) put(row, col, num(d.readUInt16LE(4), d.readDoubleLE(6)));
        else if (d[6] === 0) pendingString = { row, col };
        else if (d[6] === 1) put(row, col, { text: d[8] ? 'TRUE' : 'FALSE', value: d[8] !== 0 });
        else if (d[6] === 2) put(row, col, ERRORS[d[8]] ?? '#ERROR');
        break;
      }
      case R.STRING:
        if (pendingString) put(pendingString.row, pendingString.col, recordString(d, 0));
        pendingString = null;
        break;
      case R.BOOLERR:
        put(
          d.readUInt16LE(0),
          d.readUInt16LE(2),
          d[7] ? (ERRORS[d[6]] ?? '#ERROR') : { text: d[6] ? 'TRUE' : 'FALSE', value: d[6] !== 0 },
        );
        break;
      case R.MERGEDCELLS: {
        const n = d.readUInt16LE(0);
        for (let i = 0; i < n && 2 + i * 8 + 8 <= d.length; i++) {
          const o = 2 + i * 8;
          merges.push({
            r1: d.readUInt16LE(o),
            r2: d.readUInt16LE(o + 2),
            c1: d.readUInt16LE(o + 4),
            c2: d.readUInt16LE(o + 6),
          });
        }
        break;
      }
      default:
        break;
    }
  }
  for (const cells of grid) if (cells) for (let i = 0; i < cells.length; i++) cells[i] ??= '';
  return { name, grid, values, merges };
}

export function readXls(buf: Buffer): { sheets: SheetData[]; notes: string[] } {
  const cfb = new CompoundFile(buf, LABEL);
  if (cfb.has('EncryptedPackage')) {
    throw new ParseError(
      `The ${LABEL} is password-protected (encrypted); remove the password and upload it again.`,
    );
  }
  const stream = cfb.read('Workbook');
  if (!stream) {
    if (cfb.has('Book')) {
      throw new ParseError(
        `This XLS file uses the Excel 5.0/95 format, which is not supported; save it as .xlsx and upload it again.`,
      );
    }
    throw new ParseError(`This is not a valid ${LABEL}: the compound file contains no Excel workbook.`);
  }
  const g = readGlobals(stream);
  const kinds = new Map<number, { kind: ValueKind; code?: string }>();
  g.xfFormats.forEach((ifmt, xf) => {
    const code = numberFormatCode(ifmt, g.formats.get(ifmt));
    kinds.set(xf, { kind: formatKind(ifmt, code), code });
  });
  const sheets: SheetData[] = [];
  let skipped = 0;
  for (const s of g.sheets) {
    if (s.kind !== 0) {
      skipped++;
      continue;
    }
    if (s.pos >= stream.length)
      throw new ParseError(`The ${LABEL} is damaged: the sheet "${s.name}" lies outside the workbook.`);
    sheets.push(readSheet(stream, g, s.name, s.pos, kinds));
  }
  return { sheets, notes: skipped ? [progressMessage('xlsSheetsSkipped', { count: skipped })] : [] };
}
