/**
 * Embeddings for hand-made chunks with the KB's embedding model (questions: search/models.ts). A chunk's
 * vector is `w·embed(document name) + (1 − w)·embed(joined questions, else content)` with
 * `w = filename_embd_weight` (0.1), as the ingestion pipeline does (queue/embed.ts). When the model is
 * not usable (none set, no credentials, the bundled model without a local copy) the answer is null and
 * the chunk or the query is keyword-only. A failing provider call is a clean 100 with its reason.
 */
import type { AppContext } from '../../context.js';
import { embeddingAvailable, modelFor } from '../../models/registry.js';
import { embedText } from '../../ingest/stages/embed.js';
import { guarded } from '../../search/models.js';

export interface ChunkText {
  content_with_weight: string;
  search_text?: string;
  question_kwd?: string[];
}

export async function embedChunk(
  ctx: AppContext,
  tenantId: string,
  embdId: string,
  docName: string,
  chunk: ChunkText,
  weight: number,
): Promise<number[] | null> {
  if (!(await embeddingAvailable(ctx, tenantId, embdId))) return null;
  return guarded('Embedding the chunk', async () => {
    const model = await modelFor(ctx, tenantId, embdId, 'embedding');
    const text = embedText({ ...chunk, positions: [] });
    const [title, body] = (await model.embed([docName || 'document', text])).vectors;
    if (!title || !body) return null;
    return body.map((x, k) => weight * (title[k] ?? 0) + (1 - weight) * x);
  });
}
