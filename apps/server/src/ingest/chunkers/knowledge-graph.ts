/**
 * knowledge_graph (API.md §19.6–19.7): naive chunks of `chunk_token_num` (default 8192) split at "\n",
 * the input of graph extraction.
 */
import type { ChunkContext, ChunkDraft, ParsedDocument } from '../types.js';
import { chunkNaive } from './naive.js';

export const KNOWLEDGE_GRAPH_TOKENS = 8192;

export function chunkKnowledgeGraph(doc: ParsedDocument, ctx: ChunkContext): ChunkDraft[] {
  const config = { ...ctx.config };
  if (typeof config.delimiter !== 'string') config.delimiter = '\n';
  return chunkNaive(doc, { ...ctx, config }, { defaultTokens: KNOWLEDGE_GRAPH_TOKENS });
}
