/**
 * Citations in answers (API.md §19.13): `[ID:n]`, n = index into the reference chunks.
 * - `normalizeCitations` rewrites the malformed forms models produce into `[ID:n]` and reports
 *   which chunks an answer cites;
 * - `insertCitations` adds citations to an answer that has none: sentences (outside code blocks)
 *   are scored against the chunks with the hybrid formula and a threshold that starts at 0.63 and
 *   decays ×0.8 down to 0.3 until something matches; at most 4 citations per sentence.
 * Pure functions: tokenization and vectors come from the caller.
 */

const ARABIC_DIGITS = /[\u0660-\u0669\u06F0-\u06F9]/g;

/** Arabic-Indic and extended Arabic-Indic digits → ASCII digits (same string length). */
export function normalizeDigits(text: string): string {
  return text.replace(ARABIC_DIGITS, (ch) => {
    const code = ch.charCodeAt(0);
    return String(code >= 0x06f0 ? code - 0x06f0 : code - 0x0660);
  });
}

/** Digits as models write them: ASCII and (extended) Arabic-Indic. */
const D = '[0-9\\u0660-\\u0669\\u06F0-\\u06F9]';
const IDS = `(${D}+(?:\\s*[,，;；]\\s*(?:ID\\s*[:：]?\\s*)?${D}+)*)`;

/** A well-formed citation (after digit normalization). */
export const CITATION = /\[ID:(\d+)\]/g;

/**
 * Citation forms seen from models, each capturing a run of indices: `[ID:12]`, `(ID: 12)`,
 * `[ID: 12]`, `[id 12]`, `【ID: 12】`, `##12$$`, `[ID:1, ID:2]`, `[ID:1,2]`, `ref 12`.
 */
const FORMS: RegExp[] = [
  new RegExp(`##(${D}+)\\$\\$`, 'g'),
  new RegExp(`【\\s*ID\\s*[:：]?\\s*${IDS}\\s*】`, 'gi'),
  new RegExp(`\\[\\s*ID\\s*[:：]?\\s*${IDS}\\s*\\]`, 'gi'),
  new RegExp(`\\(\\s*ID\\s*[:：]?\\s*${IDS}\\s*\\)`, 'gi'),
  new RegExp(`\\bref\\s*(${D}+)\\b`, 'gi'),
];

/**
 * Rewrites every citation form to `[ID:n]` and returns the cited chunk indices. Well-formed
 * citations pointing past the chunk list are dropped; malformed ones out of range stay as text.
 */
export function normalizeCitations(
  answer: string,
  chunkCount: number,
): { answer: string; cited: Set<number> } {
  const cited = new Set<number>();
  let text = answer;
  FORMS.forEach((pattern, k) => {
    const wellFormedFamily = k === 2;
    text = text.replace(pattern, (whole: string, group: string) => {
      const ids = (normalizeDigits(group).match(/\d+/g) ?? []).map(Number);
      if (ids.length === 0) return whole;
      if (ids.some((i) => i >= chunkCount)) {
        return wellFormedFamily && /^\[ID:\d+\]$/.test(normalizeDigits(whole)) ? '' : whole;
      }
      ids.forEach((i) => cited.add(i));
      return ids.map((i) => `[ID:${i}]`).join(' ');
    });
  });
  return { answer: text, cited };
}

/** True when the answer carries any citation form. */
export function hasCitation(answer: string): boolean {
  return FORMS.some((p) => new RegExp(p.source, p.flags.replace('g', '')).test(answer));
}

/**
 * Cuts plain text after sentence ends — CJK punctuation, a newline, or Latin `.!?;` followed by
 * whitespace or the end — keeping the following whitespace with the sentence. Lossless.
 */
function cutSentences(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    const cjkEnd = '。！？；\n'.includes(ch);
    const latinEnd = '.!?;'.includes(ch) && (i + 1 === text.length || /\s/.test(text[i + 1]));
    i += 1;
    if (!cjkEnd && !latinEnd) continue;
    while (i < text.length && /[\s。！？；.!?;]/.test(text[i])) i += 1;
    out.push(text.slice(start, i));
    start = i;
  }
  if (start < text.length) out.push(text.slice(start));
  return out;
}

/**
 * Splits text into sentence pieces that concatenate back to the original. Code blocks
 * (```…```) stay whole and are never cited.
 */
