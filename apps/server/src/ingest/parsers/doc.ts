/**
 * Legacy Word 97–2003 documents (.doc, also .wps saved in the Word format) → text sections. The text is
 * rebuilt from the piece table (MS-DOC: FIB → Clx → PlcPcd; 8-bit "compressed" pieces in Windows-1252,
 * others UTF-16), limited to the main document; field instructions are dropped (their results kept),
 * special characters mapped. Paragraph structure is kept; table rows (cell marks) become `text` lines
 * with cells joined by " | " — heading styles and exact table geometry are not read from the binary
 * formatting tables, so .doc tables are not emitted as HTML tables. A .doc that is really RTF or DOCX is
 * read as what it is; Word 6/95 and encrypted files are refused with a readable message.
 */
import { ParseError } from '../errors.js';
import type { ParsedDocument, ParseOptions, Section } from '../types.js';
import { CompoundFile, looksLikeCfb } from './cfb.js';
import { parseDocx } from './docx.js';
import { parseRtf } from './rtf.js';
import { looksLikeZip } from './zip.js';

const LABEL = 'DOC file';

/** Windows-1252 bytes 0x80–0x9F as Word maps them in compressed pieces. */
const cp1252 = new TextDecoder('windows-1252');

interface Fib {
  ccpText: number;
  fcClx: number;
  lcbClx: number;
  table: '0Table' | '1Table';
}

function readFib(wd: Buffer): Fib {
  if (wd.length < 0x200)
    throw new ParseError(`The ${LABEL} is damaged: the Word document stream is too short.`);
  const ident = wd.readUInt16LE(0);
  if (ident === 0xa5dc) {
    throw new ParseError(
      'This DOC file uses the Word 6.0/95 format, which is not supported; save it as .docx and upload it again.',
    );
  }
  if (ident !== 0xa5ec)
    throw new ParseError(`This is not a valid ${LABEL}: the Word document stream has no valid header.`);
  const flags = wd.readUInt16LE(0x0a);
  if (flags & 0x0100)
    throw new ParseError(
      `The ${LABEL} is password-protected (encrypted); remove the password and upload it again.`,
    );
  const csw = wd.readUInt16LE(32);
  const lw = 34 + csw * 2;
  const cslw = wd.readUInt16LE(lw);
  const rgLw = lw + 2;
  const fcLcb = rgLw + cslw * 4;
  const cbRgFcLcb = wd.readUInt16LE(fcLcb);
  if (cbRgFcLcb < 34 || fcLcb + 2 + 34 * 8 > wd.length)
    throw new ParseError(`The ${LABEL} is damaged: its header is truncated.`);
  const rg = fcLcb + 2;
  return {
    ccpText: wd.readInt32LE(rgLw + 3 * 4),
    fcClx: wd.readUInt32LE(rg + 33 * 8),
    lcbClx: wd.readUInt32LE(rg + 33 * 8 + 4),
    table: flags & 0x0200 ? '1Table' : '0Table',
  };
}

/** The document text (all sub-documents) from the piece table. */
function pieceText(wd: Buffer, table: Buffer, fib: Fib): string {
  let pos = fib.fcClx;
  const end = fib.fcClx + fib.lcbClx;
  if (end > table.length || fib.lcbClx === 0)
    throw new ParseError(`The ${LABEL} is damaged: the piece table is missing.`);
  while (pos < end && table[pos] === 0x01) pos += 3 + table.readInt16LE(pos + 1); // Prc: formatting, skipped
  if (table[pos] !== 0x02) throw new ParseError(`The ${LABEL} is damaged: the piece table is invalid.`);
  const lcb = table.readUInt32LE(pos + 1);
  const plc = pos + 5;
  const n = (lcb - 4) / 12;
  if (!Number.isInteger(n) || n < 1 || plc + lcb > table.length)
    throw new ParseError(`The ${LABEL} is damaged: the piece table is invalid.`);
  let out = '';
  for (let i = 0; i < n; i++) {
    const cpStart = table.readUInt32LE(plc + i * 4);
    const cpEnd = table.readUInt32LE(plc + (i + 1) * 4);
    const pcd = plc + (n + 1) * 4 + i * 8;
    const fcRaw = table.readUInt32LE(pcd + 2);
    const count = cpEnd - cpStart;
    if (count <= 0) continue;
    if (fcRaw & 0x40000000) {
      const off = (fcRaw & 0x3fffffff) / 2;
      if (off + count > wd.length)
        throw new ParseError(`The ${LABEL} is damaged: a text piece lies outside the file.`);
      out += cp1252.decode(wd.subarray(off, off + count));
    } else {
      const off = fcRaw & 0x3fffffff;
      if (off + count * 2 > wd.length)
        throw new ParseError(`The ${LABEL} is damaged: a text piece lies outside the file.`);
      out += wd.toString('utf16le', off, off + count * 2);
    }
  }
  return out;
}

