/**
 * Outlook messages (.msg, MS-OXMSG: MAPI properties in an OLE2 compound file) → the same sections as an
 * .eml: a `header` section (From, To, Cc, Subject, Date) and the body — HTML (PidTagHtml) through the HTML
 * parser, else plain text (PidTagBody), else the compressed RTF body (PidTagRtfCompressed, MS-OXRTFCP)
 * through the RTF parser. Attachments (by-value files) go to `fields.attachments` for the pipeline.
 */
import { ParseError } from '../errors.js';
import type { ParsedDocument, ParseOptions } from '../types.js';
import { CompoundFile, looksLikeCfb } from './cfb.js';
import { emailSections, extensionOf, type EmailAttachment } from './eml.js';
import { decodeHtml } from './html.js';
import { rtfToSections } from './rtf.js';

const LABEL = 'MSG file';

const PROP = {
  subject: 0x0037,
  submitTime: 0x0039,
  senderName: 0x0c1a,
  senderEmail: 0x0c1f,
  senderSmtp: 0x5d01,
  displayTo: 0x0e04,
  displayCc: 0x0e03,
  deliveryTime: 0x0e06,
  body: 0x1000,
  rtf: 0x1009,
  html: 0x1013,
  attachData: 0x3701,
  attachFilename: 0x3704,
  attachLongFilename: 0x3707,
  attachMime: 0x370e,
  recipType: 0x0c15,
  displayName: 0x3001,
  emailAddress: 0x3003,
  smtpAddress: 0x39fe,
} as const;

const hex4 = (n: number) => n.toString(16).toUpperCase().padStart(4, '0');

class MsgReader {
  constructor(
    private readonly cfb: CompoundFile,
    private readonly ansi: InstanceType<typeof TextDecoder>,
  ) {}

  private stream(storage: string, id: number, type: number): Buffer | null {
    const name = `__substg1.0_${hex4(id)}${hex4(type)}`;
    return this.cfb.read(storage ? `${storage}/${name}` : name);
  }

  string(storage: string, id: number): string | undefined {
    const w = this.stream(storage, id, 0x001f);
    if (w) return w.toString('utf16le').replace(/\0+$/, '');
    const a = this.stream(storage, id, 0x001e);
    if (a) return this.ansi.decode(a).replace(/\0+$/, '');
    return undefined;
  }

  binary(storage: string, id: number): Buffer | null {
    return this.stream(storage, id, 0x0102);
  }

  /** Fixed-size properties of a storage (`__properties_version1.0`): id → 8-byte value. */
  fixed(storage: string, headerSize: number): Map<number, Buffer> {
    const out = new Map<number, Buffer>();
    const buf = this.cfb.read(storage ? `${storage}/__properties_version1.0` : '__properties_version1.0');
    if (!buf) return out;
    for (let p = headerSize; p + 16 <= buf.length; p += 16)
      out.set(buf.readUInt16LE(p + 2), buf.subarray(p + 8, p + 16));
    return out;
  }
}

