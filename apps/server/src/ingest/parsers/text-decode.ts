/**
 * Bytes → text for the plain-text formats: a BOM wins (UTF-8, UTF-16 LE/BE); otherwise UTF-16 without a BOM
 * is recognised by its zero bytes, then strict UTF-8, then GB18030 when the result reads as Chinese, and
 * finally Windows-1252 (Latin-1), which never fails.
 */
import { ParseError } from '../errors.js';

export interface DecodedText {
  text: string;
  encoding: 'utf-8' | 'utf-16le' | 'utf-16be' | 'gb18030' | 'windows-1252';
}

function utf16WithoutBom(buf: Buffer): 'utf-16le' | 'utf-16be' | null {
  const n = Math.min(buf.length, 4096) & ~1;
  if (n < 8) return null;
  let evenZeros = 0;
  let oddZeros = 0;
  for (let i = 0; i < n; i += 2) {
    if (buf[i] === 0) evenZeros++;
    if (buf[i + 1] === 0) oddZeros++;
  }
  const pairs = n / 2;
  if (oddZeros > pairs * 0.4 && evenZeros < pairs * 0.05) return 'utf-16le';
  if (evenZeros > pairs * 0.4 && oddZeros < pairs * 0.05) return 'utf-16be';
  return null;
}

function tryDecode(encoding: string, buf: Buffer): string | null {
  try {
    return new TextDecoder(encoding, { fatal: true }).decode(buf);
  } catch {
    return null;
  }
}

/** Share of non-ASCII characters that are CJK ideographs or CJK punctuation. */
function cjkShare(text: string): number {
  let nonAscii = 0;
  let cjk = 0;
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    if (c < 0x80) continue;
    nonAscii++;
    if (
      (c >= 0x4e00 && c <= 0x9fff) ||
      (c >= 0x3000 && c <= 0x303f) ||
      (c >= 0xff00 && c <= 0xffef) ||
      (c >= 0x3400 && c <= 0x4dbf)
    )
      cjk++;
  }
  return nonAscii === 0 ? 1 : cjk / nonAscii;
}

export function decodeText(buf: Buffer): DecodedText {
  if (buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) {
    return { text: buf.subarray(3).toString('utf8'), encoding: 'utf-8' };
  }
  if (buf.length >= 2 && buf[0] === 0xff && buf[1] === 0xfe) {
    return { text: new TextDecoder('utf-16le').decode(buf.subarray(2)), encoding: 'utf-16le' };
  }
  if (buf.length >= 2 && buf[0] === 0xfe && buf[1] === 0xff) {
    return { text: new TextDecoder('utf-16be').decode(buf.subarray(2)), encoding: 'utf-16be' };
  }
  const utf16 = utf16WithoutBom(buf);
  if (utf16) return { text: new TextDecoder(utf16).decode(buf), encoding: utf16 };
  const utf8 = tryDecode('utf-8', buf);
  if (utf8 !== null) return { text: utf8, encoding: 'utf-8' };
  const gb = tryDecode('gb18030', buf);
  if (gb !== null && cjkShare(gb) >= 0.9) return { text: gb, encoding: 'gb18030' };
  return { text: new TextDecoder('windows-1252').decode(buf), encoding: 'windows-1252' };
}

/** True when the bytes look like a binary file rather than text (NUL bytes outside UTF-16). */
export function looksBinary(buf: Buffer): boolean {
  if (buf.length >= 2 && ((buf[0] === 0xff && buf[1] === 0xfe) || (buf[0] === 0xfe && buf[1] === 0xff)))
    return false;
  if (utf16WithoutBom(buf)) return false;
  const n = Math.min(buf.length, 8192);
  let controls = 0;
  for (let i = 0; i < n; i++) {
    const b = buf[i];
    if (b === 0) return true;
    if (b < 0x09 || (b > 0x0d && b < 0x20 && b !== 0x1b)) controls++;
  }
  return n > 0 && controls / n > 0.1;
}

/** Decodes a text file for a parser: rejects binary content, strips a BOM, normalises line ends to \n. */
export function readTextFile(buf: Buffer, what: string): DecodedText {
  if (looksBinary(buf)) {
    throw new ParseError(
      `The ${what} does not contain text (it looks like binary data); check the file and its extension.`,
    );
  }
  const decoded = decodeText(buf);
  return { text: decoded.text.replace(/\r\n?/g, '\n'), encoding: decoded.encoding };
}
