/**
 * picture (API.md §19.7): OCR text and the vision-model description (both delivered as sections by the
 * image parser) form one chunk with the picture kept; doc_type_kwd "image" ("video" for video files).
 */
import type { ChunkContext, ChunkDraft, ParsedDocument } from '../types.js';
import { extensionOf, finalizeDrafts, firstImage, mergePositions, sectionContent } from './common.js';

export const VIDEO_EXTENSIONS = [
  'mp4',
  'mov',
  'avi',
  'flv',
  'mpeg',
  'mpg',
  'webm',
  'wmv',
  '3gp',
  '3gpp',
  'mkv',
  'rm',
  'rmvb',
  'asf',
];

export function chunkPicture(doc: ParsedDocument, ctx: ChunkContext): ChunkDraft[] {
  const text = doc.sections
    .map((s) => sectionContent(s).trim())
    .filter(Boolean)
    .join('\n');
  const draft: ChunkDraft = {
    content_with_weight: text,
    positions: mergePositions(doc.sections.map((s) => s.positions)),
    doc_type_kwd: VIDEO_EXTENSIONS.includes(extensionOf(ctx.docName)) ? 'video' : 'image',
  };
  const image = firstImage(doc.sections);
  if (image) draft.image = image;
  return finalizeDrafts([draft]);
}
