/** `/v1/conversation` — conversations with an assistant, and the search page's calls (API.md §9). */
import { z } from 'zod';
import {
  answerEventSchema,
  askEventSchema,
  chatMessageSchema,
  finalAnswerSchema,
  referenceEntrySchema,
  streamEnd,
} from './answer.js';
import { done, timeFields } from './common.js';
import { mindMapNodeSchema } from './chunk.js';
import { sharedDialogSchema } from './dialog.js';
import { messageRoleSchema } from './enums.js';
import { route } from './route.js';

/** A conversation (API.md §9): messages, one reference per answer (web chunk format). */
export const conversationSchema = z.strictObject({
  id: z.string(),
  dialog_id: z.string(),
  name: z.string(),
  message: z.array(chatMessageSchema),
  reference: z.array(referenceEntrySchema),
  user_id: z.string(),
  ...timeFields,
  /** `get` only: the assistant's icon. */
  avatar: z.string().optional(),
});
export type Conversation = z.infer<typeof conversationSchema>;

/** `set` with `is_new: true`: the new conversation, greeted with the assistant's prologue. */
export const newConversationSchema = z.strictObject({
  id: z.string(),
  dialog_id: z.string(),
  name: z.string(),
  message: z.array(z.strictObject({ role: z.literal('assistant'), content: z.string() })),
  user_id: z.string(),
  reference: z.array(z.never()),
});

/** Messages of a completion request (the last one is the question). */
const requestMessage = z.looseObject({
  role: messageRoleSchema,
  content: z.string(),
  id: z.string().optional(),
  doc_ids: z.array(z.string()).optional(),
});

/**
 * A completion request. Loose: any other key is a value for a custom `{var}` of the assistant's
 * system prompt (API.md §8 parameters).
 */
export const completionBody = z.looseObject({
  conversation_id: z.string(),
  messages: z.array(requestMessage),
  stream: z.boolean().optional(),
  llm_id: z.string().nullable().optional(),
  temperature: z.number().nullable().optional(),
  top_p: z.number().nullable().optional(),
  frequency_penalty: z.number().nullable().optional(),
  presence_penalty: z.number().nullable().optional(),
  max_tokens: z.number().min(0).nullable().optional(),
  quote: z.boolean().optional(),
  /** Attachment document ids: a list or a comma-separated string. */
  doc_ids: z.union([z.string(), z.array(z.string())]).optional(),
});

const conversationIds = z.object({ conversation_ids: z.array(z.string()) });
const messageRef = { conversation_id: z.string(), message_id: z.string() };
const askBody = z.object({
  question: z.string(),
  kb_ids: z.array(z.string()),
  search_id: z.string().nullable().optional(),
});

/** A `sequence2txt` stream event (API.md §9). */
export const transcriptionEventSchema = z.strictObject({
  event: z.enum(['final', 'error']),
  text: z.string(),
});

export const conversationContract = {
  set: route({
    method: 'POST',
    path: '/v1/conversation/set',
    auth: 'login',
    body: z.object({
      is_new: z.boolean().nullable().optional(),
      conversation_id: z.string().min(1).max(64).nullable().optional(),
      dialog_id: z.string().nullable().optional(),
      name: z.string().nullable().optional(),
    }),
    /** New (`is_new: true`) → the new conversation; rename → the conversation. */
    data: z.union([newConversationSchema, conversationSchema]),
  }),
  get: route({
    method: 'GET',
    path: '/v1/conversation/get',
    auth: 'login',
    query: z.object({ conversation_id: z.string() }),
    data: conversationSchema,
  }),
  getsse: route({
    method: 'GET',
    path: '/v1/conversation/getsse/:dialog_id',
    auth: 'beta',
    data: sharedDialogSchema,
  }),
  list: route({
    method: 'GET',
    path: '/v1/conversation/list',
    auth: 'login',
    query: z.object({ dialog_id: z.string() }),
    data: z.array(conversationSchema),
  }),
  rm: route({
    method: 'POST',
    path: '/v1/conversation/rm',
    auth: 'login',
    body: conversationIds,
    data: done,
  }),
  /** Alias of `rm`. */
  remove: route({
    method: 'POST',
    path: '/v1/conversation/remove',
    auth: 'login',
    body: conversationIds,
    data: done,
  }),
  completion: route({
    method: 'POST',
    path: '/v1/conversation/completion',
    auth: 'login',
    kind: 'sse',
    body: completionBody,
    event: z.union([answerEventSchema, streamEnd]),
    data: finalAnswerSchema,
  }),
  /** Alias of `completion`. */
  chatCompletion: route({
    method: 'POST',
    path: '/v1/conversation/chat_completion',
    auth: 'login',
    kind: 'sse',
    body: completionBody,
    event: z.union([answerEventSchema, streamEnd]),
    data: finalAnswerSchema,
  }),
  deleteMsg: route({
    method: 'POST',
    path: '/v1/conversation/delete_msg',
    auth: 'login',
    body: z.object(messageRef),
    data: conversationSchema,
  }),
  thumbup: route({
    method: 'POST',
    path: '/v1/conversation/thumbup',
    auth: 'login',
    body: z.object({
      ...messageRef,
      thumbup: z.boolean().nullable().optional(),
      feedback: z.string().nullable().optional(),
    }),
    data: conversationSchema,
  }),
  tts: route({
    method: 'POST',
    path: '/v1/conversation/tts',
    auth: 'login',
    kind: 'binary',
    body: z.object({ text: z.string() }),
    contentType: 'audio/mpeg',
  }),
  ask: route({
    method: 'POST',
    path: '/v1/conversation/ask',
    auth: 'login',
    kind: 'sse',
    body: askBody,
    event: z.union([askEventSchema, streamEnd]),
  }),
  mindmap: route({
    method: 'POST',
    path: '/v1/conversation/mindmap',
    auth: 'login',
    body: askBody,
    data: mindMapNodeSchema,
  }),
  relatedQuestions: route({
    method: 'POST',
    path: '/v1/conversation/related_questions',
    auth: 'login',
    body: z.object({ question: z.string(), search_id: z.string().nullable().optional() }),
    data: z.array(z.string()),
  }),
  sequence2txt: route({
    method: 'POST',
    path: '/v1/conversation/sequence2txt',
    auth: 'login',
    kind: 'sse',
    /** `stream`: "true" for events; absent/other → one `{text}` answer. */
    form: { fields: z.object({ stream: z.string().optional() }), file: 'file' },
    /** Transcription events are not enveloped: `{event:"final"|"error", text}`. */
    event: transcriptionEventSchema,
    data: z.strictObject({ text: z.string() }),
  }),
};
