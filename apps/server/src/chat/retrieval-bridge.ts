/**
 * Chat retrieval (API.md §19.12 "chat (dialog)" row) through the one hybrid retrieval function:
 * only live KBs are searched (a KB deleted under an assistant simply drops out), the query is
 * embedded with the KBs' embedding model when one is usable (keyword-only otherwise), the
 * assistant's rerank model replaces the vector score when set. Hits come back as reference chunks
 * with their content tokens and vectors for citation insertion.
 */
import type { AppContext } from '../context.js';
import { embeddingAvailable, modelFor } from '../models/registry.js';
import type { ChunkIndex } from '../chunk-index/chunk-index.js';
import { retrieve } from '../search/retrieval.js';
import type { RetrieveParams as ChatRetrieveParams } from './services.js';
import type { Knowledge, RefChunk } from './types.js';

export async function retrieveForChat(
  ctx: AppContext,
  index: ChunkIndex,
  p: ChatRetrieveParams,
): Promise<Knowledge> {
  const empty: Knowledge = { total: 0, chunks: [], doc_aggs: [] };
  if (p.topN <= 0 || !p.question.trim()) return empty;
  const kbs = p.kbIds.length
    ? await ctx.db.kysely
        .selectFrom('knowledgebase')
        .select(['id', 'tenant_id', 'embd_id'])
        .where('id', 'in', p.kbIds)
        .where('status', '=', '1')
        .execute()
    : [];
  if (kbs.length === 0) return empty;

  const owner = kbs[0].tenant_id;
  const embdId = kbs[0].embd_id;
  let queryVector: number[] | null = null;
  if (await embeddingAvailable(ctx, owner, embdId)) {
    const embd = await modelFor(ctx, owner, embdId, 'embedding');
    queryVector = (await embd.embed([p.question], { signal: p.signal })).vectors[0] ?? null;
  }
  const rerankModel = p.rerankId ? await modelFor(ctx, p.tenantId, p.rerankId, 'rerank') : null;
  const result = await retrieve(index, {
    question: p.question,
    kbIds: kbs.map((kb) => kb.id),
    docIds: p.docIds ?? [],
    queryVector,
    topK: p.topK,
    similarityThreshold: p.similarityThreshold,
    vectorSimilarityWeight: p.vectorSimilarityWeight,
    rerank: rerankModel
      ? async (question: string, texts: string[]) =>
          (await rerankModel.rerank(question, texts, { signal: p.signal })).scores
      : undefined,
    page: 1,
    size: p.topN,
  });
  const vectors = new Map<string, number[] | null>();
  if (queryVector && result.chunks.length > 0) {
    for (const c of await index.getMany(result.chunks.map((h) => h.chunk_id))) vectors.set(c.id, c.vector);
  }
  const chunks: RefChunk[] = result.chunks.map((h) => ({
    chunk_id: h.chunk_id,
    content_with_weight: h.content_with_weight,
    doc_id: h.doc_id,
    docnm_kwd: h.docnm_kwd,
    kb_id: h.kb_id,
    important_kwd: h.important_kwd,
    image_id: h.image_id,
    positions: h.positions,
    similarity: h.similarity,
    vector_similarity: h.vector_similarity,
    term_similarity: h.term_similarity,
    doc_type_kwd: h.doc_type_kwd ?? '',
    tokens: h.content_ltks ? h.content_ltks.split(' ') : [],
    vector: vectors.get(h.chunk_id) ?? null,
  }));
  return { total: result.total, chunks, doc_aggs: result.doc_aggs };
}
