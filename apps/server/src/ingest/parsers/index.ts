/**
 * The parser dispatcher: bytes + extension → ParsedDocument. Routes by extension (the parsers look at the
 * container themselves where formats are commonly mislabelled). Every refusal is a ParseError with a
 * sentence people can read; unexpected failures inside a parser (a damaged file tripping a bounds check)
 * become a ParseError too, while errors thrown by `onProgress` (task cancelled) pass through unchanged.
 */
import { IMAGE_EXTENSIONS } from '@lectern/shared';
import { isParseError, ParseError } from '../errors.js';
import type { ParsedDocument, ParseOptions } from '../types.js';
import { parseDoc } from './doc.js';
import { parseDocx } from './docx.js';
import { parseEml } from './eml.js';
import { parseHtml } from './html.js';
import { parseJson } from './json.js';
import { parseMarkdown } from './markdown.js';
import { parseMsg } from './msg.js';
import { parsePptx } from './pptx.js';
import { parseRtf } from './rtf.js';
import { CODE_LANGUAGES, parseText, TEXT_EXTENSIONS } from './text.js';
import { parseSpreadsheet } from './xlsx.js';

type Parser = (buffer: Buffer, opts: ParseOptions) => Promise<ParsedDocument>;

export const UNSUPPORTED_MESSAGE = 'This type of file has not been supported yet!';

const PARSERS = new Map<string, Parser>([
  // PDF and images load their heavier engines (pdf.js, OCR) only when such a file arrives.
  ['pdf', async (b, o) => (await import('./pdf/index.js')).parsePdf(b, o)],
  ['docx', parseDocx],
  ['xlsx', parseSpreadsheet],
  ['xls', parseSpreadsheet],
  ['csv', parseSpreadsheet],
  ['pptx', parsePptx],
  ['md', parseMarkdown],
  ['mdx', parseMarkdown],
  ['markdown', parseMarkdown],
  ['htm', parseHtml],
  ['html', parseHtml],
  ['json', parseJson],
  ['jsonl', parseJson],
  ['ldjson', parseJson],
  ['eml', parseEml],
  ['msg', parseMsg],
  ['doc', parseDoc],
  ['wps', parseDoc],
  ['rtf', parseRtf],
]);
for (const ext of [...TEXT_EXTENSIONS, ...Object.keys(CODE_LANGUAGES)]) PARSERS.set(ext, parseText);
for (const ext of IMAGE_EXTENSIONS)
  PARSERS.set(ext, async (b, o) => (await import('./image.js')).parseImage(b, o));

/** Extensions parseDocument can read (lower-case, no dot). */
export const PARSEABLE_EXTENSIONS: ReadonlySet<string> = new Set(PARSERS.keys());

const FORMAT_NAMES: Record<string, string> = {
  wps: 'WPS',
  htm: 'HTML',
  ldjson: 'JSON Lines',
  jsonl: 'JSON Lines',
  mdx: 'MDX',
  markdown: 'Markdown',
  md: 'Markdown',
};

export async function parseDocument(buffer: Buffer, opts: ParseOptions): Promise<ParsedDocument> {
  const ext = (opts.ext || /\.([^.\\/]+)$/.exec(opts.fileName)?.[1] || '').replace(/^\./, '').toLowerCase();
  const parser = PARSERS.get(ext);
  if (!parser) throw new ParseError(UNSUPPORTED_MESSAGE);
  if (buffer.length === 0) throw new ParseError('The file is empty.');
  // Errors raised by the progress callback (cancellation) must reach the caller untouched.
  const fromCallback = new WeakSet<object>();
  const onProgress = opts.onProgress
    ? async (fraction: number, message: string) => {
        try {
          await opts.onProgress!(fraction, message);
        } catch (err) {
          if (err && typeof err === 'object') fromCallback.add(err);
          throw err;
        }
      }
    : undefined;
  try {
    return await parser(buffer, { ...opts, ext, onProgress });
  } catch (err) {
    if (isParseError(err) || (err && typeof err === 'object' && fromCallback.has(err))) throw err;
    const name = FORMAT_NAMES[ext] ?? ext.toUpperCase();
    throw new ParseError(`The ${name} file could not be read: it is damaged or not in the expected format.`);
  }
}
