/**
 * `/api/v1` — the public API for integrators (API.md §17): `Authorization: Bearer <api key>` only,
 * success `{code: 0, data}`, errors `{code, message}`, field names renamed for outsiders
 * (`kb_id→dataset_id`, `parser_id→chunk_method`, `embd_id→embedding_model`, `*_num→*_count`, chunk
 * `content_with_weight→content`, `important_kwd→important_keywords`, `question_kwd→questions`,
 * `docnm_kwd→document_keyword`, document `run` as a word). Each route is a presentation over the same
 * services as `/v1`. Data objects are `z.looseObject` where stored, client-given keys come along.
 */
import { z } from 'zod';
import { jsonObject, jsonValue } from './common.js';
import { route, routeChecked } from './route.js';

const id = z.string();
const ids = z.object({ ids: z.array(z.string()).nullable().optional() });
const paging = {
  page: routeChecked<number | string>().optional(),
  page_size: routeChecked<number | string>().optional(),
  orderby: z.string().optional(),
  desc: z.string().optional(),
};

export const DOCUMENT_RUN_WORDS = ['UNSTART', 'RUNNING', 'CANCEL', 'DONE', 'FAIL', 'SCHEDULE'] as const;

export const datasetSchema = z.looseObject({
  id,
  name: z.string(),
  avatar: z.string().nullable(),
  description: z.string().nullable(),
  language: z.string(),
  permission: z.string(),
  tenant_id: z.string(),
  created_by: z.string(),
  embedding_model: z.string(),
  chunk_method: z.string(),
  parser_config: jsonObject,
  chunk_count: z.number(),
  document_count: z.number(),
  token_count: z.number(),
  pagerank: z.number(),
  similarity_threshold: z.number(),
  vector_similarity_weight: z.number(),
  create_time: z.number(),
  update_time: z.number(),
});

export const publicDocumentSchema = z.looseObject({
  id,
  name: z.string(),
  dataset_id: z.string(),
  chunk_method: z.string(),
  parser_config: jsonObject,
  run: z.enum(DOCUMENT_RUN_WORDS),
  size: z.number(),
  type: z.string(),
  chunk_count: z.number(),
  token_count: z.number(),
  progress: z.number(),
  progress_msg: z.string(),
  status: z.string(),
  meta_fields: jsonObject,
  create_time: z.number(),
  update_time: z.number(),
});

export const publicChunkSchema = z.looseObject({
  id,
  content: z.string(),
  document_id: z.string(),
  dataset_id: z.string().optional(),
  document_keyword: z.string().optional(),
  important_keywords: z.array(z.string()),
  questions: z.array(z.string()),
  available: z.boolean().optional(),
});

export const retrievalChunkSchema = z.looseObject({
  id,
  content: z.string(),
  document_id: z.string(),
  document_keyword: z.string(),
  dataset_id: z.string(),
  important_keywords: z.array(z.string()),
  similarity: z.number(),
  vector_similarity: z.number(),
  term_similarity: z.number(),
  positions: jsonValue,
  image_id: z.string(),
  highlight: z.string().optional(),
});

export const chatSchema = z.looseObject({
  id,
  name: z.string(),
  description: z.string().nullable(),
  avatar: z.string().nullable(),
  dataset_ids: z.array(z.string()),
  llm: z.looseObject({ model_name: z.string() }),
  prompt: z.looseObject({
    similarity_threshold: z.number(),
    keywords_similarity_weight: z.number(),
    top_n: z.number(),
    opener: z.string(),
    prompt: z.string(),
  }),
  create_time: z.number(),
  update_time: z.number(),
});

export const sessionSchema = z.looseObject({
  id,
  chat_id: z.string(),
  name: z.string(),
  messages: z.array(jsonObject),
  create_time: z.number().optional(),
  update_time: z.number().optional(),
});

