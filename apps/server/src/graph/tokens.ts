/**
 * cl100k token counting and trimming for prompt budgets (API.md §19.6: tokens are counted with cl100k).
 * Byte-pair merging of one enormous whitespace-free run is quadratic in gpt-tokenizer, so long runs are
 * counted in fixed slices: exact for ordinary text, within a token or two per slice otherwise.
 */
import { countTokens as cl100kCount, decode, encode } from 'gpt-tokenizer/encoding/cl100k_base';

const PLAIN = { disallowedSpecial: new Set<string>(), allowedSpecial: new Set<string>() };
const LONG_RUN_RE = /\p{L}{256,}|[^\s\p{L}\p{N}]{256,}/gu;
const SLICE = 128;

function pieces(text: string): string[] {
  if (text.length < 256) return [text];
  const out: string[] = [];
  let from = 0;
  LONG_RUN_RE.lastIndex = 0;
  for (let m = LONG_RUN_RE.exec(text); m; m = LONG_RUN_RE.exec(text)) {
    if (m.index > from) out.push(text.slice(from, m.index));
    for (let i = 0; i < m[0].length; i += SLICE) out.push(m[0].slice(i, i + SLICE));
    from = m.index + m[0].length;
  }
  if (from < text.length) out.push(text.slice(from));
  return out;
}

export function countTokens(text: string): number {
  if (!text) return 0;
  let n = 0;
  for (const p of pieces(text)) n += cl100kCount(p, PLAIN);
  return n;
}

/** The longest prefix of `text` with at most `maxTokens` tokens. */
export function truncateTokens(text: string, maxTokens: number): string {
  if (maxTokens <= 0 || !text) return '';
  // Cheap exit: a token is at least one character, so short texts never need trimming.
  if (text.length <= maxTokens) return text;
  let used = 0;
  let out = '';
  for (const p of pieces(text)) {
    const ids = encode(p, PLAIN);
    if (used + ids.length <= maxTokens) {
      out += p;
      used += ids.length;
      continue;
    }
    return out + decode(ids.slice(0, maxTokens - used));
  }
  return out;
}
