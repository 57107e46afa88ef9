/**
 * Token counting with the cl100k encoding (API.md §19.6: "Tokens are counted with the cl100k encoding").
 *
 * gpt-tokenizer is linear on ordinary text, but byte-pair merging of one enormous pre-token (a
 * whitespace-free run of letters — base64 blobs, long CJK paragraphs without punctuation, "=====" rulers)
 * is quadratic: 200k such characters take ~20 s. The fast path cuts those runs into fixed slices and
 * counts each slice alone, which keeps the count exact for ordinary text and within a token or two per
 * slice for the pathological runs.
 */
import { countTokens as cl100kCount, decode, encode } from 'gpt-tokenizer/encoding/cl100k_base';

/** Special-token markers in user text are ordinary text for us, never control tokens. */
const PLAIN = { disallowedSpecial: new Set<string>(), allowedSpecial: new Set<string>() };

/** Longest run counted as one piece; longer runs of letters or of punctuation are sliced. */
const LONG_RUN = 256;
const SLICE = 128;
const LONG_RUN_RE = new RegExp(`\\p{L}{${LONG_RUN},}|[^\\s\\p{L}\\p{N}]{${LONG_RUN},}`, 'gu');

function countPlain(text: string): number {
  return text ? cl100kCount(text, PLAIN) : 0;
}

/** Splits `text` into pieces that are cheap to encode: long runs are cut into fixed slices. */
function pieces(text: string): string[] {
  if (text.length < LONG_RUN) return [text];
  const out: string[] = [];
  LONG_RUN_RE.lastIndex = 0;
  let from = 0;
  for (let m = LONG_RUN_RE.exec(text); m; m = LONG_RUN_RE.exec(text)) {
    if (m.index > from) out.push(text.slice(from, m.index));
    const run = m[0];
    for (let i = 0; i < run.length; i += SLICE) out.push(run.slice(i, i + SLICE));
    from = m.index + run.length;
  }
  if (from < text.length) out.push(text.slice(from));
  return out;
}

/** Number of cl100k tokens in `text` (0 for the empty string). */
export function countTokens(text: string): number {
  if (!text) return 0;
  let total = 0;
  for (const piece of pieces(text)) total += countPlain(piece);
  return total;
}

/** cl100k token ids of `text`, using the same fast path as countTokens (decode gives the text back). */
export function encodeTokens(text: string): number[] {
  if (!text) return [];
  const parts = pieces(text);
  if (parts.length === 1) return encode(text, PLAIN);
  const out: number[] = [];
  for (const piece of parts) for (const t of encode(piece, PLAIN)) out.push(t);
  return out;
}

/** Drops a trailing/leading replacement character left by cutting a multi-byte character in two. */
function cleanCut(text: string): string {
  return text.replace(/^\uFFFD+|\uFFFD+$/g, '');
}

/**
 * The longest prefix of `text` with at most `maxTokens` tokens (whole text when it fits).
 * Only a prefix proportional to `maxTokens` is encoded, so truncating a huge text stays cheap.
 */
export function truncateTokens(text: string, maxTokens: number): string {
  if (maxTokens <= 0 || !text) return '';
  // A cl100k token rarely spans more than ~16 characters; encode a generous prefix first.
  const window = Math.max(64, maxTokens * 16);
  const head = text.length > window ? text.slice(0, window) : text;
  let tokens = encodeTokens(head);
  if (tokens.length <= maxTokens) {
    if (head.length === text.length) return text;
    tokens = encodeTokens(text);
    if (tokens.length <= maxTokens) return text;
  }
  return cleanCut(decode(tokens.slice(0, maxTokens)));
}

/** The longest suffix of `text` with at most `maxTokens` tokens (whole text when it fits). */
export function tailTokens(text: string, maxTokens: number): string {
  if (maxTokens <= 0 || !text) return '';
  const window = Math.max(64, maxTokens * 16);
  const tail = text.length > window ? text.slice(text.length - window) : text;
  const tokens = encodeTokens(tail);
  if (tokens.length <= maxTokens && tail.length === text.length) return text;
  return cleanCut(decode(tokens.slice(Math.max(0, tokens.length - maxTokens))));
}
