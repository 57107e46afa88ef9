/** audio (API.md §19.7): the speech-to-text transcript (delivered as sections) is one chunk. */
import type { ChunkContext, ChunkDraft, ParsedDocument } from '../types.js';
import { finalizeDrafts } from './common.js';

export function chunkAudio(doc: ParsedDocument, _ctx: ChunkContext): ChunkDraft[] {
  const text = doc.sections
    .map((s) => (s.text ?? '').trim())
    .filter(Boolean)
    .join('\n');
  return finalizeDrafts([{ content_with_weight: text, positions: [] }]);
}