/** Drops field instructions (0x13 … 0x14) and markers, keeping field results; maps Word's special characters. */
export function cleanWordText(text: string): string {
  let out = '';
  const stack: boolean[] = []; // per open field: still in its instruction part?
  for (const ch of text) {
    if (ch === '\x13') stack.push(true);
    else if (ch === '\x14') {
      if (stack.length) stack[stack.length - 1] = false;
    } else if (ch === '\x15') stack.pop();
    else if (stack.some((inInstr) => inInstr)) continue;
    else if (ch === '\x0b') out += '\n';
    else if (ch === '\x0c') out += '\r';
    else if (ch === '\x1e') out += '-';
    else if (ch === '\x01' || ch === '\x02' || ch === '\x05' || ch === '\x08' || ch === '\x1f') continue;
    else out += ch;
  }
  return out;
}

/** Paragraphs → sections; runs of table paragraphs (cell marks) → one text section of " | " rows. */
export function wordTextSections(text: string): Section[] {
  const sections: Section[] = [];
  let rows: string[] = [];
  let cells: string[] = [];
  let cur = '';
  const flushRows = () => {
    if (rows.length) sections.push({ kind: 'text', text: rows.join('\n'), fields: { table: true } });
    rows = [];
  };
  for (const ch of text) {
    if (ch === '\x07') {
      // A cell mark; an empty item right after a cell mark ends the row.
      if (cur.trim() === '' && cells.length > 0) {
        rows.push(cells.join(' | '));
        cells = [];
      } else cells.push(cur.trim().replace(/\s*\r\s*/g, ' '));
      cur = '';
    } else if (ch === '\r') {
      if (cells.length > 0) {
        cur += '\r'; // a paragraph inside a cell
        continue;
      }
      flushRows();
      const t = cur.replace(/[ \t]+$/gm, '').trim();
      if (t) sections.push({ kind: 'text', text: t });
      cur = '';
    } else cur += ch;
  }
  if (cells.length) rows.push(cells.join(' | '));
  flushRows();
  const t = cur.trim();
  if (t) sections.push({ kind: 'text', text: t });
  return sections;
}

export async function parseDoc(buffer: Buffer, opts: ParseOptions): Promise<ParsedDocument> {
  if (buffer.length === 0) throw new ParseError('The file is empty.');
  if (buffer.subarray(0, 5).toString('latin1') === '{\\rtf') return parseRtf(buffer, opts);
  if (looksLikeZip(buffer)) return parseDocx(buffer, opts);
  if (!looksLikeCfb(buffer))
    throw new ParseError(`This is not a valid ${LABEL} (it is not a Word document).`);
  const cfb = new CompoundFile(buffer, LABEL);
  if (cfb.has('EncryptedPackage')) {
    throw new ParseError(
      `The ${LABEL} is password-protected (encrypted); remove the password and upload it again.`,
    );
  }
  const wd = cfb.read('WordDocument');
  if (!wd) throw new ParseError(`This is not a valid ${LABEL}: the compound file contains no Word document.`);
  const fib = readFib(wd);
  const table = cfb.read(fib.table);
  if (!table) throw new ParseError(`The ${LABEL} is damaged: the "${fib.table}" stream is missing.`);
  const all = pieceText(wd, table, fib);
  const main = all.slice(0, Math.max(0, Math.min(fib.ccpText, all.length)));
  return { sections: wordTextSections(cleanWordText(main)) };
}
