/**
 * `/api/v1/chats…` (API.md §17): assistants (the `/v1/dialog` service with the public field names),
 * their sessions (conversations) and completions (the `/v1/conversation/completion` runner: SSE or
 * one answer).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { contract } from '@lectern/shared';
import type { ServerContext } from '../context.js';
import { authOf } from '../../http/auth.js';
import { errors } from '../../http/envelope.js';
import { validate } from '../../http/validate.js';
import type { ChatMessage } from '../../chat/types.js';
import { newId } from '../../util/ids.js';
import * as dialogs from '../dialog/service.js';
import { runCompletion } from '../conversation/completion.js';
import * as conversations from '../conversation/service.js';
import { done, pageParam, PUBLIC } from './auth.js';
import { presentChat } from './presenters.js';

const c = contract.publicApi;
type ChatParams = { Params: { chat_id: string } };

/** RAGFlow's default assistant prompt, used when a chat over datasets is created without one. */
const DEFAULT_SYSTEM = `You are an intelligent assistant. Please summarize the content of the dataset to answer the question. Please list the data in the dataset and answer in detail. When all dataset content is irrelevant to the question, your answer must include the sentence "The answer you are looking for is not found in the dataset!" Answers need to consider chat history.
      Here is the knowledge base:
      {knowledge}
      The above is the knowledge base.`;

type ChatBody = ReturnType<typeof validate<typeof c.createChat.body>>;

/** The public chat body as a `/v1/dialog/set` body. */
function dialogBody(body: ChatBody, creating: boolean) {
  const llm = (body.llm ?? {}) as Record<string, unknown>;
  const prompt = (body.prompt ?? {}) as Record<string, unknown>;
  const { model_name: modelName, ...setting } = llm;
  const promptConfig: Record<string, unknown> = {};
  if (typeof prompt.prompt === 'string') promptConfig.system = prompt.prompt;
  else if (creating && (body.dataset_ids ?? []).length > 0) promptConfig.system = DEFAULT_SYSTEM;
  if (typeof prompt.opener === 'string') promptConfig.prologue = prompt.opener;
  if (typeof prompt.empty_response === 'string') promptConfig.empty_response = prompt.empty_response;
  if (typeof prompt.show_quote === 'boolean') promptConfig.quote = prompt.show_quote;
  if (Array.isArray(prompt.variables)) promptConfig.parameters = prompt.variables;
  const num = (v: unknown) => (typeof v === 'number' ? v : undefined);
  const kw = num(prompt.keywords_similarity_weight);
  return {
    ...(body.name !== undefined ? { name: body.name } : {}),
    ...(body.description !== undefined ? { description: body.description } : {}),
    ...(body.avatar !== undefined ? { icon: body.avatar } : {}),
    ...(body.dataset_ids !== undefined ? { kb_ids: body.dataset_ids } : {}),
    ...(typeof modelName === 'string' && modelName ? { llm_id: modelName } : {}),
    ...(Object.keys(setting).length > 0 ? { llm_setting: setting } : {}),
    ...(num(prompt.similarity_threshold) !== undefined
      ? { similarity_threshold: num(prompt.similarity_threshold) }
      : {}),
    ...(kw !== undefined ? { vector_similarity_weight: 1 - kw } : {}),
    ...(num(prompt.top_n) !== undefined ? { top_n: num(prompt.top_n) } : {}),
    ...(typeof prompt.rerank_model === 'string' ? { rerank_id: prompt.rerank_model } : {}),
    prompt_config: promptConfig,
  } as Parameters<typeof dialogs.setDialog>[2];
}

/** A live chat of the key's tenant, else 102 "You don't own the chat <id>" (API.md §17). */
export async function ownChat(ctx: ServerContext, req: FastifyRequest, chatId: string) {
  const row = await dialogs.ownedDialog(ctx, authOf(req).user.id, chatId, 'read').catch(() => null);
  if (!row || row.status !== '1') throw errors.data(`You don't own the chat ${chatId}`);
  return row;
}

function presentSession(
  conv: { id: string; dialog_id: string; name: string; user_id: string },
  messages: unknown[],
  extra = {},
) {
  return { id: conv.id, chat_id: conv.dialog_id, name: conv.name, user_id: conv.user_id, messages, ...extra };
}

