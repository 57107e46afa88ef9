/**
 * email (API.md §19.7): headers and the text/HTML body (sections from the eml/msg parser) are merged
 * naively; the pipeline parses attachments as documents of their own with `naive`.
 */
import type { ChunkContext, ChunkDraft, ParsedDocument } from '../types.js';
import { chunkNaive } from './naive.js';

export const EMAIL_TOKENS = 128;

export function chunkEmail(doc: ParsedDocument, ctx: ChunkContext): ChunkDraft[] {
  return chunkNaive(doc, ctx, { defaultTokens: EMAIL_TOKENS, keepFurniture: true });
}
