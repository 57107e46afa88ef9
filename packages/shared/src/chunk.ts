/**
 * Chunk-area client names (API.md §7, §19). The payload shapes live in `contract/chunk.ts`.
 */
import type { BodyInput } from './contract/route.js';
import type { chunkContract } from './contract/chunk.js';

/** Body of `POST /v1/chunk/create` and `/v1/chunk/set` (set adds `chunk_id`). */
export type ChunkEditBody = BodyInput<typeof chunkContract.create> &
  Partial<Pick<BodyInput<typeof chunkContract.set>, 'chunk_id'>>;

/** Body of `POST /v1/chunk/retrieval_test`. */
export type RetrievalTestBody = BodyInput<typeof chunkContract.retrievalTest>;

/** Retrieval-testing defaults of the UI (SPEC §9, API.md §19.12): the server's own default threshold is 0.0. */
export const RETRIEVAL_UI_DEFAULTS = {
  similarity_threshold: 0.2,
  vector_similarity_weight: 0.3,
  top_k: 1024,
  size: 10,
} as const;