/** An answer event of `/api/v1/chats/<id>/completions` (as `/v1/conversation/completion`). */
const answerEvent = z.looseObject({
  answer: z.string(),
  reference: jsonValue,
  id: z.string(),
  session_id: z.string(),
});

const chatBody = z.object({
  name: z.string().optional(),
  description: z.string().nullable().optional(),
  avatar: z.string().nullable().optional(),
  dataset_ids: z.array(z.string()).optional(),
  /** `{model_name, temperature, top_p, presence_penalty, frequency_penalty, max_tokens}` */
  llm: jsonObject.optional(),
  /** `{similarity_threshold, keywords_similarity_weight, top_n, variables, rerank_model, empty_response, opener, show_quote, prompt}` */
  prompt: jsonObject.optional(),
});

/** The OpenAI chat-completions request (`model`, `messages`, `stream`, `extra_body`). */
export const openaiBody = z.object({
  model: z.string().optional(),
  messages: routeChecked<Array<{ role: string; content: string }>>().optional(),
  stream: z.boolean().optional(),
  extra_body: routeChecked<{
    reference?: boolean;
    reference_metadata?: { include?: boolean; fields?: string[] };
    metadata_condition?: Record<string, unknown>;
  }>().optional(),
});

/** The non-streamed OpenAI answer, or (before any output) an error envelope `{code, message}` (plain JSON either way). */
export const openaiCompletionData = z.union([
  z.looseObject({
    id: z.string(),
    object: z.literal('chat.completion'),
    created: z.number(),
    model: z.string(),
    choices: z.array(
      z.looseObject({
        index: z.number(),
        message: z.looseObject({ role: z.literal('assistant'), content: z.string() }),
        finish_reason: z.string(),
      }),
    ),
    usage: z.strictObject({
      prompt_tokens: z.number(),
      completion_tokens: z.number(),
      total_tokens: z.number(),
    }),
  }),
  z.looseObject({ code: z.number().refine((n) => n !== 0), message: z.string() }),
]);

