/**
 * Tables and figures become chunks of their own (doc_type_kwd "table"/"image"), optionally wrapped in
 * `table_context_size` / `image_context_size` tokens of the text around them (API.md §19.7).
 */
import type { ChunkDraft, Section } from '../types.js';
import { tailTokens, truncateTokens, countTokens } from '../tokens.js';
import { isMedia, isPageFurniture, mergePositions, sectionContent } from './common.js';

function isContextText(s: Section): boolean {
  return !isMedia(s) && !isPageFurniture(s) && (s.text ?? '').trim() !== '';
}

/** Up to `size` tokens of text before (`dir` −1) or after (+1) section `i`, skipping other media. */
export function surroundingText(sections: Section[], i: number, size: number, dir: -1 | 1): string {
  if (size <= 0) return '';
  const picked: string[] = [];
  let total = 0;
  for (let j = i + dir; j >= 0 && j < sections.length && total < size; j += dir) {
    const s = sections[j];
    if (!isContextText(s)) continue;
    const text = s.text.trim();
    picked.push(text);
    total += countTokens(text);
  }
  if (picked.length === 0) return '';
  if (dir < 0) return tailTokens(picked.reverse().join('\n'), size).trim();
  return truncateTokens(picked.join('\n'), size).trim();
}

/** The chunk draft for a table or figure section. */
export function mediaDraft(
  sections: Section[],
  i: number,
  tableContext: number,
  imageContext: number,
): ChunkDraft {
  const s = sections[i];
  const isTable = s.kind === 'table';
  const size = isTable ? tableContext : imageContext;
  const body = sectionContent(s).trim();
  const before = surroundingText(sections, i, size, -1);
  const after = surroundingText(sections, i, size, 1);
  const draft: ChunkDraft = {
    content_with_weight: [before, body, after].filter((t) => t !== '').join('\n'),
    positions: mergePositions([s.positions]),
    doc_type_kwd: isTable ? 'table' : 'image',
  };
  if (s.image && s.image.length > 0) draft.image = s.image;
  return draft;
}
