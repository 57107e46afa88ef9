/** one (API.md §19.7): the whole document is one chunk (tables as HTML), positions merged. */
import type { ChunkContext, ChunkDraft, ParsedDocument } from '../types.js';
import { finalizeDrafts, isPageFurniture, mergePositions, sectionContent } from './common.js';

export function chunkOne(doc: ParsedDocument, _ctx: ChunkContext): ChunkDraft[] {
  const sections = doc.sections.filter((s) => !isPageFurniture(s));
  return finalizeDrafts([
    {
      content_with_weight: sections
        .map((s) => sectionContent(s).trim())
        .filter(Boolean)
        .join('\n'),
      positions: mergePositions(sections.map((s) => s.positions)),
    },
  ]);
}
