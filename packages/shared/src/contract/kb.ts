/** `/v1/kb` — knowledge bases (API.md §5). */
import { z } from 'zod';
import {
  done,
  epochMs,
  jsonObject,
  jsonValue,
  parserConfigSchema,
  timeFields,
  type ParserConfig,
} from './common.js';
import { KB_PERMISSIONS, kbPermissionSchema, PARSER_IDS, statusSchema } from './enums.js';
import { listPaging } from './paging.js';
import { route, routeChecked, typedAs } from './route.js';

/** `"YYYY-MM-DD HH:MM:SS"` of a KB task's end, or null (API.md §1.8 exception). */
const taskFinishAt = z.string().nullable();

/** Every column of a KB row as the contract shows rows (`kb/update`). */
const kbRowFields = {
  id: z.string(),
  tenant_id: z.string(),
  created_by: z.string(),
  name: z.string(),
  avatar: z.string().nullable(),
  language: z.string(),
  description: z.string().nullable(),
  embd_id: z.string(),
  permission: kbPermissionSchema,
  doc_num: z.number(),
  token_num: z.number(),
  chunk_num: z.number(),
  similarity_threshold: z.number(),
  vector_similarity_weight: z.number(),
  parser_id: z.enum(PARSER_IDS),
  pipeline_id: z.string().nullable(),
  parser_config: parserConfigSchema,
  pagerank: z.number(),
  graphrag_task_id: z.string().nullable(),
  graphrag_task_finish_at: taskFinishAt,
  raptor_task_id: z.string().nullable(),
  raptor_task_finish_at: taskFinishAt,
  mindmap_task_id: z.string().nullable(),
  mindmap_task_finish_at: taskFinishAt,
  status: statusSchema,
  ...timeFields,
};

/** `kb/detail` (API.md §5 "Detail object"). */
export const kbDetailSchema = z.strictObject({
  id: z.string(),
  embd_id: z.string(),
  avatar: z.string().nullable(),
  name: z.string(),
  language: z.string(),
  description: z.string().nullable(),
  permission: kbPermissionSchema,
  doc_num: z.number(),
  token_num: z.number(),
  chunk_num: z.number(),
  parser_id: z.enum(PARSER_IDS),
  pipeline_id: z.string().nullable(),
  pipeline_name: z.string().nullable(),
  pipeline_avatar: z.string().nullable(),
  parser_config: parserConfigSchema,
  pagerank: z.number(),
  graphrag_task_id: z.string().nullable(),
  graphrag_task_finish_at: taskFinishAt,
  raptor_task_id: z.string().nullable(),
  raptor_task_finish_at: taskFinishAt,
  mindmap_task_id: z.string().nullable(),
  mindmap_task_finish_at: taskFinishAt,
  create_time: epochMs,
  update_time: epochMs,
  /** Sum of the documents' sizes, bytes. */
  size: z.number(),
  /** Data-source connectors (none yet). */
  connectors: z.array(z.never()),
});
export type KbDetail = z.infer<typeof kbDetailSchema>;

/** A `kb/list` entry (`nickname`/`tenant_avatar` are the owner's). */
export const kbListItemSchema = z.strictObject({
  id: z.string(),
  avatar: z.string().nullable(),
  name: z.string(),
  language: z.string(),
  description: z.string().nullable(),
  tenant_id: z.string(),
  permission: kbPermissionSchema,
  doc_num: z.number(),
  token_num: z.number(),
  chunk_num: z.number(),
  parser_id: z.enum(PARSER_IDS),
  embd_id: z.string(),
  nickname: z.string().nullable(),
  tenant_avatar: z.string().nullable(),
  update_time: epochMs,
});
export type KbListItem = z.infer<typeof kbListItemSchema>;

export const kbListSchema = z.strictObject({ kbs: z.array(kbListItemSchema), total: z.number() });
export type KbListAnswer = z.infer<typeof kbListSchema>;

/** `[[tag, count], …]`, most frequent first. */
export const tagCountsSchema = z.array(z.tuple([z.string(), z.number()]));

/** The dataset-name checks answer 102 with their own messages (API.md §5), so the route checks `name`. */
const kbName = routeChecked<string>({ required: true });
/** parser_config: an object here; its values are checked against API.md §19.6 by the service. */
const parserConfigInput = typedAs<ParserConfig>()(jsonObject);

const createBody = z.object({
  name: kbName,
  description: z.string().nullable().optional(),
  language: z.string().max(32).optional(),
  permission: z.enum(KB_PERMISSIONS).optional(),
  avatar: z.string().nullable().optional(),
  parser_id: z.string().min(1).max(32).optional(),
  parser_config: parserConfigInput.optional(),
  embd_id: z.string().max(128).optional(),
  pagerank: z.number().int().min(0).max(100).optional(),
});

const updateBody = z.object({
  kb_id: z.string(),
  name: kbName,
  description: z.string().nullable(),
  parser_id: z.string().min(1).max(32),
  avatar: z.string().nullable().optional(),
  language: z.string().max(32).optional(),
  permission: z.enum(KB_PERMISSIONS).optional(),
  embd_id: z.string().max(128).optional(),
  parser_config: parserConfigInput.optional(),
  pagerank: z.number().int().min(0).max(100).optional(),
  pipeline_id: z.string().nullable().optional(),
});

