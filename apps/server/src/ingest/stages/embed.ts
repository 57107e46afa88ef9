/**
 * Chunk embeddings (API.md §19.7): `w·embed(document name) + (1 − w)·embed(questions or content)`,
 * `w = filename_embd_weight` (0.1), HTML tags stripped, batches of 16. When the KB's embedding model
 * is not usable the chunks are indexed keyword-only (vector null) and the log says so.
 */
import type { AppContext } from '../../context.js';
import type { ChunkDraft } from '../types.js';
import { BUILTIN_FACTORY, progressMessage } from '@lectern/shared';
import { ModelError } from '../../models/errors.js';
import { embeddingAvailable, modelFor } from '../../models/registry.js';
import type { TaskProgress } from '../../queue/progress.js';

export const EMBED_BATCH = 16;

export function embedText(d: ChunkDraft): string {
  const raw =
    d.question_kwd && d.question_kwd.length > 0
      ? d.question_kwd.join('\n')
      : (d.search_text ?? d.content_with_weight);
  const text = raw
    .replace(/<[^>]{0,2000}>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text || raw;
}

export async function embedChunks(
  ctx: AppContext,
  tenantId: string,
  embdId: string,
  docName: string,
  drafts: ChunkDraft[],
  weight: number,
  progress: TaskProgress,
  signal: AbortSignal,
): Promise<Array<number[] | null>> {
  if (drafts.length === 0) return [];
  if (!(await embeddingAvailable(ctx, tenantId, embdId))) {
    await progress.reportLazily(
      null,
      embdId
        ? progressMessage('keywordOnlyUnavailable', { model: embdId })
        : progressMessage('keywordOnlyNoModel'),
    );
    return drafts.map(() => null);
  }
  const model = await modelFor(ctx, tenantId, embdId, 'embedding');
  const started = Date.now();
  let title: number[];
  try {
    [title] = (await model.embed([docName || 'document'], { signal })).vectors;
  } catch (err) {
    // The bundled model without a local copy and no way to download it is "not available", not a failure.
    if (err instanceof ModelError && err.provider === BUILTIN_FACTORY) {
      await progress.reportLazily(null, progressMessage('keywordOnlyError', { error: err.message }));
      return drafts.map(() => null);
    }
    throw err;
  }
  const out: Array<number[] | null> = [];
  for (let i = 0; i < drafts.length; i += EMBED_BATCH) {
    const batch = drafts.slice(i, i + EMBED_BATCH);
    const { vectors } = await model.embed(batch.map(embedText), { signal });
    for (const v of vectors) out.push(v.map((x, k) => weight * (title[k] ?? 0) + (1 - weight) * x));
    const done = Math.min(i + EMBED_BATCH, drafts.length);
    await progress.reportLazily(0.85 + (0.1 * done) / drafts.length);
  }
  await progress.reportLazily(
    0.95,
    progressMessage('embeddingDone', {
      count: drafts.length,
      seconds: ((Date.now() - started) / 1000).toFixed(2),
    }),
  );
  return out;
}
