/**
 * presentation (API.md §19.7): one chunk per slide/page; the slide image (the first picture of the
 * page) is kept as the chunk image. Pages come from `Section.page`, else from PDF positions; sections
 * without either are one slide each.
 */
import type { ChunkContext, ChunkDraft, ParsedDocument, Section } from '../types.js';
import { finalizeDrafts, firstImage, isPageFurniture, mergePositions, sectionContent } from './common.js';

export function pageOf(s: Section): number | undefined {
  if (typeof s.page === 'number') return s.page;
  const p = s.positions?.[0]?.[0];
  return typeof p === 'number' ? p : undefined;
}

export function chunkPresentation(doc: ParsedDocument, _ctx: ChunkContext): ChunkDraft[] {
  const slides: Section[][] = [];
  let current: Section[] = [];
  let currentPage: number | undefined;
  for (const s of doc.sections) {
    if (isPageFurniture(s)) continue;
    const page = pageOf(s);
    if (current.length === 0 || page === undefined || page !== currentPage) {
      if (current.length) slides.push(current);
      current = [s];
      currentPage = page;
    } else {
      current.push(s);
    }
  }
  if (current.length) slides.push(current);
  const drafts = slides.map((slide) => {
    const draft: ChunkDraft = {
      content_with_weight: slide
        .map((s) => sectionContent(s).trim())
        .filter(Boolean)
        .join('\n'),
      positions: mergePositions(slide.map((s) => s.positions)),
    };
    const image = firstImage(slide);
    if (image) draft.image = image;
    return draft;
  });
  return finalizeDrafts(drafts);
}