/** Fields a client may never set on update (101 "Parameter <p> isn't allowed", API.md §5). */
export const KB_FORBIDDEN_FIELDS = [
  'id',
  'tenant_id',
  'created_by',
  'create_time',
  'update_time',
  'create_date',
  'update_date',
] as const;

/** `kb_ids`: a comma-separated list (or the parameter repeated); checked by the route (109 when empty). */
const kbIdsQuery = z.object({ kb_ids: routeChecked<string | string[]>().optional() });

/** `kb/check_embedding` (also the `data` of its code-10 answer). */
export const embeddingCheckSchema = z.strictObject({
  summary: z.strictObject({
    sampled: z.number(),
    valid: z.number(),
    avg_cos_sim: z.number(),
    min_cos_sim: z.number(),
    max_cos_sim: z.number(),
  }),
  results: z.array(
    z.strictObject({
      chunk_id: z.string(),
      doc_id: z.string(),
      doc_name: z.string(),
      cos_sim: z.number().nullable(),
    }),
  ),
});

export const kbContract = {
  create: route({
    method: 'POST',
    path: '/v1/kb/create',
    auth: 'login',
    body: createBody,
    data: z.strictObject({ kb_id: z.string() }),
  }),
  update: route({
    method: 'POST',
    path: '/v1/kb/update',
    auth: 'login',
    body: updateBody,
    /** The KB row merged with the request (API.md §5): the request's other keys come back too. */
    data: z.object(kbRowFields),
  }),
  detail: route({
    method: 'GET',
    path: '/v1/kb/detail',
    auth: 'login',
    query: z.object({ kb_id: z.string() }),
    data: kbDetailSchema,
  }),
  list: route({
    method: 'POST',
    path: '/v1/kb/list',
    auth: 'login',
    query: z.object({ ...listPaging, parser_id: routeChecked<string>().optional() }),
    body: z.object({ owner_ids: z.array(z.string()).optional() }),
    data: kbListSchema,
  }),
  rm: route({
    method: 'POST',
    path: '/v1/kb/rm',
    auth: 'login',
    body: z.object({ kb_id: z.string() }),
    data: done,
  }),
  /**
   * Who uses a KB (asked before deleting it): the caller's live assistants that list it, and how
   * many live assistants of any tenant do (`total`; a team KB may serve teammates' assistants too).
   */
  usage: route({
    method: 'GET',
    path: '/v1/kb/usage',
    auth: 'login',
    query: z.object({ kb_id: z.string() }),
    data: z.strictObject({
      dialogs: z.array(z.strictObject({ id: z.string(), name: z.string() })),
      total: z.number(),
    }),
  }),
  tags: route({ method: 'GET', path: '/v1/kb/:kb_id/tags', auth: 'login', data: tagCountsSchema }),
  tagsOfKbs: route({
    method: 'GET',
    path: '/v1/kb/tags',
    auth: 'login',
    query: kbIdsQuery,
    data: tagCountsSchema,
  }),
  rmTags: route({
    method: 'POST',
    path: '/v1/kb/:kb_id/rm_tags',
    auth: 'login',
    body: z.object({ tags: z.array(z.string()) }),
    data: done,
  }),
  renameTag: route({
    method: 'POST',
    path: '/v1/kb/:kb_id/rename_tag',
    auth: 'login',
    body: z.object({ from_tag: z.string(), to_tag: z.string().min(1) }),
    data: done,
  }),
  getMeta: route({
    method: 'GET',
    path: '/v1/kb/get_meta',
    auth: 'login',
    query: kbIdsQuery,
    /** `{<meta key>: {<value>: [doc_id…]}}` over the KBs' documents. */
    data: z.record(z.string(), z.record(z.string(), z.array(z.string()))),
  }),
  basicInfo: route({
    method: 'GET',
    path: '/v1/kb/basic_info',
    auth: 'login',
    /** Checked by the route: absent or empty → 101 'Lack of "KB ID"'. */
    query: z.object({ kb_id: routeChecked<string>() }),
    data: z.strictObject({
      processing: z.number(),
      finished: z.number(),
      failed: z.number(),
      cancelled: z.number(),
      downloaded: z.number(),
    }),
  }),
  updateMetadataSetting: route({
    method: 'POST',
    path: '/v1/kb/update_metadata_setting',
    auth: 'login',
    body: z.object({
      kb_id: z.string(),
      /** The metadata fields to extract: free-form, stored in `parser_config.metadata` as given. */
      metadata: jsonValue,
      enable_metadata: z.boolean().optional(),
    }),
    data: z.object(kbRowFields),
  }),
  checkEmbedding: route({
    method: 'POST',
    path: '/v1/kb/check_embedding',
    auth: 'login',
    body: z.object({
      kb_id: z.string(),
      embd_id: z.string(),
      check_num: z.number().int().min(1).max(100).optional(),
    }),
    data: embeddingCheckSchema,
  }),
  unbindTask: route({
    method: 'DELETE',
    path: '/v1/kb/unbind_task',
    auth: 'login',
    /** Checked by the route: 102 'Lack of "KB ID"' / "Invalid task type". */
    query: z.object({
      kb_id: routeChecked<string>(),
      pipeline_task_type: routeChecked<'graphrag' | 'raptor' | 'mindmap'>(),
    }),
    data: done,
  }),
};