function filetimeToIso(v: Buffer | undefined): string | undefined {
  if (!v) return undefined;
  const ticks = v.readBigUInt64LE(0);
  if (ticks === 0n) return undefined;
  const ms = Number(ticks / 10000n) - 11644473600000;
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

/** MS-OXRTFCP decompression (LZFu; "MELA" = stored uncompressed). */
export function decompressRtf(buf: Buffer): Buffer {
  if (buf.length < 16) throw new ParseError(`The ${LABEL} is damaged: its RTF body is truncated.`);
  const rawSize = buf.readUInt32LE(4);
  const type = buf.readUInt32LE(8);
  if (type === 0x414c454d) return buf.subarray(16, 16 + rawSize);
  if (type !== 0x75465a4c)
    throw new ParseError(`The ${LABEL} is damaged: its RTF body has an unknown compression.`);
  const preset =
    '{\\rtf1\\ansi\\mac\\deff0\\deftab720{\\fonttbl;}{\\f0\\fnil \\froman \\fswiss \\fmodern \\fscript \\fdecor MS Sans SerifSymbolArialTimes New RomanCourier{\\colortbl\\red0\\green0\\blue0\r\n\\par \\pard\\plain\\f0\\fs20\\b\\i\\u\\tab\\tx';
  const dict = Buffer.alloc(4096);
  dict.write(preset, 'latin1');
  let w = preset.length;
  const out: number[] = [];
  let p = 16;
  const limit = Math.min(buf.length, 4 + buf.readUInt32LE(0));
  while (p < limit && out.length <= rawSize) {
    const control = buf[p++];
    for (let bit = 0; bit < 8 && p < limit; bit++) {
      if (control & (1 << bit)) {
        const ref = buf.readUInt16BE(p);
        p += 2;
        const offset = ref >> 4;
        const len = (ref & 0xf) + 2;
        if (offset === w) return Buffer.from(out); // end marker
        for (let k = 0; k < len; k++) {
          const b = dict[(offset + k) % 4096];
          out.push(b);
          dict[w] = b;
          w = (w + 1) % 4096;
        }
      } else {
        const b = buf[p++];
        out.push(b);
        dict[w] = b;
        w = (w + 1) % 4096;
      }
    }
  }
  return Buffer.from(out.slice(0, rawSize));
}

function recipients(reader: MsgReader, cfb: CompoundFile): { to: string[]; cc: string[] } {
  const to: string[] = [];
  const cc: string[] = [];
  for (const name of cfb
    .childrenOf('')
    .filter((n) => n.startsWith('__recip_version1.0_'))
    .sort()) {
    const display = reader.string(name, PROP.displayName);
    const address = reader.string(name, PROP.smtpAddress) ?? reader.string(name, PROP.emailAddress);
    const text = display && address && display !== address ? `${display} <${address}>` : (address ?? display);
    if (!text) continue;
    const kind = reader.fixed(name, 8).get(PROP.recipType)?.readUInt32LE(0);
    (kind === 2 ? cc : kind === 3 ? [] : to).push(text);
  }
  return { to, cc };
}

export async function parseMsg(buffer: Buffer, _opts: ParseOptions): Promise<ParsedDocument> {
  if (buffer.length === 0) throw new ParseError('The file is empty.');
  if (!looksLikeCfb(buffer))
    throw new ParseError(`This is not a valid ${LABEL} (it is not an Outlook message).`);
  const cfb = new CompoundFile(buffer, LABEL);
  const names = cfb.childrenOf('');
  if (!names.some((n) => n.startsWith('__substg1.0_')) || !names.includes('__properties_version1.0')) {
    throw new ParseError(`This is not a valid ${LABEL}: the compound file contains no Outlook message.`);
  }
  const reader = new MsgReader(cfb, new TextDecoder('windows-1252'));
  const fixed = reader.fixed('', 32);
  const senderName = reader.string('', PROP.senderName);
  const senderAddr = reader.string('', PROP.senderSmtp) ?? reader.string('', PROP.senderEmail);
  const from =
    senderName && senderAddr && senderName !== senderAddr
      ? `${senderName} <${senderAddr}>`
      : (senderAddr ?? senderName);
  const recips = recipients(reader, cfb);
  const htmlBin = reader.binary('', PROP.html);
  const html = htmlBin ? decodeHtml(htmlBin) : reader.string('', PROP.html);
  const text = reader.string('', PROP.body);
  const attachments: EmailAttachment[] = [];
  let embedded = 0;
  for (const name of names.filter((n) => n.startsWith('__attach_version1.0_')).sort()) {
    const data = reader.binary(name, PROP.attachData);
    if (!data) {
      embedded++;
      continue;
    }
    const filename =
      reader.string(name, PROP.attachLongFilename) ??
      reader.string(name, PROP.attachFilename) ??
      `attachment-${attachments.length + 1}`;
    attachments.push({ filename, ext: extensionOf(filename), content: data });
  }
  const doc = emailSections({
    from,
    to: recips.to.length ? recips.to.join(', ') : reader.string('', PROP.displayTo),
    cc: recips.cc.length ? recips.cc.join(', ') : reader.string('', PROP.displayCc) || undefined,
    subject: reader.string('', PROP.subject),
    date: filetimeToIso(fixed.get(PROP.submitTime) ?? fixed.get(PROP.deliveryTime)),
    text,
    html,
    attachments,
  });
  if (!html?.trim() && !text?.trim()) {
    const rtf = reader.binary('', PROP.rtf);
    if (rtf) doc.sections.push(...rtfToSections(decompressRtf(rtf).toString('latin1')));
  }
  if (embedded) (doc.notes ??= []).push(`${embedded} embedded message(s) or object(s) were not extracted.`);
  return doc;
}
