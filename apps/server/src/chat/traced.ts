/**
 * The chat pipeline's services seen through one request's trace (API.md §14): the chat model's
 * calls become generations, each knowledge-base retrieval a `retrieval` span (with the question
 * embedding and the rerank call under it), each web search a `web search` span, the citation
 * embedding a generation. The pipeline itself does not know it is traced.
 */
import type { Observation, Trace } from '../tracing/types.js';
import { tracedChatModel, tracedEmbeddingModel } from '../tracing/models.js';
import type { ChatServices } from './services.js';
import type { Knowledge } from './types.js';

/** What a span shows of retrieved knowledge: each piece's source, scores and text. */
function knowledgeOutput(k: Knowledge) {
  return {
    total: k.total,
    chunks: k.chunks.map((c) => ({
      chunk_id: c.chunk_id,
      doc_id: c.doc_id,
      docnm_kwd: c.docnm_kwd,
      similarity: c.similarity,
      vector_similarity: c.vector_similarity,
      term_similarity: c.term_similarity,
      content: c.content_with_weight,
    })),
  };
}

async function inSpan<T>(span: Observation, run: () => Promise<T>, output: (v: T) => unknown): Promise<T> {
  try {
    const value = await run();
    span.end({ output: output(value) });
    return value;
  } catch (err) {
    span.end({ error: err instanceof Error ? err.message : String(err) });
    throw err;
  }
}

export function tracedChatServices(svc: ChatServices, trace: Trace): ChatServices {
  return {
    ...svc,
    async chatModel(tenantId, modelId) {
      const resolved = await svc.chatModel(tenantId, modelId);
      return { ...resolved, model: tracedChatModel(resolved.model, trace) };
    },
    async embeddingModel(tenantId, kbIds) {
      const model = await svc.embeddingModel(tenantId, kbIds);
      return model ? tracedEmbeddingModel(model, trace, 'embed answer') : null;
    },
    retrieve(params) {
      const span = trace.span('retrieval', {
        question: params.question,
        kb_ids: params.kbIds,
        doc_ids: params.docIds,
        top_n: params.topN,
        top_k: params.topK,
        similarity_threshold: params.similarityThreshold,
        vector_similarity_weight: params.vectorSimilarityWeight,
        rerank_id: params.rerankId,
        use_kg: params.useKg,
      });
      return inSpan(span, () => svc.retrieve({ ...params, trace: span }), knowledgeOutput);
    },
    webSearch(apiKey, query, signal) {
      const span = trace.span('web search', { query });
      return inSpan(span, () => svc.webSearch(apiKey, query, signal), knowledgeOutput);
    },
  };
}