export const publicApiContract = {
  createDataset: route({
    method: 'POST',
    path: '/api/v1/datasets',
    auth: 'apiKey',
    body: z.object({
      name: routeChecked<string>({ required: true }),
      avatar: z.string().nullable().optional(),
      description: z.string().nullable().optional(),
      embedding_model: z.string().optional(),
      permission: z.enum(['me', 'team']).optional(),
      chunk_method: z.string().optional(),
      parser_config: jsonObject.optional(),
    }),
    data: datasetSchema,
  }),
  listDatasets: route({
    method: 'GET',
    path: '/api/v1/datasets',
    auth: 'apiKey',
    query: z.object({ ...paging, name: z.string().optional(), id: z.string().optional() }),
    data: z.array(datasetSchema),
  }),
  updateDataset: route({
    method: 'PUT',
    path: '/api/v1/datasets/:dataset_id',
    auth: 'apiKey',
    body: z.object({
      name: routeChecked<string>().optional(),
      avatar: z.string().nullable().optional(),
      description: z.string().nullable().optional(),
      embedding_model: z.string().optional(),
      permission: z.enum(['me', 'team']).optional(),
      chunk_method: z.string().optional(),
      parser_config: jsonObject.optional(),
      pagerank: z.number().int().min(0).max(100).optional(),
    }),
    data: datasetSchema,
  }),
  deleteDatasets: route({
    method: 'DELETE',
    path: '/api/v1/datasets',
    auth: 'apiKey',
    body: ids,
    data: z.null(),
  }),
  uploadDocuments: route({
    method: 'POST',
    path: '/api/v1/datasets/:dataset_id/documents',
    auth: 'apiKey',
    form: { fields: z.object({}), file: 'file' },
    data: z.array(publicDocumentSchema),
  }),
  listDocuments: route({
    method: 'GET',
    path: '/api/v1/datasets/:dataset_id/documents',
    auth: 'apiKey',
    query: z.object({
      ...paging,
      keywords: z.string().optional(),
      id: z.string().optional(),
      name: z.string().optional(),
    }),
    data: z.strictObject({ docs: z.array(publicDocumentSchema), total: z.number() }),
  }),
  updateDocument: route({
    method: 'PUT',
    path: '/api/v1/datasets/:dataset_id/documents/:document_id',
    auth: 'apiKey',
    body: z.object({
      name: z.string().optional(),
      meta_fields: jsonObject.optional(),
      chunk_method: z.string().optional(),
      parser_config: jsonObject.optional(),
      enabled: z.union([z.boolean(), z.number()]).optional(),
    }),
    data: publicDocumentSchema,
  }),
  downloadDocument: route({
    method: 'GET',
    path: '/api/v1/datasets/:dataset_id/documents/:document_id',
    auth: 'apiKey',
    kind: 'binary',
    contentType: 'from the file extension (API.md §1.1)',
  }),
  deleteDocuments: route({
    method: 'DELETE',
    path: '/api/v1/datasets/:dataset_id/documents',
    auth: 'apiKey',
    body: ids,
    data: z.null(),
  }),
  startParsing: route({
    method: 'POST',
    path: '/api/v1/datasets/:dataset_id/chunks',
    auth: 'apiKey',
    body: z.object({ document_ids: z.array(z.string()) }),
    data: z.null(),
  }),
  stopParsing: route({
    method: 'DELETE',
    path: '/api/v1/datasets/:dataset_id/chunks',
    auth: 'apiKey',
    body: z.object({ document_ids: z.array(z.string()) }),
    data: z.null(),
  }),
  listChunks: route({
    method: 'GET',
    path: '/api/v1/datasets/:dataset_id/documents/:document_id/chunks',
    auth: 'apiKey',
    query: z.object({ ...paging, keywords: z.string().optional() }),
    data: z.strictObject({
      chunks: z.array(publicChunkSchema),
      doc: publicDocumentSchema,
      total: z.number(),
    }),
  }),
  addChunk: route({
    method: 'POST',
    path: '/api/v1/datasets/:dataset_id/documents/:document_id/chunks',
    auth: 'apiKey',
    body: z.object({
      content: routeChecked<string>({ required: true }),
      important_keywords: routeChecked<string[]>().optional(),
      questions: routeChecked<string[]>().optional(),
    }),
    data: z.strictObject({ chunk: publicChunkSchema }),
  }),
  updateChunk: route({
    method: 'PUT',
    path: '/api/v1/datasets/:dataset_id/documents/:document_id/chunks/:chunk_id',
    auth: 'apiKey',
    body: z.object({
      content: routeChecked<string>().optional(),
      important_keywords: routeChecked<string[]>().optional(),
      questions: routeChecked<string[]>().optional(),
      available: z.boolean().optional(),
    }),
    data: z.null(),
  }),
  deleteChunks: route({
    method: 'DELETE',
    path: '/api/v1/datasets/:dataset_id/documents/:document_id/chunks',
    auth: 'apiKey',
    body: z.object({ chunk_ids: z.array(z.string()).nullable().optional() }),
    data: z.null(),
  }),
  retrieval: route({
    method: 'POST',
    path: '/api/v1/retrieval',
    auth: 'apiKey',
    body: z.object({
      question: z.string(),
      dataset_ids: z.array(z.string()).optional(),
      document_ids: z.array(z.string()).optional(),
      page: z.number().int().optional(),
      page_size: z.number().int().optional(),
      similarity_threshold: z.number().optional(),
      vector_similarity_weight: z.number().optional(),
      top_k: z.number().int().optional(),
      rerank_id: z.string().optional(),
      keyword: z.boolean().optional(),
      highlight: z.boolean().optional(),
      cross_languages: z.array(z.string()).optional(),
      use_kg: z.boolean().optional(),
      toc_enhance: z.boolean().optional(),
      /** `{logic, conditions:[{name, comparison_operator, value}]}` (API.md §6, §17; MetadataCondition). */
      metadata_condition: jsonObject.nullable().optional(),
    }),
    data: z.strictObject({
      total: z.number(),
      chunks: z.array(retrievalChunkSchema),
      doc_aggs: z.array(z.strictObject({ doc_name: z.string(), doc_id: z.string(), count: z.number() })),
    }),
  }),
  createChat: route({
    method: 'POST',
    path: '/api/v1/chats',
    auth: 'apiKey',
    body: chatBody,
    data: chatSchema,
  }),
  listChats: route({
    method: 'GET',
    path: '/api/v1/chats',
    auth: 'apiKey',
    query: z.object({ ...paging, name: z.string().optional(), id: z.string().optional() }),
    data: z.array(chatSchema),
  }),
  updateChat: route({
    method: 'PUT',
    path: '/api/v1/chats/:chat_id',
    auth: 'apiKey',
    body: chatBody,
    data: z.null(),
  }),
  deleteChats: route({ method: 'DELETE', path: '/api/v1/chats', auth: 'apiKey', body: ids, data: z.null() }),
  createSession: route({
    method: 'POST',
    path: '/api/v1/chats/:chat_id/sessions',
    auth: 'apiKey',
    body: z.object({ name: z.string().optional(), user_id: z.string().optional() }),
    data: sessionSchema,
  }),
  listSessions: route({
    method: 'GET',
    path: '/api/v1/chats/:chat_id/sessions',
    auth: 'apiKey',
    query: z.object({ ...paging, id: z.string().optional(), name: z.string().optional() }),
    data: z.array(sessionSchema),
  }),
  deleteSessions: route({
    method: 'DELETE',
    path: '/api/v1/chats/:chat_id/sessions',
    auth: 'apiKey',
    body: ids,
    data: z.null(),
  }),
  chatCompletion: route({
    method: 'POST',
    path: '/api/v1/chats/:chat_id/completions',
    auth: 'apiKey',
    kind: 'sse',
    body: z.object({
      question: z.string().optional(),
      stream: z.boolean().optional(),
      session_id: z.string().optional(),
      user_id: z.string().optional(),
    }),
    event: z.union([answerEvent, z.literal(true)]),
    data: answerEvent,
  }),
  chatsOpenai: route({
    method: 'POST',
    path: '/api/v1/chats_openai/:chat_id/chat/completions',
    auth: 'apiKey',
    /** Answers OpenAI's own objects (`chat.completion`, streamed `chat.completion.chunk` + `[DONE]`), not the envelope. */
    kind: 'plain',
    body: openaiBody,
    data: openaiCompletionData,
  }),
  sequence2txt: route({
    method: 'POST',
    path: '/api/v1/sequence2txt',
    auth: 'apiKey',
    kind: 'sse',
    form: { fields: z.object({ stream: z.string().optional() }), file: 'file' },
    event: z.strictObject({ event: z.enum(['final', 'error']), text: z.string() }),
    data: z.strictObject({ text: z.string() }),
  }),
  tts: route({
    method: 'POST',
    path: '/api/v1/tts',
    auth: 'apiKey',
    kind: 'binary',
    body: z.object({ text: z.string() }),
    contentType: 'audio/mpeg',
  }),
  openapi: route({
    method: 'GET',
    path: '/api/v1/openapi.json',
    auth: 'public',
    kind: 'plain',
    /** The OpenAPI 3.1 document generated from this contract (`buildOpenApi`). */
    data: z.looseObject({ openapi: z.literal('3.1.0'), info: jsonObject, paths: jsonObject }),
  }),
  docs: route({
    method: 'GET',
    path: '/api/v1/docs',
    auth: 'public',
    kind: 'binary',
    contentType: 'text/html; charset=utf-8',
  }),
};
