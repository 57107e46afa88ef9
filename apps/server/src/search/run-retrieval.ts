/**
 * The one retrieval entry point (API.md §19) for every caller: retrieval testing, chat, search apps,
 * and later agents and the public `/api/v1/retrieval`. The caller has already
 * - authorized the KBs (policy/ loaders: live and usable by the caller), and
 * - parsed its parameters with its defaults (`parseRetrievalParams(raw, caller)`, §19.12).
 * Here, in this order: the rerank model is resolved, the caller's own question rewrite runs
 * (keyword extraction, translation), the question is embedded with the KBs' embedding model
 * (keyword-only when none is usable), the question's tag labels are inferred when the caller's row
 * says so, the metadata filters are resolved into the index's document filter (./metadata-filter.ts:
 * no matching document → an empty result), and the hybrid `retrieve()` runs over the chunk index.
 */
import type { AppContext } from '../context.js';
import type { KnowledgebaseTable } from '../db/tables/knowledge.js';
import type { Observation } from '../tracing/types.js';
import { kgRetrieval } from '../graph/jobs/kg-retrieval.js';
import { parseJson } from '../db/json.js';
import { defaultModelId, modelFor } from '../models/registry.js';
import type { NormalizedMetaFilter } from './metadata-conditions.js';
import { resolveMetaFilters } from './metadata-filter.js';
import { questionLabels } from './labels.js';
import { planSearch } from '../chunk-index/query.js';
import { embedQuestion, rerankerFor } from './models.js';
import { RETRIEVAL_DEFAULTS, type RetrievalCaller } from './retrieval-defaults.js';
import type { RetrievalSettings } from './retrieval-params.js';
import { tocEnhance } from './toc-enhance.js';
import { retrieve, type RetrievalHit, type RetrievalResult } from './retrieval.js';

/** What a retrieval reads of a knowledge base. */
export type RetrievalKb = Pick<KnowledgebaseTable, 'id' | 'tenant_id' | 'embd_id' | 'parser_config'>;

export interface RetrievalRequest {
  caller: RetrievalCaller;
  /** Authorized live KBs; the first one's owner and embedding model embed the question. */
  kbs: readonly RetrievalKb[];
  /** Parsed parameters; `settings.rerankId` is resolved in `rerankTenantId`'s models. */
  settings: RetrievalSettings;
  rerankTenantId: string;
  /** The caller's question rewrite, run after the models are resolved and before embedding. */
  rewrite?: (question: string) => Promise<string>;
  /** Also hand back each hit's stored vector (citation insertion). */
  withVectors?: boolean;
  signal?: AbortSignal;
  /** The retrieval's span of a traced request: the question embedding and rerank calls go under it. */
  trace?: Observation;
  /** Metadata filters (the caller's stored one, a request's); all apply. Null entries are ignored. */
  metaFilters?: ReadonlyArray<NormalizedMetaFilter | null>;
  /**
   * The chat model an `auto` filter asks: `llmId` of `tenantId` (empty → the first KB's `llm_id`,
   * else the tenant's default chat model). Absent → the first KB's owner.
   */
  metaModel?: { tenantId: string; llmId?: string };
}

export interface RetrievalAnswer extends RetrievalResult {
  /** The question as searched (after the caller's rewrite). */
  question: string;
  /** Tag weights inferred for the question, or null (none inferred, or not asked for). */
  labels: Record<string, number> | null;
  /** Stored vectors of the hits when `withVectors` and the question was embedded. */
  vectors: Map<string, number[] | null>;
  /** Why an automatic metadata filter did not apply (model failure, unusable answer), if so. */
  metaNotes: string[];
}

