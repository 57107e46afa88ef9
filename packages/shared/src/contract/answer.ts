/**
 * Shapes of chat answers shared by `/v1/conversation`, the search page and the legacy `/v1/api`
 * (API.md §9, §10): messages, references (web and legacy chunk formats), SSE answer events.
 */
import { z } from 'zod';
import { jsonValue } from './common.js';
import { messageRoleSchema } from './enums.js';

/**
 * One message as the client sends it and the server stores it (API.md §18 conversation.message).
 * Not strict: the client may attach its own keys and they are stored and returned as given.
 */
export const chatMessageSchema = z.object({
  role: messageRoleSchema,
  content: z.string(),
  id: z.string().optional(),
  /** Epoch seconds (float). */
  created_at: z.number().optional(),
  doc_ids: z.array(z.string()).optional(),
  /** Attachments as the client describes them (free-form: stored and returned as given). */
  files: z.array(jsonValue).optional(),
  thumbup: z.boolean().optional(),
  feedback: z.string().optional(),
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;

/** One chunk of a reference in the web format (API.md §9 "Reference chunk format"). */
export const referenceChunkSchema = z.strictObject({
  id: z.string(),
  content: z.string(),
  document_id: z.string(),
  document_name: z.string(),
  dataset_id: z.string(),
  image_id: z.string(),
  positions: z.array(z.array(z.number())),
  url: z.string().nullable(),
  similarity: z.number(),
  vector_similarity: z.number(),
  term_similarity: z.number(),
  doc_type: z.string(),
});
export type ReferenceChunk = z.infer<typeof referenceChunkSchema>;

export const docAggRefSchema = z.strictObject({
  doc_name: z.string(),
  doc_id: z.string(),
  count: z.number(),
  url: z.string().optional(),
});
export type DocAgg = z.infer<typeof docAggRefSchema>;

/** A reference (web format): the final answer event's, and one per answer in a conversation. */
export const referenceSchema = z.strictObject({
  total: z.number().optional(),
  chunks: z.array(referenceChunkSchema),
  doc_aggs: z.array(docAggRefSchema),
});
export type Reference = z.infer<typeof referenceSchema>;

/**
 * A chunk in the legacy chat API's format (API.md §10): the stored raw chunk with `docnm_kwd`
 * renamed `doc_name`. Not strict: it is the retrieval record as stored, whose fields vary.
 */
export const legacyChunkSchema = z.object({
  chunk_id: z.string(),
  content_with_weight: z.string(),
  doc_id: z.string(),
  doc_name: z.string(),
  kb_id: z.string(),
  important_kwd: z.array(z.string()),
  image_id: z.string(),
  positions: z.array(z.array(z.number())),
  similarity: z.number(),
  vector_similarity: z.number(),
  term_similarity: z.number(),
  doc_type_kwd: z.string(),
  url: z.string().optional(),
});

export const legacyReferenceSchema = z.strictObject({
  total: z.number().optional(),
  chunks: z.array(legacyChunkSchema),
  doc_aggs: z.array(docAggRefSchema),
});

/** A conversation's `reference` list: one entry per answer; entries of failed answers may be null. */
export const referenceEntrySchema = referenceSchema.nullable();

const eventFields = {
  answer: z.string(),
  audio_binary: z.string().nullable(),
  prompt: z.string(),
  /** Epoch seconds (float). */
  created_at: z.number(),
  final: z.boolean(),
  start_to_think: z.literal(true).optional(),
  end_to_think: z.literal(true).optional(),
};

/** A delta event carries `{chunks: []}`; the final one the whole reference. */
const deltaReference = z.strictObject({ chunks: z.array(z.never()) });

/** `data` of an answer event of the SSE stream (API.md §9); the stream ends with `data: true`. */
export const answerEventSchema = z.strictObject({
  ...eventFields,
  reference: z.union([deltaReference, referenceSchema]),
  id: z.string(),
  session_id: z.string(),
});
export type AnswerEventData = z.infer<typeof answerEventSchema>;

/** The search page's stream (`conversation/ask`): answer events without message/session ids. */
export const askEventSchema = z.strictObject({
  ...eventFields,
  reference: z.union([deltaReference, referenceSchema]),
});

export const legacyAnswerEventSchema = z.strictObject({
  ...eventFields,
  reference: z.union([deltaReference, legacyReferenceSchema]),
  id: z.string(),
  session_id: z.string(),
});

/** The terminator event's `data`. */
export const streamEnd = z.literal(true);

/** The one envelope of a completion with `stream: false`: the final answer. */
export const finalAnswerSchema = z.strictObject({
  answer: z.string(),
  reference: referenceSchema,
  audio_binary: z.string().nullable(),
  prompt: z.string(),
  created_at: z.number(),
  id: z.string(),
  session_id: z.string(),
});

export const legacyFinalAnswerSchema = finalAnswerSchema.extend({ reference: legacyReferenceSchema });
