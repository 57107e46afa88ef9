/**
 * The three model calls of a search — AI summary (`ask`, SSE), related questions and mind map —
 * from a search plan (./plan.ts), shared by `/v1/conversation/*` and the share page's
 * `/api/v1/searchbots/*`: one implementation, the chat pipeline underneath.
 */
import type { FastifyBaseLogger, FastifyReply } from 'fastify';
import type { BodyOf, contract } from '@lectern/shared';
import { answerQuestion } from '../../chat/answer.js';
import { relatedQuestions } from '../../chat/llm-tasks.js';
import { presentReference } from '../../chat/reference.js';
import { askDialog, mindMapFor, type MindMapNode } from '../../chat/search-answer.js';
import type { ChatServices } from '../../chat/services.js';
import { SseWriter } from '../../chat/sse.js';
import { ApiError, errors } from '../../http/envelope.js';
import { errorMessage } from '../conversation/completion.js';
import { searchPlan } from './plan.js';

export interface SearchRequest {
  question: string;
  kb_ids?: string[] | null;
  search_id?: string | null;
}

/** `ask`: the AI summary as SSE (API.md §9 framing); every failure, refusals included, is an error event. */
export async function streamAsk(
  ctx: Parameters<typeof searchPlan>[0],
  svc: ChatServices,
  reply: FastifyReply,
  userId: string,
  body: SearchRequest,
  log?: FastifyBaseLogger,
): Promise<FastifyReply> {
  const sse = new SseWriter(reply);
  sse.open();
  try {
    const plan = await searchPlan(ctx, userId, body);
    const dialog = askDialog(plan.tenantId, plan.kbIds, plan.settings);
    const gen = answerQuestion(svc, dialog, [{ role: 'user', content: body.question }], {
      docIds: plan.docIds,
      signal: sse.signal,
      tableQueries: false,
    });
    for (let step = await gen.next(); !step.done; step = await gen.next()) {
      const ev = step.value;
      const reference = ev.final ? presentReference(ev.reference, 'web') : { chunks: [] };
      if (!sse.data({ ...ev, reference })) break;
    }
  } catch (err) {
    sse.error(errorMessage(err, log));
  }
  sse.end();
  return reply;
}

/** `mindmap`: refusals keep their envelope; a model failure is 100 with its readable text. */
export async function searchMindMap(
  ctx: Parameters<typeof searchPlan>[0],
  svc: ChatServices,
  userId: string,
  body: SearchRequest,
  log?: FastifyBaseLogger,
): Promise<MindMapNode> {
  const plan = await searchPlan(ctx, userId, body);
  try {
    return await mindMapFor(svc, plan.tenantId, body.question, plan.kbIds, plan.settings, plan.docIds);
  } catch (err) {
    if (err instanceof ApiError && err.code !== 102) throw err;
    throw errors.exception(errorMessage(err, log), false);
  }
}

/** `related_questions` with the app's chat model (the tenant's default without an app). */
export async function searchRelated(
  ctx: Parameters<typeof searchPlan>[0],
  svc: ChatServices,
  userId: string,
  body: { question: string; search_id?: string | null },
): Promise<string[]> {
  const plan = await searchPlan(ctx, userId, { search_id: body.search_id });
  const { model } = await svc.chatModel(plan.tenantId, plan.settings.chat_id ?? '');
  return relatedQuestions(model, body.question);
}

type RetrievalBody = BodyOf<typeof contract.chunk.retrievalTest>;

/**
 * A retrieval-test body with a search app's settings (`search_id`): every setting the request leaves
 * out comes from the app's config, the app's knowledge bases replace the request's when it names
 * some, and its document restriction / metadata filter applies.
 */
export async function withSearchConfig(
  ctx: Parameters<typeof searchPlan>[0],
  userId: string,
  body: RetrievalBody,
): Promise<RetrievalBody> {
  if (!body.search_id) return body;
  const requested = Array.isArray(body.kb_id)
    ? body.kb_id
    : typeof body.kb_id === 'string'
      ? [body.kb_id]
      : [];
  const plan = await searchPlan(ctx, userId, {
    search_id: body.search_id,
    kb_ids: requested.filter((k): k is string => typeof k === 'string'),
  });
  const s = plan.settings;
  const docIds = body.doc_ids && body.doc_ids.length > 0 ? body.doc_ids : plan.docIds;
  return {
    ...body,
    kb_id: plan.kbIds.length > 0 ? plan.kbIds : body.kb_id,
    doc_ids: docIds ?? body.doc_ids,
    similarity_threshold: body.similarity_threshold ?? s.similarity_threshold,
    vector_similarity_weight: body.vector_similarity_weight ?? s.vector_similarity_weight,
    top_k: body.top_k ?? s.top_k,
    rerank_id: body.rerank_id ?? (s.rerank_id || undefined),
    keyword: body.keyword ?? s.keyword,
    cross_languages: body.cross_languages ?? s.cross_languages,
    use_kg: body.use_kg ?? s.use_kg,
    meta_data_filter: body.meta_data_filter ?? (s.meta_data_filter as RetrievalBody['meta_data_filter']),
  };
}
