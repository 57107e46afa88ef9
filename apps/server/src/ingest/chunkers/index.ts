/**
 * Chunk methods (SPEC §9, API.md §19.7): sections → chunk drafts. Every method returns drafts with
 * non-empty `content_with_weight` and a well-formed `positions` list, deterministically.
 */
import type { ChunkContext, ChunkDraft, ParsedDocument } from '../types.js';
import { chunkAudio } from './audio.js';
import { chunkBook } from './book.js';
import { chunkEmail } from './email.js';
import { chunkKnowledgeGraph } from './knowledge-graph.js';
import { chunkLaws } from './laws.js';
import { chunkManual } from './manual.js';
import { chunkNaive } from './naive.js';
import { chunkOne } from './one.js';
import { chunkPaper } from './paper.js';
import { chunkPicture } from './picture.js';
import { chunkPresentation } from './presentation.js';
import { chunkQa } from './qa.js';
import { chunkResume } from './resume.js';
import { chunkTable } from './table.js';
import { chunkTag } from './tag.js';

export { CHUNK_METHOD_INPUTS, methodAccepts } from './inputs.js';
export { inferTables, tableFieldMap } from './table.js';

type Chunker = (doc: ParsedDocument, ctx: ChunkContext) => ChunkDraft[];

const CHUNKERS: Record<string, Chunker> = {
  naive: (doc, ctx) => chunkNaive(doc, ctx),
  general: (doc, ctx) => chunkNaive(doc, ctx),
  book: chunkBook,
  laws: chunkLaws,
  manual: chunkManual,
  paper: chunkPaper,
  presentation: chunkPresentation,
  qa: chunkQa,
  resume: chunkResume,
  table: chunkTable,
  picture: chunkPicture,
  one: chunkOne,
  knowledge_graph: chunkKnowledgeGraph,
  tag: chunkTag,
  email: chunkEmail,
  audio: chunkAudio,
};

/** Method ids chunkDocument accepts (the 13 of SPEC §9 plus `general`, `email`, `audio`). */
export const CHUNKER_METHODS = Object.keys(CHUNKERS);

export function isChunkMethod(method: string): boolean {
  return Object.prototype.hasOwnProperty.call(CHUNKERS, method);
}

/** Chunks a parsed document with the given method; throws on an unknown method. */
export function chunkDocument(method: string, doc: ParsedDocument, ctx: ChunkContext): ChunkDraft[] {
  const chunker = isChunkMethod(method) ? CHUNKERS[method] : undefined;
  if (!chunker) throw new Error(`Unknown chunk method: ${method}`);
  return chunker(doc, { ...ctx, config: ctx.config ?? {} });
}
