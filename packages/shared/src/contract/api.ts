/**
 * `/v1/api` — assistant API keys, statistics, and the legacy external chat API (API.md §10). The
 * legacy routes authenticate with the assistant's API key themselves (`auth: 'apiKey'`).
 */
import { z } from 'zod';
import {
  chatMessageSchema,
  legacyAnswerEventSchema,
  legacyFinalAnswerSchema,
  legacyReferenceSchema,
  streamEnd,
} from './answer.js';
import { apiTokenSchema, done, timeFields } from './common.js';
import { completionBody } from './conversation.js';
import { route, routeChecked } from './route.js';

/** `[[date, value], …]` per day (RFC 1123 dates). */
const daily = z.array(z.tuple([z.string(), z.number()]));

/** `api/stats`: SPEC's messages, active users, token speed, tokens consumed (thousands), rounds, satisfaction. */
export const chatStatsSchema = z.strictObject({
  pv: daily,
  uv: daily,
  speed: daily,
  tokens: daily,
  round: daily,
  thumb_up: daily,
});
export type ChatStats = z.infer<typeof chatStatsSchema>;

/** A legacy API session (`api_4_conversation` row); reference chunks carry `doc_name`. */
export const apiSessionSchema = z.strictObject({
  id: z.string(),
  dialog_id: z.string(),
  name: z.string(),
  message: z.array(chatMessageSchema),
  reference: z.array(legacyReferenceSchema.nullable()),
  user_id: z.string(),
  ...timeFields,
  exp_user_id: z.string().nullable(),
  tokens: z.number(),
  source: z.string().nullable(),
  duration: z.number(),
  round: z.number(),
  thumb_up: z.number(),
  errors: z.string().nullable(),
});

export const apiContract = {
  newToken: route({
    method: 'POST',
    path: '/v1/api/new_token',
    auth: 'login',
    /** One of them: an assistant's id, or an agent's (`source: "agent"`). */
    body: z.object({
      dialog_id: z.string().nullable().optional(),
      canvas_id: z.string().nullable().optional(),
    }),
    data: apiTokenSchema,
  }),
  tokenList: route({
    method: 'GET',
    path: '/v1/api/token_list',
    auth: 'login',
    query: z.object({ dialog_id: z.string().optional(), canvas_id: z.string().optional() }),
    data: z.array(apiTokenSchema),
  }),
  rm: route({
    method: 'POST',
    path: '/v1/api/rm',
    auth: 'login',
    body: z.object({ tokens: z.array(z.string()), tenant_id: z.string() }),
    data: done,
  }),
  stats: route({
    method: 'GET',
    path: '/v1/api/stats',
    auth: 'login',
    /** Dates `YYYY-MM-DD[ HH:MM:SS]`; `canvas_id` present → agent sessions. */
    query: z.object({
      from_date: z.string().optional(),
      to_date: z.string().optional(),
      canvas_id: z.string().optional(),
    }),
    data: chatStatsSchema,
  }),
  newConversation: route({
    method: 'GET',
    path: '/v1/api/new_conversation',
    auth: 'apiKey',
    /** The caller's own end-user id. */
    query: z.object({ user_id: z.string().optional() }),
    data: z.strictObject({
      id: z.string(),
      dialog_id: z.string(),
      user_id: z.string(),
      message: z.array(z.strictObject({ role: z.literal('assistant'), content: z.string() })),
    }),
  }),
  conversation: route({
    method: 'GET',
    path: '/v1/api/conversation/:id',
    auth: 'apiKey',
    data: apiSessionSchema,
  }),
  completion: route({
    method: 'POST',
    path: '/v1/api/completion',
    auth: 'apiKey',
    kind: 'sse',
    body: completionBody,
    event: z.union([legacyAnswerEventSchema, streamEnd]),
    data: legacyFinalAnswerSchema,
  }),
  uploadAndParse: route({
    method: 'POST',
    path: '/v1/api/document/upload_and_parse',
    auth: 'apiKey',
    form: { fields: z.object({ conversation_id: z.string() }), file: 'file' },
    data: z.array(z.string()),
  }),
  removeDocuments: route({
    method: 'DELETE',
    path: '/v1/api/document',
    auth: 'apiKey',
    /** By name and/or id; non-string items are ignored, none at all → 102 "Can't find doc_names or doc_ids". */
    body: z.object({
      doc_names: routeChecked<string[]>().optional(),
      doc_ids: routeChecked<string[]>().optional(),
    }),
    data: done,
  }),
};
