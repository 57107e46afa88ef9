/**
 * Embeddings for hand-made chunks and retrieval questions with the KB's embedding model. A chunk's
 * vector is `w·embed(document name) + (1 − w)·embed(joined questions, else content)` with
 * `w = filename_embd_weight` (0.1), as the ingestion pipeline does (queue/embed.ts). When the model is
 * not usable (none set, no credentials, the bundled model without a local copy) the answer is null and
 * the chunk or the query is keyword-only. A failing provider call is a clean 100 with its reason.
 */
import { BUILTIN_FACTORY } from '@lectern/shared';
import type { AppContext } from '../../context.js';
import { ApiError, errors } from '../../http/envelope.js';
import { ModelError } from '../../models/errors.js';
import { embeddingAvailable, modelFor } from '../../models/registry.js';
import { embedText } from '../../ingest/stages/embed.js';

/** Model errors as envelopes; the bundled model being unreachable is "no vector", not a failure. */
export async function guarded<T>(what: string, fn: () => Promise<T>): Promise<T | null> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof ApiError) throw err;
    if (err instanceof ModelError) {
      if (err.provider === BUILTIN_FACTORY) return null;
      throw errors.exception(`${what} failed: ${err.message}`);
    }
    throw err;
  }
}

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

export async function embedQuestion(
  ctx: AppContext,
  tenantId: string,
  embdId: string,
  question: string,
): Promise<number[] | null> {
  if (!(await embeddingAvailable(ctx, tenantId, embdId))) return null;
  return guarded('Embedding the question', async () => {
    const model = await modelFor(ctx, tenantId, embdId, 'embedding');
    return (await model.embed([question])).vectors[0] ?? null;
  });
}

/** The rerank model's scores for (question, texts), or a clean 100/102 when it cannot be used. */
export async function rerankerFor(ctx: AppContext, tenantId: string, rerankId: string) {
  const model = await modelFor(ctx, tenantId, rerankId, 'rerank');
  return async (question: string, texts: string[]): Promise<number[]> => {
    const scores = await guarded('Reranking', async () => (await model.rerank(question, texts)).scores);
    if (!scores) throw errors.exception('Reranking failed: the rerank model is not available.');
    return scores;
  };
}
