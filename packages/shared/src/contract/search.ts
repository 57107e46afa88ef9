/**
 * `/v1/search` — search apps (API.md §15): a named search page of a tenant whose `search_config`
 * drives `conversation/ask`, `mindmap` and `related_questions` when they get its `search_id`; and the
 * share page's routes `/api/v1/searchbots/*` (API.md §17), authorized by a beta token.
 */
import { z } from 'zod';
import { askEventSchema, streamEnd } from './answer.js';
import { done, timeFields } from './common.js';
import { listPaging } from './paging.js';
import { mindMapNodeSchema, retrievalAnswerSchema } from './chunk.js';
import { statusSchema } from './enums.js';
import { route, routeChecked } from './route.js';

/** The defaults of API.md §15, filled in when a search app is made. */
export const DEFAULT_SEARCH_CONFIG = {
  kb_ids: [] as string[],
  doc_ids: [] as string[],
  similarity_threshold: 0.2,
  vector_similarity_weight: 0.3,
  use_kg: false,
  rerank_id: '',
  top_k: 1024,
  summary: false,
  chat_id: '',
  llm_setting: {} as Record<string, unknown>,
  cross_languages: [] as string[],
  highlight: false,
  keyword: false,
  web_search: false,
  related_search: false,
  query_mindmap: false,
  meta_data_filter: {} as Record<string, unknown>,
};

/**
 * A stored `search_config`: the keys above as the server reads them. Not strict: other keys the
 * client stored come back as given (the update shallow-merges).
 */
export const searchConfigSchema = z.looseObject({
  kb_ids: z.array(z.string()),
  doc_ids: z.array(z.string()),
  similarity_threshold: z.number(),
  vector_similarity_weight: z.number(),
  use_kg: z.boolean(),
  rerank_id: z.string(),
  top_k: z.number(),
  summary: z.boolean(),
  /** The chat model of the AI summary, related questions and mind map ("" = the tenant's default). */
  chat_id: z.string(),
  llm_setting: z.looseObject({}),
  cross_languages: z.array(z.string()),
  highlight: z.boolean(),
  keyword: z.boolean(),
  /** Adds web results (Tavily) to the AI summary's knowledge when the app has a key. */
  web_search: z.boolean(),
  /**
   * The app's Tavily key, always shown masked (`maskSecret`); sending the shown value back keeps the
   * stored key, `""` removes it. Absent until one is set.
   */
  tavily_api_key: z.string().optional(),
  related_search: z.boolean(),
  query_mindmap: z.boolean(),
  /** `{method: "disabled"|"manual", manual: [{key, op, value}]}` — a filter over document metadata. */
  meta_data_filter: z.looseObject({}),
});
export type SearchConfig = z.infer<typeof searchConfigSchema>;

export const searchAppSchema = z.strictObject({
  id: z.string(),
  avatar: z.string().nullable(),
  tenant_id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  created_by: z.string(),
  search_config: searchConfigSchema,
  status: statusSchema,
  ...timeFields,
});
export type SearchApp = z.infer<typeof searchAppSchema>;

export const searchAppListItemSchema = z.strictObject({
  id: z.string(),
  avatar: z.string().nullable(),
  tenant_id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  created_by: z.string(),
  status: statusSchema,
  update_time: z.number(),
  create_time: z.number(),
  nickname: z.string(),
  tenant_avatar: z.string().nullable(),
});
export type SearchAppListItem = z.infer<typeof searchAppListItemSchema>;

/** What a client may send in `search_config` (any subset; checked by the service with 100/102 messages). */
export type SearchConfigInput = Partial<SearchConfig>;

const searchId = z.object({ search_id: z.string() });

export const searchContract = {
  create: route({
    method: 'POST',
    path: '/v1/search/create',
    auth: 'login',
    body: z.object({
      /** Checked by the service: 102 with the messages of API.md §15. */
      name: routeChecked<string>({ required: true }),
      description: z.string().nullable().optional(),
    }),
    data: z.strictObject({ search_id: z.string() }),
  }),
  update: route({
    method: 'POST',
    path: '/v1/search/update',
    auth: 'login',
    body: z.object({
      search_id: z.string(),
      name: routeChecked<string>({ required: true }),
      /** Shallow-merged over the stored config; not an object → 102 "search_config must be a JSON object". */
      search_config: routeChecked<SearchConfigInput>({ required: true }),
      tenant_id: z.string(),
      description: z.string().nullable().optional(),
      avatar: z.string().nullable().optional(),
    }),
    data: searchAppSchema,
  }),
  detail: route({
    method: 'GET',
    path: '/v1/search/detail',
    auth: 'login',
    query: z.object({ search_id: routeChecked<string>().optional() }),
    data: searchAppSchema,
  }),
  list: route({
    method: 'POST',
    path: '/v1/search/list',
    auth: 'login',
    query: z.object(listPaging),
    body: z.object({ owner_ids: z.array(z.string()).nullable().optional() }),
    data: z.strictObject({ search_apps: z.array(searchAppListItemSchema), total: z.number() }),
  }),
  rm: route({ method: 'POST', path: '/v1/search/rm', auth: 'login', body: searchId, data: done }),
};

// ---- Share page: /api/v1/searchbots/* with the beta token (API.md §17) --------------------------

/** The search app as the share page sees it (no tenant internals beyond the row). */
export const sharedSearchAppSchema = searchAppSchema;

const botAsk = z.object({
  question: z.string(),
  search_id: z.string(),
  kb_ids: z.array(z.string()).nullable().optional(),
});

export const searchBotsContract = {
  detail: route({
    method: 'GET',
    path: '/api/v1/searchbots/detail',
    auth: 'beta',
    query: z.object({ search_id: z.string() }),
    data: sharedSearchAppSchema,
  }),
  ask: route({
    method: 'POST',
    path: '/api/v1/searchbots/ask',
    auth: 'beta',
    kind: 'sse',
    body: botAsk,
    event: z.union([askEventSchema, streamEnd]),
  }),
  retrievalTest: route({
    method: 'POST',
    path: '/api/v1/searchbots/retrieval_test',
    auth: 'beta',
    body: z.object({
      question: z.string(),
      search_id: z.string(),
      kb_id: z
        .union([z.string(), z.array(z.string())])
        .nullable()
        .optional(),
      page: z.number().int().min(1).optional(),
      size: z.number().int().min(1).optional(),
      doc_ids: z.array(z.string()).nullable().optional(),
    }),
    data: retrievalAnswerSchema,
  }),
  relatedQuestions: route({
    method: 'POST',
    path: '/api/v1/searchbots/related_questions',
    auth: 'beta',
    body: z.object({ question: z.string(), search_id: z.string() }),
    data: z.array(z.string()),
  }),
  mindmap: route({
    method: 'POST',
    path: '/api/v1/searchbots/mindmap',
    auth: 'beta',
    body: botAsk,
    data: mindMapNodeSchema,
  }),
};