/** The documents the metadata filters leave, or null when none applies. */
async function metaFilteredDocIds(ctx: AppContext, req: RetrievalRequest, notes: string[]) {
  const first = req.kbs[0];
  if (!req.metaFilters || req.metaFilters.every((f) => f === null) || !first) return null;
  const tenantId = req.metaModel?.tenantId ?? first.tenant_id;
  const outcome = await resolveMetaFilters(ctx, {
    kbIds: req.kbs.map((kb) => kb.id),
    docIds: req.settings.docIds,
    filters: req.metaFilters,
    question: req.settings.question,
    signal: req.signal,
    chatModel: async () => {
      const kbLlm = parseJson<Record<string, unknown>>(first.parser_config, {}).llm_id;
      const id =
        req.metaModel?.llmId ||
        (typeof kbLlm === 'string' && kbLlm) ||
        (await defaultModelId(ctx, tenantId, 'chat'));
      return modelFor(ctx, tenantId, id, 'chat');
    },
  });
  notes.push(...outcome.notes);
  return outcome.docIds;
}

export async function runRetrieval(ctx: AppContext, req: RetrievalRequest): Promise<RetrievalAnswer> {
  const row = RETRIEVAL_DEFAULTS[req.caller];
  const failures = row.modelFailures;
  const index = ctx.chunkIndex;
  const first = req.kbs[0];
  const { rerankId } = req.settings;
  const rerank = rerankId
    ? await rerankerFor(ctx, req.rerankTenantId, rerankId, failures, req.signal, req.trace)
    : null;
  const question = req.rewrite ? await req.rewrite(req.settings.question) : req.settings.question;
  // The query plan needs no vector: it is made (on a search thread) while the question is embedded.
  const plan = planSearch(index, question);
  plan.catch(() => undefined); // awaited by retrieve(); unused when an earlier step fails
  const queryVector = first
    ? await embedQuestion(ctx, first.tenant_id, first.embd_id, question, failures, req.signal, req.trace)
    : null;
  const labels = row.tagLabels ? await questionLabels(index, req.kbs, question) : null;
  const metaNotes: string[] = [];
  const filtered = await metaFilteredDocIds(ctx, req, metaNotes);
  if (filtered !== null && filtered.length === 0) {
    const nothing = { total: 0, chunks: [], doc_aggs: [], keywordOnly: queryVector === null, keywords: [] };
    return { ...nothing, candidates: 0, question, labels, vectors: new Map(), metaNotes };
  }
  const s = filtered === null ? req.settings : { ...req.settings, docIds: filtered };
  let result = await retrieve(index, {
    question,
    kbIds: req.kbs.map((kb) => kb.id),
    docIds: s.docIds,
    page: s.page,
    size: s.size,
    similarityThreshold: s.similarityThreshold,
    vectorSimilarityWeight: s.vectorSimilarityWeight,
    topK: s.topK,
    queryVector,
    rerank,
    tagWeights: labels,
    highlight: s.highlight,
    plan,
  });
  if (s.tocEnhance && s.page === 1 && result.chunks.length > 0) {
    result = await tocEnhance(ctx, { kbs: req.kbs, question, size: s.size, signal: req.signal }, result);
  }
  if (s.useKg && s.page === 1) {
    // use_kg (API.md §19.10): the knowledge-graph chunk goes first.
    const kg = await kgRetrieval(ctx, { kbs: req.kbs, question, queryVector, signal: req.signal });
    if (kg) {
      result.chunks = [kgHit(kg.content, req.kbs[0]?.id ?? ''), ...result.chunks];
      result.total += 1;
    }
  }
  const vectors = new Map<string, number[] | null>();
  if (req.withVectors && queryVector && result.chunks.length > 0) {
    for (const c of await index.getMany(result.chunks.map((h) => h.chunk_id))) vectors.set(c.id, c.vector);
  }
  return { ...result, question, labels, vectors, metaNotes };
}

/** The knowledge-graph chunk of `use_kg` as a result hit (API.md §7). */
export function kgHit(content: string, kbId: string): RetrievalHit {
  return {
    chunk_id: '',
    content_ltks: '',
    content_with_weight: content,
    doc_id: '',
    docnm_kwd: 'Related content in Knowledge Graph',
    kb_id: kbId,
    important_kwd: [],
    question_kwd: [],
    image_id: '',
    similarity: 1,
    vector_similarity: 1,
    term_similarity: 0,
    text_similarity: 0,
    positions: [],
    doc_type_kwd: null,
    mom_id: null,
  };
}