export async function chatRoutes(app: FastifyInstance, ctx: ServerContext): Promise<void> {
  app.post('/api/v1/chats', PUBLIC, async (req) => {
    const body = validate(c.createChat.body, req.body);
    return done(presentChat(await dialogs.setDialog(ctx, authOf(req).user.id, dialogBody(body, true))));
  });

  app.get('/api/v1/chats', PUBLIC, async (req) => {
    const q = validate(c.listChats.query, req.query);
    const page = pageParam('page', q.page, 1);
    const size = pageParam('page_size', q.page_size, 30);
    const rows = (await dialogs.listDialogs(ctx, authOf(req).user.id)).filter(
      (r) => (!q.id || r.id === q.id) && (!q.name || r.name === q.name),
    );
    if ((q.id || q.name) && rows.length === 0) throw errors.data("The chat doesn't exist");
    return done(rows.slice((page - 1) * size, page * size).map(presentChat));
  });

  app.put<ChatParams>('/api/v1/chats/:chat_id', PUBLIC, async (req) => {
    const body = validate(c.updateChat.body, req.body);
    const chat = await ownChat(ctx, req, req.params.chat_id);
    await dialogs.setDialog(ctx, authOf(req).user.id, { ...dialogBody(body, false), dialog_id: chat.id });
    return done(null);
  });

  app.delete('/api/v1/chats', PUBLIC, async (req) => {
    const body = validate(c.deleteChats.body, req.body ?? {});
    const userId = authOf(req).user.id;
    const ids = body.ids ?? (await dialogs.listDialogs(ctx, userId)).map((r) => r.id);
    for (const id of ids) await ownChat(ctx, req, id);
    if (ids.length > 0) await dialogs.removeDialogs(ctx, userId, ids);
    return done(null);
  });

  app.post<ChatParams>('/api/v1/chats/:chat_id/sessions', PUBLIC, async (req) => {
    const body = validate(c.createSession.body, req.body ?? {});
    const chat = await ownChat(ctx, req, req.params.chat_id);
    const conv = await conversations.createConversation(ctx, authOf(req).user.id, {
      dialog_id: chat.id,
      name: body.name ?? 'New session',
    });
    return done(presentSession(conv, conv.message, { create_time: Date.now(), update_time: Date.now() }));
  });

  app.get<ChatParams>('/api/v1/chats/:chat_id/sessions', PUBLIC, async (req) => {
    const q = validate(c.listSessions.query, req.query);
    const chat = await ownChat(ctx, req, req.params.chat_id);
    const page = pageParam('page', q.page, 1);
    const size = pageParam('page_size', q.page_size, 30);
    const rows = (await conversations.listConversations(ctx, authOf(req).user.id, chat.id)).filter(
      (r) => (!q.id || r.id === q.id) && (!q.name || r.name === q.name),
    );
    return done(
      rows.slice((page - 1) * size, page * size).map((r) =>
        presentSession(r, conversations.messagesOf(r), {
          create_time: r.create_time,
          update_time: r.update_time,
        }),
      ),
    );
  });

  app.delete<ChatParams>('/api/v1/chats/:chat_id/sessions', PUBLIC, async (req) => {
    const body = validate(c.deleteSessions.body, req.body ?? {});
    const chat = await ownChat(ctx, req, req.params.chat_id);
    const userId = authOf(req).user.id;
    const mine = await conversations.listConversations(ctx, userId, chat.id);
    const ids = body.ids ?? mine.map((r) => r.id);
    const known = new Set(mine.map((r) => r.id));
    const foreign = ids.find((id) => !known.has(id));
    if (foreign) throw errors.data(`The chat doesn't own the session ${foreign}`);
    if (ids.length > 0) await conversations.removeConversations(ctx, userId, ids);
    return done(null);
  });

  app.post<ChatParams>('/api/v1/chats/:chat_id/completions', PUBLIC, async (req, reply: FastifyReply) => {
    const body = validate(c.chatCompletion.body, req.body ?? {});
    const chat = await ownChat(ctx, req, req.params.chat_id);
    const userId = authOf(req).user.id;
    const sessionId =
      body.session_id ||
      (
        await conversations.createConversation(ctx, userId, {
          dialog_id: chat.id,
          name: body.question?.slice(0, 255),
        })
      ).id;
    const loaded = await conversations.loadConversation(ctx, userId, sessionId);
    if (loaded.conv.dialog_id !== chat.id) throw errors.data('Session does not belong to this chat!');
    const question = typeof body.question === 'string' ? body.question : '';
    if (question.trim() === '') throw errors.data('`question` is required.');
    const id = newId();
    const requestMessages: ChatMessage[] = [...loaded.message, { role: 'user', content: question, id }];
    // The chat pipeline answers the conversation's user/assistant turns after the opener.
    const messages = requestMessages.filter(
      (m, i) => m.role !== 'system' && !(i === 0 && m.role === 'assistant'),
    );
    return runCompletion(ctx.chat, reply, {
      dialog: dialogs.dialogConfigOf(chat),
      messages,
      messageId: id,
      sessionId,
      format: 'web',
      stream: body.stream !== false,
      options: {},
      persist: (result, answer) =>
        conversations.saveAnswer(ctx, loaded, requestMessages, answer, result.reference, {
          tokens: result.tokens,
          durationS: result.durationS,
        }),
    });
  });
}