export function splitSentences(answer: string): Array<{ text: string; code: boolean }> {
  const pieces: Array<{ text: string; code: boolean }> = [];
  const parts = answer.split(/(```[\s\S]*?```)/);
  for (const part of parts) {
    if (!part) continue;
    if (part.startsWith('```') && part.endsWith('```') && part.length >= 6) {
      pieces.push({ text: part, code: true });
      continue;
    }
    let buffer = '';
    for (const sentence of cutSentences(part)) {
      buffer += sentence;
      // Very short fragments join the next sentence.
      if (buffer.trim().length >= 5) {
        pieces.push({ text: buffer, code: false });
        buffer = '';
      }
    }
    if (buffer) {
      const last = pieces[pieces.length - 1];
      if (last && !last.code) last.text += buffer;
      else pieces.push({ text: buffer, code: false });
    }
  }
  return pieces;
}

export function cosine(
  a: readonly number[] | null | undefined,
  b: readonly number[] | null | undefined,
): number {
  if (!a || !b || a.length === 0 || a.length !== b.length) return 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/** Share of the query's token weight found in the document's tokens (0..1). */
export function tokenSimilarity(query: Map<string, number>, doc: Set<string>): number {
  let hit = 1e-9;
  let all = 1e-9;
  for (const [t, w] of query) {
    all += w;
    if (doc.has(t)) hit += w;
  }
  return hit / all;
}

export interface CitableChunk {
  /** Tokens of the chunk (content tokens as indexed). */
  tokens: string[];
  vector: number[] | null;
}

export interface InsertCitationOptions {
  /** Tokenizer used for sentences (the same one that tokenized the chunks). */
  tokenize: (text: string) => string[];
  /** Optional per-token weight (e.g. idf); uniform when absent. */
  weight?: (token: string) => number;
  /** Sentence vectors, one per non-code sentence, or null when no embedding model is available. */
  sentenceVectors: number[][] | null;
  /** The dialog's vector similarity weight (vw); the keyword weight is 1 − vw. */
  vectorWeight: number;
  maxPerSentence?: number;
}

/** The sentences whose vectors `insertCitations` needs, in order. */
export function citableSentences(answer: string): string[] {
  return splitSentences(answer)
    .filter((p) => !p.code && p.text.trim().length > 0)
    .map((p) => p.text);
}

/** Inserts ` [ID:i]` after the sentences that match a chunk well enough. */
export function insertCitations(
  answer: string,
  chunks: CitableChunk[],
  opts: InsertCitationOptions,
): { answer: string; cited: Set<number> } {
  const cited = new Set<number>();
  if (chunks.length === 0 || !answer.trim()) return { answer, cited };
  const pieces = splitSentences(answer);
  const chunkBags = chunks.map((c) => new Set(c.tokens));
  const anyVector = chunks.some((c) => c.vector && c.vector.length > 0) && opts.sentenceVectors !== null;
  const vw = anyVector ? opts.vectorWeight : 0;
  const maxPer = opts.maxPerSentence ?? 4;

  // Score every citable sentence against every chunk once.
  const scores: Array<number[] | null> = [];
  let v = 0;
  for (const piece of pieces) {
    if (piece.code || piece.text.trim().length === 0) {
      scores.push(null);
      continue;
    }
    const weights = new Map<string, number>();
    for (const t of opts.tokenize(piece.text))
      weights.set(t, (weights.get(t) ?? 0) + (opts.weight?.(t) ?? 1));
    const sv = opts.sentenceVectors?.[v] ?? null;
    v += 1;
    scores.push(
      chunks.map((c, i) => {
        const term = weights.size === 0 ? 0 : tokenSimilarity(weights, chunkBags[i]);
        return anyVector ? vw * cosine(sv, c.vector) + (1 - vw) * term : term;
      }),
    );
  }

  const cites = new Map<number, number[]>();
  for (let threshold = 0.63; threshold > 0.3 && cites.size === 0; threshold *= 0.8) {
    scores.forEach((row, p) => {
      if (!row) return;
      const best = Math.max(...row) * 0.99;
      if (best < threshold) return;
      const ids = row
        .map((s, i) => ({ s, i }))
        .filter(({ s }) => s > best)
        .sort((a, b) => b.s - a.s)
        .slice(0, maxPer)
        .map(({ i }) => i);
      if (ids.length > 0) cites.set(p, ids);
    });
  }

  let out = '';
  pieces.forEach((piece, p) => {
    const ids = cites.get(p);
    if (!ids) {
      out += piece.text;
      return;
    }
    // Citations go after the sentence text, before its trailing whitespace.
    const m = /^([\s\S]*?)(\s*)$/.exec(piece.text) as RegExpExecArray;
    out += m[1] + ids.map((i) => ` [ID:${i}]`).join('') + m[2];
    ids.forEach((i) => cited.add(i));
  });
  return { answer: out, cited };
}
