/**
 * Binds the chat pipeline's services to the real modules: model ports (models/registry),
 * hybrid retrieval over the chunk index (search/retrieval), Tavily web search, the search tokenizer,
 * the process's tracing port.
 */
import type { AppContext } from '../context.js';
import { errors } from '../errors.js';
import { defaultModelId, modelFor, resolveModel } from '../models/registry.js';
import { outboundPolicyOf } from '../net/index.js';
import { tokenize } from '../chunk-index/tokenizer.js';
import { retrieveForChat } from './retrieval-bridge.js';
import type { ChatServices } from './services.js';
import { createTableQueries } from './table-bridge.js';
import { tavilySearch } from './web-search.js';

/** Built once per process by the composition root (root.ts). */
export function createChatServices(ctx: AppContext): ChatServices {
  return {
    async chatModel(tenantId, modelId) {
      const id = modelId || (await defaultModelId(ctx, tenantId, 'chat'));
      if (!id) throw errors.data('No default chat model is set.');
      const spec = await resolveModel(ctx, tenantId, id, 'chat');
      const model = await modelFor(ctx, tenantId, id, 'chat');
      const window = spec.maxTokens > 0 ? spec.maxTokens : (spec.catalogue?.max_tokens ?? 8192);
      return { model, contextTokens: window };
    },
    async embeddingModel(tenantId, kbIds) {
      const kb = await ctx.db.kysely
        .selectFrom('knowledgebase')
        .select(['embd_id', 'tenant_id'])
        .where('id', 'in', kbIds.length > 0 ? kbIds : [''])
        .where('status', '=', '1')
        .executeTakeFirst();
      if (!kb?.embd_id) return null;
      try {
        return await modelFor(ctx, kb.tenant_id || tenantId, kb.embd_id, 'embedding');
      } catch {
        return null;
      }
    },
    async ttsModel(tenantId) {
      const id = await defaultModelId(ctx, tenantId, 'tts');
      if (!id) return null;
      return modelFor(ctx, tenantId, id, 'tts');
    },
    retrieve: async (params) => retrieveForChat(ctx, params),
    ...createTableQueries(ctx),
    webSearch: (apiKey, query, signal) =>
      tavilySearch(apiKey, query, {
        signal,
        baseUrl: ctx.config.tavilyBaseUrl,
        policy: outboundPolicyOf(ctx.config),
      }),
    tokenize: (text) => tokenize(text),
    startTrace: (tenantId, start) => ctx.tracing.start(tenantId, start),
  };
}
