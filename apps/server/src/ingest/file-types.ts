/**
 * File types by extension (API.md §12.3), the knowledge-base upload allow-list (every type except
 * `other`), and a magic-byte check that catches files whose content contradicts their extension.
 * The image extensions of SPEC §9 (bmp, tif/tiff…) are `visual` too, although §12.3's list omits them.
 */
import { IMAGE_EXTENSIONS } from '@lectern/shared';
import { looksLikeCfb } from './parsers/cfb.js';
import { looksBinary } from './parsers/text-decode.js';
import { looksLikeZip } from './parsers/zip.js';

export type DocumentType = 'pdf' | 'doc' | 'visual' | 'aural' | 'virtual' | 'other';

export const PDF_EXTENSIONS: readonly string[] = ['pdf'];

export const DOC_EXTENSIONS: readonly string[] = [
  'msg', 'eml', 'doc', 'docx', 'ppt', 'pptx', 'yml', 'xml', 'htm', 'html', 'json', 'jsonl', 'ldjson', 'csv', 'txt',
  'ini', 'xls', 'xlsx', 'wps', 'rtf', 'hlp', 'pages', 'numbers', 'key', 'md', 'mdx', 'py', 'js', 'java', 'c', 'cpp',
  'h', 'php', 'go', 'ts', 'sh', 'cs', 'kt', 'sql',
]; // prettier-ignore

export const AURAL_EXTENSIONS: readonly string[] = [
  'wav', 'flac', 'ape', 'alac', 'wavpack', 'wv', 'mp3', 'aac', 'ogg', 'vorbis', 'opus',
]; // prettier-ignore

export const VISUAL_EXTENSIONS: readonly string[] = [
  'jpg', 'jpeg', 'png', 'tif', 'gif', 'pcx', 'tga', 'exif', 'fpx', 'svg', 'psd', 'cdr', 'pcd', 'dxf', 'ufo', 'eps',
  'ai', 'raw', 'wmf', 'webp', 'avif', 'apng', 'icon', 'ico', 'mpg', 'mpeg', 'avi', 'rm', 'rmvb', 'mov', 'wmv', 'asf',
  'dat', 'asx', 'wvx', 'mpe', 'mpa', 'mp4', 'mkv',
  ...IMAGE_EXTENSIONS.filter((e) => !['jpg', 'jpeg', 'png', 'tif', 'gif', 'webp', 'ico'].includes(e)),
]; // prettier-ignore

const TYPE_OF = new Map<string, DocumentType>();
for (const e of PDF_EXTENSIONS) TYPE_OF.set(e, 'pdf');
for (const e of DOC_EXTENSIONS) TYPE_OF.set(e, 'doc');
for (const e of AURAL_EXTENSIONS) TYPE_OF.set(e, 'aural');
for (const e of VISUAL_EXTENSIONS) TYPE_OF.set(e, 'visual');

/** Every extension a knowledge base accepts on upload (type other than `other`). */
export const UPLOAD_EXTENSIONS: ReadonlySet<string> = new Set(TYPE_OF.keys());

/** Lower-case extension without the dot ('' when the name has none). */
export function extensionOf(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot > 0 || (dot === 0 && base.length > 1) ? base.slice(dot + 1).toLowerCase() : '';
}

/** Document type of an extension (with or without the dot, any case). */
export function documentTypeOfExt(ext: string): DocumentType {
  return TYPE_OF.get(ext.replace(/^\./, '').toLowerCase()) ?? 'other';
}

/** A bare extension ("pdf", ".PDF") or a file name ("a.pdf") → the lower-case extension. */
function extOfNameOrExt(nameOrExt: string): string {
  return nameOrExt.includes('.') || nameOrExt.includes('/')
    ? extensionOf(nameOrExt)
    : nameOrExt.toLowerCase();
}

/** Document type of a file name or extension (API.md §12.3); never `virtual` (for documents created empty). */
export function documentTypeOf(nameOrExt: string): DocumentType {
  return documentTypeOfExt(extOfNameOrExt(nameOrExt));
}

/** Alias of documentTypeOf. */
export const docTypeOf = documentTypeOf;

/** True when a knowledge base accepts this file name or extension (its type is not `other`). */
export function isAllowedUpload(nameOrExt: string): boolean {
  return documentTypeOf(nameOrExt) !== 'other';
}

// ---- content sniffing -----------------------------------------------------------------------------------

const startsWith = (b: Buffer, bytes: number[], at = 0) =>
  b.length >= at + bytes.length && bytes.every((x, i) => b[at + i] === x);

