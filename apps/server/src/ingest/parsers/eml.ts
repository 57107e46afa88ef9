/**
 * E-mail (.eml, RFC 5322/MIME via postal-mime) → a `header` section (From, To, Cc, Subject, Date; the email
 * method keeps `header` sections) followed by the body: the HTML part through the HTML parser (it keeps
 * tables and lists), or — when there is none — the text/plain part as paragraphs. Attachments (not inline pictures of the HTML body)
 * are returned in `ParsedDocument.fields.attachments` as [{filename, ext, content: Buffer}] for the
 * pipeline to parse with `naive`.
 */
import PostalMime, { type Address } from 'postal-mime';
import { ParseError } from '../errors.js';
import type { ParsedDocument, ParseOptions, Section } from '../types.js';
import { htmlToSections } from './html.js';
import { textSections } from './text.js';

export interface EmailAttachment {
  filename: string;
  /** Lower-case extension without the dot ('' when unknown). */
  ext: string;
  content: Buffer;
}

export interface EmailParts {
  from?: string;
  to?: string;
  cc?: string;
  subject?: string;
  date?: string;
  text?: string;
  html?: string;
  attachments: EmailAttachment[];
}

const MIME_EXT: Record<string, string> = {
  'application/pdf': 'pdf',
  'text/plain': 'txt',
  'text/html': 'html',
  'text/csv': 'csv',
  'text/markdown': 'md',
  'application/json': 'json',
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'message/rfc822': 'eml',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'pptx',
  'application/msword': 'doc',
  'application/vnd.ms-excel': 'xls',
};

export function extensionOf(filename: string): string {
  const m = /\.([A-Za-z0-9]+)$/.exec(filename);
  return m ? m[1].toLowerCase() : '';
}

function addresses(list: Address[] | Address | undefined): string | undefined {
  if (!list) return undefined;
  const arr = Array.isArray(list) ? list : [list];
  const one = (a: { name: string; address?: string }) =>
    a.name && a.address ? `${a.name} <${a.address}>` : a.address || a.name;
  const out = arr.flatMap((a) => ('group' in a && a.group ? a.group.map(one) : [one(a)])).filter(Boolean);
  return out.length ? out.join(', ') : undefined;
}

/** Header + body sections shared by the .eml and .msg parsers. */
export function emailSections(mail: EmailParts): ParsedDocument {
  const header: string[] = [];
  if (mail.from) header.push(`From: ${mail.from}`);
  if (mail.to) header.push(`To: ${mail.to}`);
  if (mail.cc) header.push(`Cc: ${mail.cc}`);
  if (mail.subject) header.push(`Subject: ${mail.subject}`);
  if (mail.date) header.push(`Date: ${mail.date}`);
  const sections: Section[] = [];
  if (header.length) {
    const fields: Record<string, unknown> = {};
    for (const k of ['from', 'to', 'cc', 'subject', 'date'] as const) if (mail[k]) fields[k] = mail[k];
    sections.push({ kind: 'header', text: header.join('\n'), fields });
  }
  if (mail.html?.trim()) sections.push(...htmlToSections(mail.html).sections);
  else if (mail.text?.trim()) sections.push(...textSections(mail.text.replace(/\r\n?/g, '\n')));
  const notes = mail.attachments.length ? [`${mail.attachments.length} attachment(s) found.`] : undefined;
  return { sections, title: mail.subject || undefined, notes, fields: { attachments: mail.attachments } };
}

export async function parseEml(buffer: Buffer, _opts: ParseOptions): Promise<ParsedDocument> {
  if (buffer.length === 0) throw new ParseError('The file is empty.');
  let email;
  try {
    email = await PostalMime.parse(buffer, { attachmentEncoding: 'arraybuffer' });
  } catch (err) {
    throw new ParseError(
      `The e-mail could not be read: ${err instanceof Error ? err.message : String(err)}.`,
    );
  }
  if (email.headers.length === 0 && !email.text?.trim() && !email.html?.trim()) {
    throw new ParseError('This is not a valid e-mail file: it has neither headers nor a body.');
  }
  const attachments: EmailAttachment[] = [];
  email.attachments.forEach((a, i) => {
    if (a.related || (a.disposition === 'inline' && a.contentId && a.mimeType.startsWith('image/'))) return;
    const content =
      typeof a.content === 'string' ? Buffer.from(a.content, 'utf8') : Buffer.from(a.content as ArrayBuffer);
    const ext = extensionOf(a.filename ?? '') || MIME_EXT[a.mimeType.toLowerCase()] || '';
    const filename = a.filename || `attachment-${i + 1}${ext ? `.${ext}` : ''}`;
    attachments.push({ filename, ext, content });
  });
  return emailSections({
    from: addresses(email.from),
    to: addresses(email.to),
    cc: addresses(email.cc),
    subject: email.subject,
    date: email.date,
    text: email.text,
    html: email.html,
    attachments,
  });
}
