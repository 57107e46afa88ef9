/**
 * Shared plumbing for Office Open XML packages (DOCX, XLSX, PPTX): opening the zip safely, explaining
 * non-zip inputs (password-protected files are OLE2 containers), relationships and part paths.
 */
import path from 'node:path/posix';
import { ParseError } from '../errors.js';
import { CompoundFile, looksLikeCfb } from './cfb.js';
import { attr, childrenNamed, parseXmlBuffer, textContent, path as xpath, type XmlElement } from './xml.js';
import { ZipArchive, type ZipLimits } from './zip.js';

export interface Relationship {
  id: string;
  /** Type URI, e.g. ".../relationships/image". */
  type: string;
  /** Absolute part path inside the package (no leading slash), or the URL for external targets. */
  target: string;
  external: boolean;
}

/** Opens an OOXML package; `label` like "DOCX file". Throws ParseError with the reason otherwise. */
export function openPackage(buf: Buffer, label: string, limits?: ZipLimits): ZipArchive {
  if (buf.length === 0) throw new ParseError('The file is empty.');
  if (looksLikeCfb(buf)) {
    let cfb: CompoundFile | null = null;
    try {
      cfb = new CompoundFile(buf, label);
    } catch {
      cfb = null;
    }
    if (cfb?.has('EncryptedPackage')) {
      throw new ParseError(
        `The ${label} is password-protected (encrypted); remove the password and upload it again.`,
      );
    }
    throw new ParseError(
      `This is not a valid ${label} (it is not a zip archive): it is a legacy binary Office file; save it in the current format and upload it again.`,
    );
  }
  return ZipArchive.open(buf, label, limits);
}

export function resolvePart(basePart: string, target: string): string {
  if (target.startsWith('/')) return path.normalize(target.slice(1));
  return path.normalize(path.join(path.dirname(basePart), target));
}

export function relsPathOf(part: string): string {
  return path.join(path.dirname(part), '_rels', path.basename(part) + '.rels');
}

/** Relationships of a part (empty map when the part has none). */
export function readRels(zip: ZipArchive, part: string): Map<string, Relationship> {
  const out = new Map<string, Relationship>();
  const relsPath = part === '' ? '_rels/.rels' : relsPathOf(part);
  const buf = zip.read(relsPath);
  if (!buf) return out;
  const root = parseXmlBuffer(buf, relsPath);
  for (const rel of childrenNamed(root, 'Relationship')) {
    const id = rel.attrs.Id ?? '';
    const target = rel.attrs.Target ?? '';
    const external = rel.attrs.TargetMode === 'External';
    out.set(id, {
      id,
      type: rel.attrs.Type ?? '',
      target: external ? target : resolvePart(part === '' ? '' : part, target),
      external,
    });
  }
  return out;
}

export function relOfType(rels: Map<string, Relationship>, typeSuffix: string): Relationship | undefined {
  for (const r of rels.values()) if (r.type.endsWith('/' + typeSuffix)) return r;
  return undefined;
}

/** The main part of the package (from _rels/.rels), or the conventional path. */
export function mainPart(zip: ZipArchive, fallback: string, label: string): string {
  const rels = readRels(zip, '');
  const main = relOfType(rels, 'officeDocument');
  const part = main && zip.has(main.target) ? main.target : fallback;
  if (!zip.has(part)) {
    throw new ParseError(`This is not a valid ${label}: the zip archive does not contain "${fallback}".`);
  }
  return part;
}

export function readXmlPart(zip: ZipArchive, part: string): XmlElement | null {
  const buf = zip.read(part);
  return buf ? parseXmlBuffer(buf, part) : null;
}

/** dc:title from docProps/core.xml, if any. */
export function coreTitle(zip: ZipArchive): string | undefined {
  try {
    const core = readXmlPart(zip, 'docProps/core.xml');
    const title = textContent(xpath(core ?? undefined, 'title')).trim();
    return title || undefined;
  } catch {
    return undefined; // metadata is optional; a broken core.xml must not fail the document
  }
}

export const IMAGE_MIME: Array<[string, (b: Buffer) => boolean]> = [
  ['image/png', (b) => b.length > 8 && b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47],
  ['image/jpeg', (b) => b.length > 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff],
  ['image/gif', (b) => b.length > 6 && b.subarray(0, 4).toString('latin1') === 'GIF8'],
  ['image/bmp', (b) => b.length > 14 && b[0] === 0x42 && b[1] === 0x4d],
  [
    'image/tiff',
    (b) =>
      b.length > 4 &&
      ((b[0] === 0x49 && b[1] === 0x49 && b[2] === 42) || (b[0] === 0x4d && b[1] === 0x4d && b[3] === 42)),
  ],
  [
    'image/webp',
    (b) =>
      b.length > 12 &&
      b.subarray(0, 4).toString('latin1') === 'RIFF' &&
      b.subarray(8, 12).toString('latin1') === 'WEBP',
  ],
];

/** MIME type of a raster picture we can keep (PNG, JPEG, GIF, BMP, TIFF, WebP); null for EMF/WMF/SVG/unknown. */
export function rasterMime(buf: Buffer): string | null {
  for (const [mime, test] of IMAGE_MIME) if (test(buf)) return mime;
  return null;
}

/** Numeric attribute helper (e.g. `w:val`), undefined when absent or not a number. */
export function numAttr(el: XmlElement | undefined, local: string): number | undefined {
  const v = attr(el, local);
  if (v === undefined) return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : undefined;
}
