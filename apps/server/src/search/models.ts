/**
 * The models a retrieval uses: the KBs' embedding model for the question, and an optional rerank
 * model. Callers differ in how a failing model call reaches them (API.md §19.12 table,
 * `modelFailures`): `envelope` turns it into a clean 100 "<step> failed: <reason>" and treats the
 * bundled model without its files as "no vector" (keyword-only); `raise` lets the model's own error
 * through to the caller's pipeline.
 */
import { BUILTIN_FACTORY } from '@lectern/shared';
import type { AppContext } from '../context.js';
import { ApiError, errors } from '../errors.js';
import { ModelError } from '../models/errors.js';
import { embeddingAvailable, modelFor } from '../models/registry.js';
import { tracedEmbeddingModel, tracedRerankModel } from '../tracing/models.js';
import type { Observation } from '../tracing/types.js';

export type ModelFailures = 'envelope' | 'raise';

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

/** The question's vector with the KBs' embedding model; null (keyword-only) when none is usable. */
export async function embedQuestion(
  ctx: AppContext,
  tenantId: string,
  embdId: string | null,
  question: string,
  failures: ModelFailures = 'envelope',
  signal?: AbortSignal,
  trace?: Observation,
): Promise<number[] | null> {
  if (!(await embeddingAvailable(ctx, tenantId, embdId))) return null;
  const embed = async () => {
    const port = await modelFor(ctx, tenantId, embdId as string, 'embedding');
    const model = trace ? tracedEmbeddingModel(port, trace, 'embed question') : port;
    return (await model.embed([question], { signal })).vectors[0] ?? null;
  };
  return failures === 'raise' ? embed() : guarded('Embedding the question', embed);
}

export type Reranker = (question: string, texts: string[]) => Promise<number[]>;

/**
 * The rerank model's scores for (question, texts). Resolving the model fails at once (unknown model:
 * its own clean error); with `envelope` a failing call is 100 "Reranking failed: …". With `trace`,
 * each call is a `rerank` generation of it (as each question embedding is with `embedQuestion`).
 */
export async function rerankerFor(
  ctx: AppContext,
  tenantId: string,
  rerankId: string,
  failures: ModelFailures = 'envelope',
  signal?: AbortSignal,
  trace?: Observation,
): Promise<Reranker> {
  const port = await modelFor(ctx, tenantId, rerankId, 'rerank');
  const model = trace ? tracedRerankModel(port, trace) : port;
  if (failures === 'raise') {
    return async (question, texts) => (await model.rerank(question, texts, { signal })).scores;
  }
  return async (question, texts) => {
    const scores = await guarded('Reranking', async () => (await model.rerank(question, texts)).scores);
    if (!scores) throw errors.exception('Reranking failed: the rerank model is not available.');
    return scores;
  };
}
