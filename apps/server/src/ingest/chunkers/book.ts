/**
 * book (API.md §19.7): heading levels come from the parser when it has them (docx styles, PDF
 * outline), else the heading/bullet numbering style is detected on a sample of lines; sections
 * merge hierarchically (up to 5 heading levels) so each chunk starts with its section path. Without
 * any heading style the document falls back to a naive merge of 256 tokens.
 */
import type { ChunkContext, ChunkDraft, ParsedDocument } from '../types.js';
import { configCount, configNumber, explodeLines, finalizeDrafts, isPageFurniture } from './common.js';
import { chunkNaive } from './naive.js';
import { BODY, detectBulletStyle, outlineLevels, sampleLines } from './numbering.js';
import { outlineChunks } from './outline.js';

export const BOOK_DEPTH = 5;
export const BOOK_FALLBACK_TOKENS = 256;

export function chunkBook(doc: ParsedDocument, ctx: ChunkContext): ChunkDraft[] {
  const sections = explodeLines(doc.sections.filter((s) => !isPageFurniture(s)));
  const style = detectBulletStyle(sampleLines(sections));
  const levels = outlineLevels(sections, style, { titlesFirst: true });
  if (!levels.some((l) => l !== BODY)) {
    return chunkNaive({ ...doc, sections }, ctx, { defaultTokens: BOOK_FALLBACK_TOKENS });
  }
  return finalizeDrafts(
    outlineChunks(sections, levels, {
      maxDepth: BOOK_DEPTH,
      budget: configNumber(ctx, 'chunk_token_num', BOOK_FALLBACK_TOKENS),
      tableContext: configCount(ctx, 'table_context_size'),
      imageContext: configCount(ctx, 'image_context_size'),
    }),
  );
}
