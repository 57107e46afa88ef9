/**
 * agent-core's `RetrievalPort` on the one retrieval entry point (`runRetrieval`, caller `agent`,
 * API.md §19.12): the component's datasets (ids or names) are resolved among the KBs the running
 * tenant may read (policy), its parameters are checked and defaulted by the `agent` row, and the
 * hits come back in RAGFlow's raw chunk fields. With `trace`, each retrieval is a `retrieval` span of
 * it (the question embedding and the rerank call under it).
 */
import type { RetrievalPort, RetrievalRequest, RetrievalResult } from '@lectern/agent-core';
import type { AppContext } from '../context.js';
import { accessScopeOf, readableKbs } from '../policy/index.js';
import { parseRetrievalParams } from '../search/retrieval-params.js';
import { runRetrieval } from '../search/run-retrieval.js';
import { normalizeMetaDataFilter } from '../search/metadata-conditions.js';
import type { Observation } from '../tracing/types.js';

export function agentRetrievalPort(ctx: AppContext, tenantId: string, trace?: Observation): RetrievalPort {
  const { retrieve } = retrieveWith(ctx, tenantId);
  if (!trace) return { retrieve: (req, o) => retrieve(req, o) };
  return {
    async retrieve(req, options) {
      const span = trace.span('retrieval', {
        query: req.query,
        datasets: req.datasets,
        top_n: req.topN,
        top_k: req.topK,
        similarity_threshold: req.similarityThreshold,
        vector_similarity_weight: req.vectorSimilarityWeight,
        rerank_id: req.rerankId,
      });
      try {
        const result = await retrieve(req, options, span);
        span.end({ output: { chunks: result.chunks } });
        return result;
      } catch (err) {
        span.end({ error: err instanceof Error ? err.message : String(err) });
        throw err;
      }
    },
  };
}

function retrieveWith(ctx: AppContext, tenantId: string) {
  return {
    async retrieve(
      req: RetrievalRequest,
      { signal }: { signal: AbortSignal },
      trace?: Observation,
    ): Promise<RetrievalResult> {
      if (req.from === 'memory') throw new Error('Memory retrieval is not available.');
      if (req.datasets.length === 0) throw new Error('No dataset is selected.');
      const db = ctx.db.kysely;
      const scope = await accessScopeOf(db, tenantId);
      const rows = await db
        .selectFrom('knowledgebase')
        .select(['id', 'name', 'tenant_id', 'embd_id', 'parser_config'])
        .where(readableKbs(scope))
        .where((eb) => eb.or([eb('id', 'in', req.datasets), eb('name', 'in', req.datasets)]))
        .execute();
      for (const d of req.datasets)
        if (!rows.some((r) => r.id === d || r.name === d)) throw new Error(`Dataset(${d}) does not exist.`);
      const embd = new Set(rows.map((r) => r.embd_id));
      if (embd.size > 1) throw new Error('Datasets use different embedding models.');
      if (!req.query.trim()) return { chunks: [], docAggs: [] };
      const settings = parseRetrievalParams(
        {
          question: req.query,
          kbIds: rows.map((r) => r.id),
          size: req.topN,
          similarity_threshold: req.similarityThreshold,
          vector_similarity_weight: req.vectorSimilarityWeight,
          top_k: req.topK,
          rerank_id: req.rerankId,
          cross_languages: req.crossLanguages,
          use_kg: req.useKg,
          toc_enhance: req.tocEnhance,
        },
        'agent',
      );
      const result = await runRetrieval(ctx, {
        caller: 'agent',
        kbs: rows,
        settings,
        rerankTenantId: tenantId,
        signal,
        trace,
        metaFilters: [normalizeMetaDataFilter(req.metaDataFilter)],
        metaModel: { tenantId },
      });
      return {
        chunks: result.chunks.map((h) => ({
          chunk_id: h.chunk_id,
          content_with_weight: h.content_with_weight,
          doc_id: h.doc_id,
          docnm_kwd: h.docnm_kwd,
          kb_id: h.kb_id,
          similarity: h.similarity,
          vector_similarity: h.vector_similarity,
          term_similarity: h.term_similarity,
          important_kwd: h.important_kwd,
          image_id: h.image_id,
          positions: h.positions,
          doc_type_kwd: h.doc_type_kwd ?? '',
        })),
        docAggs: result.doc_aggs.map((a) => ({ ...a })),
      };
    },
  };
}
