/**
 * What a search (`conversation/ask`, `mindmap`, `related_questions`, the share page's searchbots)
 * runs with: without a `search_id`, the request's knowledge bases under the caller's access and the
 * search-app defaults; with one, the app's `search_config` — its knowledge bases (the request's when
 * the app names none), retrieval settings, chat model, document restriction and metadata filter —
 * under the app's tenant, whose owner chose those knowledge bases. The metadata filter travels in the
 * settings and is resolved by the retrieval itself (search/metadata-filter.ts), in the index.
 */
import type { AppContext } from '../../context.js';
import type { SearchSettings } from '../../chat/search-answer.js';
import { accessScopeOf, loadKbs, loadSearch, refusals } from '../../policy/index.js';
import { searchConfigOf, webSearchKeyOf } from './service.js';

export interface SearchPlan {
  /** The tenant whose models answer (the app's, else the caller's). */
  tenantId: string;
  kbIds: string[];
  /** Retrieval restricted to these documents (undefined = the whole KBs). */
  docIds?: string[];
  settings: SearchSettings;
}

/**
 * The plan of one search by `userId`. A `search_id` the caller may not use (unknown, removed, or of
 * a team it is not in) → 109 "No authorization."; a knowledge base the deciding tenant may not
 * read → 109 as well.
 */
export async function searchPlan(
  ctx: AppContext,
  userId: string,
  req: { kb_ids?: string[] | null; search_id?: string | null },
): Promise<SearchPlan> {
  const db = ctx.db.kysely;
  const requested = [...new Set(req.kb_ids ?? [])];
  if (!req.search_id) {
    if (requested.length > 0) await loadKbs(db, await accessScopeOf(db, userId), requested, 'read');
    return { tenantId: userId, kbIds: requested, settings: {} };
  }
  const row = await loadSearch(
    db,
    await accessScopeOf(db, userId),
    req.search_id,
    'read',
    refusals.noAuthorization,
  );
  const config = searchConfigOf(row);
  const kbIds = config.kb_ids.length > 0 ? [...new Set(config.kb_ids)] : requested;
  if (kbIds.length > 0) await loadKbs(db, await accessScopeOf(db, row.tenant_id), kbIds, 'read');
  return {
    tenantId: row.tenant_id,
    kbIds,
    docIds: config.doc_ids.length > 0 ? config.doc_ids : undefined,
    settings: {
      similarity_threshold: config.similarity_threshold,
      vector_similarity_weight: config.vector_similarity_weight,
      top_k: config.top_k,
      rerank_id: config.rerank_id,
      use_kg: config.use_kg,
      chat_id: config.chat_id,
      llm_setting: config.llm_setting,
      cross_languages: config.cross_languages,
      keyword: config.keyword,
      meta_data_filter: config.meta_data_filter,
      // `web_search` adds Tavily results to the summary's knowledge when the app has a key.
      ...(config.web_search && webSearchKeyOf(config) ? { tavily_api_key: webSearchKeyOf(config) } : {}),
    },
  };
}
