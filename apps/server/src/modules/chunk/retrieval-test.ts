/**
 * `POST /v1/chunk/retrieval_test` (API.md §7, §19): checks everything first (nothing is read from
 * the index or a model before the request is known to be valid and allowed: parameters parsed with the
 * retrieval_test defaults of §19.12, KBs through the access policy), then runs the one retrieval entry
 * point (`runRetrieval`) with its own question rewrite (keyword extraction, translation).
 *
 * Keyword-only: when the KBs' embedding model is not usable (none set, no credentials, the bundled
 * model without its files) the question is not embedded; candidates and scores then come from the
 * text alone, and the answer says so with `keyword_only: true` and a readable `notice` sentence
 * (`keyword_only: false`, `notice: null` otherwise). `labels` keeps its contract meaning (tag weights
 * of the question, or null).
 */
import type { AppContext } from '../../context.js';
import { parseJson } from '../../db/json.js';
import type { UserTable } from '../../db/types.js';
import { ApiError, errors } from '../../http/envelope.js';
import { defaultModelId, modelFor } from '../../models/registry.js';
import { accessScopeOf, loadRetrievalKbs } from '../../policy/index.js';
import { extractKeywords, translateQuestion } from '../../chat/llm-tasks.js';
import { guarded } from '../../search/models.js';
import { normalizeMetaDataFilter } from '../../search/metadata-conditions.js';
import {
  parseRetrievalParams,
  RetrievalParamError,
  type RetrievalSettings,
} from '../../search/retrieval-params.js';
import { runRetrieval } from '../../search/run-retrieval.js';
import type { KnowledgebaseTable } from '../../db/tables/knowledge.js';
import { presentHit } from './presenter.js';
import type { BodyOf, contract } from '@lectern/shared';

type RetrievalBody = BodyOf<typeof contract.chunk.retrievalTest>;

export const KEYWORD_ONLY_NOTICE =
  'No embedding model is available for the selected knowledge bases, so retrieval used keyword matching only (vector similarity is 0).';

/** `kb_id` is a string or a list of strings; empty → 102 "Please specify dataset firstly.". */
export function kbIdsOf(value: unknown): string[] {
  const list = Array.isArray(value) ? value : [value];
  if (!list.every((v) => typeof v === 'string')) {
    throw errors.exception('`kb_id` must be a string or a list of strings.');
  }
  const ids = [...new Set((list as string[]).map((v) => v.trim()).filter(Boolean))];
  if (ids.length === 0) throw errors.data('Please specify dataset firstly.');
  return ids;
}

/** Retrieval parameter errors answer as envelopes (100, or 102 for no dataset). */
export async function checked<T>(fn: () => Promise<T> | T): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof RetrievalParamError) throw new ApiError(err.code, err.message);
    throw err;
  }
}

/** Every KB must be one the caller may use (103 otherwise), live (102), and share one embedding model. */
export async function usableKbs(
  ctx: AppContext,
  user: UserTable,
  ids: string[],
): Promise<KnowledgebaseTable[]> {
  const db = ctx.db.kysely;
  const live = await loadRetrievalKbs(db, await accessScopeOf(db, user.id), ids);
  const models = [...new Set(live.map((kb) => kb.embd_id ?? ''))];
  if (models.length > 1) {
    throw errors.data(
      `The selected knowledge bases use different embedding models (${models.map((m) => m || 'none').join(', ')}); retrieval can only search knowledge bases that share one embedding model.`,
    );
  }
  return live;
}

/** `keyword:true` and `cross_languages` rewrite the question with the KB owner's chat model first. */
export async function rewrittenQuestion(
  ctx: AppContext,
  kb: KnowledgebaseTable,
  settings: RetrievalSettings,
  question: string,
): Promise<string> {
  const languages = settings.crossLanguages.filter((l) => l.trim() !== '');
  if (!settings.keyword && languages.length === 0) return question;
  const llmId = parseJson<Record<string, unknown>>(kb.parser_config, {}).llm_id;
  const chatId = (typeof llmId === 'string' && llmId) || (await defaultModelId(ctx, kb.tenant_id, 'chat'));
  const model = await modelFor(ctx, kb.tenant_id, chatId, 'chat');
  let out = question;
  if (languages.length > 0)
    out = (await guarded('Translating the question', () => translateQuestion(model, out, languages))) ?? out;
  if (settings.keyword) {
    const keywords = await guarded('Keyword extraction', () => extractKeywords(model, out));
    if (keywords) out = `${out} ${keywords}`;
  }
  return out;
}

export async function retrievalTest(ctx: AppContext, user: UserTable, body: RetrievalBody) {
  const kbIds = kbIdsOf(body.kb_id);
  const settings = await checked(() =>
    parseRetrievalParams(
      {
        question: body.question,
        kbIds,
        docIds: body.doc_ids,
        page: body.page,
        size: body.size,
        similarity_threshold: body.similarity_threshold,
        vector_similarity_weight: body.vector_similarity_weight,
        top_k: body.top_k,
        rerank_id: body.rerank_id,
        keyword: body.keyword,
        cross_languages: body.cross_languages,
        use_kg: body.use_kg,
        highlight: body.highlight,
      },
      'retrieval_test',
    ),
  );
  const kbs = await usableKbs(ctx, user, kbIds);
  const result = await checked(() =>
    runRetrieval(ctx, {
      caller: 'retrieval_test',
      kbs,
      settings,
      rerankTenantId: user.id,
      rewrite: (question) => rewrittenQuestion(ctx, kbs[0], settings, question),
      metaFilters: [normalizeMetaDataFilter(body.meta_data_filter)],
    }),
  );
  return {
    total: result.total,
    chunks: result.chunks.map(presentHit),
    doc_aggs: result.doc_aggs,
    labels: result.labels,
    keyword_only: result.keywordOnly,
    notice: result.keywordOnly ? KEYWORD_ONLY_NOTICE : null,
  };
}