const SIGNATURES: Array<[string, (b: Buffer) => boolean]> = [
  ['a PDF document', (b) => b.subarray(0, 1024).includes('%PDF')],
  ['a ZIP archive (e.g. DOCX/XLSX/PPTX)', looksLikeZip],
  ['an OLE2 compound file (e.g. DOC/XLS/PPT/MSG)', looksLikeCfb],
  ['a PNG image', (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])],
  ['a JPEG image', (b) => startsWith(b, [0xff, 0xd8, 0xff])],
  ['a GIF image', (b) => b.subarray(0, 4).toString('latin1') === 'GIF8'],
  [
    'a WebP image',
    (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
  ],
  ['a TIFF image', (b) => startsWith(b, [0x49, 0x49, 0x2a, 0x00]) || startsWith(b, [0x4d, 0x4d, 0x00, 0x2a])],
  [
    'a BMP image',
    (b) =>
      b.length > 26 &&
      startsWith(b, [0x42, 0x4d]) &&
      b.readUInt32LE(2) <= b.length + 16 &&
      b.readUInt32LE(2) >= 26,
  ],
  ['an ICO image', (b) => startsWith(b, [0x00, 0x00, 0x01, 0x00]) && b.length > 22],
  [
    'an executable',
    (b) =>
      startsWith(b, [0x7f, 0x45, 0x4c, 0x46]) ||
      (startsWith(b, [0x4d, 0x5a]) &&
        b.length > 0x40 &&
        b.readUInt32LE(0x3c) + 4 <= b.length &&
        startsWith(b, [0x50, 0x45, 0, 0], b.readUInt32LE(0x3c))),
  ],
  ['a GZIP archive', (b) => startsWith(b, [0x1f, 0x8b])],
  ['a 7-Zip archive', (b) => startsWith(b, [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c])],
  ['a RAR archive', (b) => startsWith(b, [0x52, 0x61, 0x72, 0x21, 0x1a, 0x07])],
];

function whatItLooksLike(buf: Buffer): string | null {
  for (const [name, test] of SIGNATURES) if (test(buf)) return name;
  return null;
}

const TEXT_EXTENSIONS = new Set([
  'txt', 'md', 'mdx', 'markdown', 'csv', 'json', 'jsonl', 'ldjson', 'htm', 'html', 'xml', 'yml', 'yaml', 'ini', 'eml',
  'py', 'js', 'java', 'c', 'cpp', 'h', 'php', 'go', 'ts', 'sh', 'cs', 'kt', 'sql', 'svg', 'rtf',
]); // prettier-ignore

const IMAGE_SIGNATURE: Record<string, string> = {
  png: 'a PNG image',
  jpg: 'a JPEG image',
  jpeg: 'a JPEG image',
  gif: 'a GIF image',
  webp: 'a WebP image',
  tif: 'a TIFF image',
  tiff: 'a TIFF image',
  bmp: 'a BMP image',
  ico: 'an ICO image',
};

/**
 * Null when the content is plausible for the extension; otherwise a sentence saying why not
 * ("The content of this .docx file is not a zip archive; it looks like a PDF document.").
 * Empty files and extensions without a known signature pass (the parser reports those).
 */
export function sniffMismatch(buffer: Buffer, ext: string): string | null {
  const e = ext.replace(/^\./, '').toLowerCase();
  if (buffer.length === 0) return null;
  const seen = whatItLooksLike(buffer);
  const tail = seen ? `; it looks like ${seen}` : '';
  const say = (expected: string) => `The content of this .${e} file is not ${expected}${tail}.`;
  switch (e) {
    case 'pdf':
      return seen === 'a PDF document' ? null : say('a PDF document');
    case 'docx':
    case 'xlsx':
    case 'pptx':
      // OLE2 is allowed: password-protected OOXML files are OLE2 containers (the parser explains them).
      return looksLikeZip(buffer) || looksLikeCfb(buffer) ? null : say('a zip archive');
    case 'doc':
    case 'ppt':
    case 'msg':
    case 'wps':
      if (looksLikeCfb(buffer)) return null;
      if (e !== 'msg' && looksLikeZip(buffer)) return null; // a DOCX/PPTX saved with the old extension
      if (e === 'doc' && buffer.subarray(0, 5).toString('latin1') === '{\\rtf') return null;
      return say('an OLE2 compound file');
    case 'xls':
      if (looksLikeCfb(buffer) || looksLikeZip(buffer)) return null;
      return looksBinary(buffer) ? say('an Excel workbook or a text export') : null;
    default:
      break;
  }
  if (IMAGE_SIGNATURE[e]) return seen === IMAGE_SIGNATURE[e] ? null : say(IMAGE_SIGNATURE[e]);
  if (TEXT_EXTENSIONS.has(e)) {
    if (seen && seen !== 'a PDF document') return say('text');
    if (looksBinary(buffer)) return say('text');
  }
  return null;
}

/** True when the bytes are plausible for the extension (see sniffMismatch). */
export function contentMatches(buffer: Buffer, ext: string): boolean {
  return sniffMismatch(buffer, ext) === null;
}
