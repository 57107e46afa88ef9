/**
 * laws (API.md §19.7): article/clause numbering is detected (parts, chapters, sections, articles,
 * `1.1`, Chinese 第…章/第…条); a two-level tree merge makes one chunk per article (or per second-level
 * unit) whose content starts with its hierarchy, clauses such as `(1)` / `（一）` staying inside their
 * article. Without numbering the text is merged naively.
 */
import type { ChunkContext, ChunkDraft, ParsedDocument } from '../types.js';
import { configCount, configNumber, explodeLines, finalizeDrafts, isPageFurniture } from './common.js';
import { chunkNaive } from './naive.js';
import { BODY, detectBulletStyle, outlineLevels, sampleLines } from './numbering.js';
import { outlineChunks } from './outline.js';

export const LAWS_DEPTH = 2;

export function chunkLaws(doc: ParsedDocument, ctx: ChunkContext): ChunkDraft[] {
  const sections = explodeLines(doc.sections.filter((s) => !isPageFurniture(s)));
  const style = detectBulletStyle(sampleLines(sections));
  const levels = outlineLevels(sections, style, { clausesAsBody: true });
  if (!levels.some((l) => l !== BODY)) return chunkNaive({ ...doc, sections }, ctx);
  return finalizeDrafts(
    outlineChunks(sections, levels, {
      maxDepth: LAWS_DEPTH,
      budget: configNumber(ctx, 'chunk_token_num', 512),
      tableContext: configCount(ctx, 'table_context_size'),
      imageContext: configCount(ctx, 'image_context_size'),
    }),
  );
}
