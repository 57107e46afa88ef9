/**
 * Chat retrieval (API.md §19.12 "chat (dialog)" and "search app" rows) through the one retrieval
 * entry point: only the live KBs the assistant's owner may read right now are searched (policy: a KB
 * deleted under an assistant, or a team KB of a team its owner left or was removed from, simply
 * drops out on the next question, API.md §1.6), the query is embedded with the KBs' embedding model
 * when one is usable (keyword-only otherwise), the assistant's rerank model replaces the vector score
 * when set. Hits come back as reference chunks with their content tokens and vectors for citation
 * insertion.
 */
import type { AppContext } from '../context.js';
import { accessScopeOf, readableKbs } from '../policy/index.js';
import { parseRetrievalParams } from '../search/retrieval-params.js';
import { runRetrieval } from '../search/run-retrieval.js';
import type { RetrieveParams as ChatRetrieveParams } from './services.js';
import type { Knowledge, RefChunk } from './types.js';

export async function retrieveForChat(ctx: AppContext, p: ChatRetrieveParams): Promise<Knowledge> {
  const empty: Knowledge = { total: 0, chunks: [], doc_aggs: [] };
  if (p.topN <= 0 || !p.question.trim()) return empty;
  const db = ctx.db.kysely;
  const kbs = p.kbIds.length
    ? await db
        .selectFrom('knowledgebase')
        .select(['id', 'tenant_id', 'embd_id', 'parser_config'])
        .where('id', 'in', p.kbIds)
        .where(readableKbs(await accessScopeOf(db, p.tenantId)))
        .execute()
    : [];
  if (kbs.length === 0) return empty;

  // Every value comes from the assistant (or the search app's configuration), which took its
  // defaults from its row of the §19.12 table when it was made; the chat row only checks them.
  const settings = parseRetrievalParams(
    {
      question: p.question,
      kbIds: kbs.map((kb) => kb.id),
      docIds: p.docIds ?? [],
      page: 1,
      size: p.topN,
      similarity_threshold: p.similarityThreshold,
      vector_similarity_weight: p.vectorSimilarityWeight,
      top_k: p.topK,
      rerank_id: p.rerankId,
      use_kg: p.useKg ?? false,
      toc_enhance: p.tocEnhance ?? false,
    },
    'chat',
  );
  const result = await runRetrieval(ctx, {
    caller: 'chat',
    kbs,
    settings,
    rerankTenantId: p.tenantId,
    withVectors: true,
    signal: p.signal,
    trace: p.trace,
    metaFilters: p.metaFilters,
    metaModel: { tenantId: p.tenantId, llmId: p.metaLlmId },
  });
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
    vector: result.vectors.get(h.chunk_id) ?? null,
  }));
  return { total: result.total, chunks, doc_aggs: result.doc_aggs };
}
