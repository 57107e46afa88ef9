/**
 * `/api/v1` agents (API.md §17): agent CRUD (`title, dsl, description`), agent sessions and
 * completions with an API key, the OpenAI-compatible agent route, and the embed pages' bots
 * (`chatbots`, `agentbots`) with the beta token. Each is a presentation over the `/v1/canvas` and
 * chat services; the run events are the bare events of API.md §13.2.
 */
import { z } from 'zod';
import { answerEventSchema, finalAnswerSchema, streamEnd } from './answer.js';
import { canvasDslSchema } from './canvas.js';
import { canvasRunEventSchema, canvasSessionCompletionBody } from './canvas-run.js';
import { epochMs, jsonObject, jsonValue } from './common.js';
import { openaiBody, openaiCompletionData } from './public-api.js';
import { route, routeChecked } from './route.js';

const paging = {
  page: routeChecked<number | string>().optional(),
  page_size: routeChecked<number | string>().optional(),
  orderby: z.string().optional(),
  desc: z.string().optional(),
};

/** An agent as outsiders see it: the canvas row. */
export const publicAgentSchema = z.looseObject({
  id: z.string(),
  title: z.string(),
  avatar: z.string().nullable(),
  description: z.string().nullable(),
  dsl: canvasDslSchema,
  permission: z.string(),
  canvas_category: z.string(),
  user_id: z.string(),
  create_time: epochMs,
  update_time: epochMs,
});

/** An agent session (`api_4_conversation`, source "agent"); assistant messages carry their reference chunks. */
export const publicAgentSessionSchema = z.looseObject({
  id: z.string(),
  agent_id: z.string(),
  name: z.string(),
  user_id: z.string(),
  messages: z.array(jsonObject),
  source: z.literal('agent'),
  /** Absent when listed with `dsl=false`. */
  dsl: canvasDslSchema.optional(),
  create_time: epochMs,
  update_time: epochMs,
});

/** The run of `stream: false`: the last event, with the whole answer, its reference and (asked) the trace. */
const agentAnswerSchema = z.looseObject({
  event: z.string(),
  message_id: z.string(),
  session_id: z.string(),
  data: z.looseObject({
    content: z.string(),
    reference: jsonValue,
    trace: z.array(jsonObject).optional(),
  }),
});

const agentBody = z.object({
  title: routeChecked<string>().optional(),
  /** The DSL as an object or as JSON text (RAGFlow's SDK sends either). */
  dsl: routeChecked<Record<string, unknown> | string>().optional(),
  description: z.string().nullable().optional(),
});

/** `POST /api/v1/agents/<id>/completions` and the agentbot: the session-run body of `/v1` with `stream`. */
const agentCompletionBody = canvasSessionCompletionBody.extend({ stream: z.boolean().optional() });

export const publicAgentsContract = {
  listAgents: route({
    method: 'GET',
    path: '/api/v1/agents',
    auth: 'apiKey',
    query: z.object({ ...paging, id: z.string().optional(), title: z.string().optional() }),
    data: z.array(publicAgentSchema),
  }),
  createAgent: route({
    method: 'POST',
    path: '/api/v1/agents',
    auth: 'apiKey',
    body: agentBody,
    data: publicAgentSchema,
  }),
  updateAgent: route({
    method: 'PUT',
    path: '/api/v1/agents/:agent_id',
    auth: 'apiKey',
    body: agentBody,
    data: z.literal(true),
  }),
  deleteAgent: route({
    method: 'DELETE',
    path: '/api/v1/agents/:agent_id',
    auth: 'apiKey',
    data: z.literal(true),
  }),
  createAgentSession: route({
    method: 'POST',
    path: '/api/v1/agents/:agent_id/sessions',
    auth: 'apiKey',
    query: z.object({ user_id: z.string().optional() }),
    body: z.object({ name: z.string().optional(), user_id: z.string().optional() }),
    data: publicAgentSessionSchema,
  }),
  listAgentSessions: route({
    method: 'GET',
    path: '/api/v1/agents/:agent_id/sessions',
    auth: 'apiKey',
    query: z.object({
      ...paging,
      id: z.string().optional(),
      user_id: z.string().optional(),
      dsl: z.string().optional(),
    }),
    data: z.array(publicAgentSessionSchema),
  }),
  deleteAgentSessions: route({
    method: 'DELETE',
    path: '/api/v1/agents/:agent_id/sessions',
    auth: 'apiKey',
    body: z.object({ ids: z.array(z.string()).nullable().optional() }),
    data: z.null(),
  }),
  /** `message`/`message_end` (+ `node_finished` with `return_trace`) tagged with the session, then `[DONE]`. */
  agentCompletion: route({
    method: 'POST',
    path: '/api/v1/agents/:agent_id/completions',
    auth: 'apiKey',
    kind: 'sse',
    framing: 'bare',
    body: agentCompletionBody,
    event: canvasRunEventSchema,
    data: agentAnswerSchema,
  }),
  agentsOpenai: route({
    method: 'POST',
    path: '/api/v1/agents_openai/:agent_id/chat/completions',
    auth: 'apiKey',
    /** OpenAI's own objects, as `chats_openai`; `session_id` continues an agent session. */
    kind: 'plain',
    body: openaiBody.extend({ session_id: z.string().optional() }),
    data: openaiCompletionData,
  }),
};

export const publicBotsContract = {
  /** The chat embed: answer events as `/v1/conversation/completion` (API.md §9), then `data: true`. */
  chatbotCompletion: route({
    method: 'POST',
    path: '/api/v1/chatbots/:dialog_id/completions',
    auth: 'beta',
    kind: 'sse',
    body: z.object({
      question: z.string().optional(),
      session_id: z.string().optional(),
      stream: z.boolean().optional(),
      quote: z.boolean().optional(),
      user_id: z.string().optional(),
    }),
    event: z.union([answerEventSchema, streamEnd]),
    data: finalAnswerSchema,
  }),
  chatbotInfo: route({
    method: 'GET',
    path: '/api/v1/chatbots/:dialog_id/info',
    auth: 'beta',
    data: z.strictObject({
      title: z.string(),
      avatar: z.string().nullable(),
      prologue: z.string(),
      has_tavily_key: z.boolean(),
    }),
  }),
  /** The agent embed: every run event tagged with the session (bare, API.md §13.2). */
  agentbotCompletion: route({
    method: 'POST',
    path: '/api/v1/agentbots/:agent_id/completions',
    auth: 'beta',
    kind: 'sse',
    framing: 'bare',
    body: agentCompletionBody,
    event: canvasRunEventSchema,
    data: agentAnswerSchema,
  }),
  agentbotInputs: route({
    method: 'GET',
    path: '/api/v1/agentbots/:agent_id/inputs',
    auth: 'beta',
    data: z.strictObject({
      title: z.string(),
      avatar: z.string().nullable(),
      /** The Begin component's input definitions (`{key: {type, name, optional, options}}`). */
      inputs: jsonObject,
      prologue: z.string(),
      mode: z.string(),
    }),
  }),
};
