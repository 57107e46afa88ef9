/**
 * Parent/child chunks (`children_delimiter`, API.md §19.1, §19.5, §19.6), as RAGFlow does them: every
 * chunk the method produced is cut into child chunks at the delimiter; the children are embedded,
 * indexed and matched, each carrying `mom_id` = its parent's id; the parent is stored beside them,
 * unsearchable (chunk-index/fields.ts `CHILD_IDS_FIELD`), and is what chunk lists show and retrieval
 * returns (search/retrieval.ts `withParents` replaces the children of a page by their parent).
 *
 * The delimiter reads like `delimiter`: back-quoted tokens (`` `##` ``) cut at every occurrence,
 * characters outside backticks are single-character delimiters (`\n` typed as backslash-n counts).
 * A chunk that yields fewer than two pieces stays a plain chunk (it is its own only child).
 */
import { xxh64 } from '@node-rs/xxhash';
import type { ChunkRecord } from '../../chunk-index/chunk-index.js';
import { CHILD_IDS_FIELD } from '../../chunk-index/fields.js';
import { parseDelimiter, splitAtChars } from '../chunkers/delimiter.js';
import type { ChunkDraft } from '../types.js';

function splitAtTokens(text: string, tokens: string[]): string[] {
  if (tokens.length === 0) return [text];
  const pieces: string[] = [];
  let start = 0;
  let i = 0;
  while (i < text.length) {
    const hit = tokens.find((t) => text.startsWith(t, i));
    if (hit) {
      pieces.push(text.slice(start, i));
      i += hit.length;
      start = i;
    } else i++;
  }
  pieces.push(text.slice(start));
  return pieces;
}

/** The child texts of one chunk, or [] when the delimiter does not cut it into two or more pieces. */
export function childTexts(content: string, delimiter: string): string[] {
  if (!delimiter) return [];
  const { chars, tokens } = parseDelimiter(delimiter);
  if (chars.size === 0 && tokens.length === 0) return [];
  const pieces = splitAtTokens(content, tokens)
    .flatMap((p) => splitAtChars(p, chars))
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
  const unique = [...new Set(pieces)];
  return unique.length >= 2 ? unique : [];
}

/** `children_delimiter` of a parser config when it is a non-empty string. */
export function childDelimiterOf(config: Record<string, unknown>): string {
  const d = config.children_delimiter;
  return typeof d === 'string' ? d : '';
}

/** Child texts per draft (same order; [] = not split). */
export function planChildren(drafts: ChunkDraft[], delimiter: string): string[][] {
  return drafts.map((d) => (delimiter ? childTexts(d.content_with_weight, delimiter) : []));
}

/**
 * What gets embedded, in record order: a split draft's children (their own text, without the
 * parent's generated questions, so each child keeps a vector of its own), an unsplit draft itself.
 */
export function embeddingInputs(drafts: ChunkDraft[], children: string[][]): ChunkDraft[] {
  return drafts.flatMap((d, i) =>
    children[i].length === 0
      ? [d]
      : children[i].map((text): ChunkDraft => ({ content_with_weight: text, positions: [] })),
  );
}

/** Id of a child chunk: xxHash64 of parent id + text + doc id (the same sentence may recur elsewhere). */
export function childChunkId(parentId: string, text: string, docId: string): string {
  return xxh64(`${parentId}\u0000${text}${docId}`).toString(16).padStart(16, '0');
}

/** The parent record: unsearchable (no vector, no tokens), listing its children's ids. */
export function parentRecord(base: ChunkRecord, childIds: string[]): ChunkRecord {
  return { ...base, vector: null, extra: { ...(base.extra ?? {}), [CHILD_IDS_FIELD]: childIds } };
}

/**
 * A child record: the parent's document, keywords, tags and positions with its own text and vector;
 * 0 tokens (the document and KB count their parents' tokens once) and no image.
 */
export function childRecord(
  parent: ChunkRecord,
  id: string,
  text: string,
  vector: number[] | null,
): ChunkRecord {
  return {
    ...parent,
    id,
    content_with_weight: text,
    search_text: undefined,
    img_id: '',
    mom_id: parent.id,
    token_num: 0,
    vector,
    extra: undefined,
  };
}

/** Records of one draft: itself, or its parent followed by its children (vectors consumed in order). */
export function familyRecords(
  base: ChunkRecord,
  texts: string[],
  nextVector: () => number[] | null,
): ChunkRecord[] {
  if (texts.length === 0) return [{ ...base, vector: nextVector() }];
  const ids = texts.map((t) => childChunkId(base.id, t, base.doc_id));
  const parent = parentRecord(base, ids);
  return [parent, ...texts.map((t, k) => childRecord(parent, ids[k], t, nextVector()))];
}
