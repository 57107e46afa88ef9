import type { FastifyInstance, FastifyRequest } from 'fastify';
import { contract } from '@lectern/shared';
import type { ServerContext } from '../context.js';
import { questionMessages } from '../../chat/history.js';
import type { ChatMessage } from '../../chat/types.js';
import { authOf, credentialOf } from '../../http/auth.js';
import { errors, ok } from '../../http/envelope.js';
import { validate } from '../../http/validate.js';
import { accessScopeOf, loadDialog } from '../../policy/index.js';
import { newId } from '../../util/ids.js';
import { presentSharedDialog } from '../dialog/presenter.js';
import { dialogConfigOf } from '../dialog/service.js';
import { attachmentIds, parameterValues, runCompletion } from './completion.js';
import { presentConversation } from './presenter.js';
import { searchRoutes } from './search-routes.js';
import * as conversations from './service.js';
import { uploadAndParseRoutes } from './upload-and-parse.js';

const c = contract.conversation;

export async function conversationRoutes(app: FastifyInstance, ctx: ServerContext): Promise<void> {
  const svc = ctx.chat;

  app.post('/v1/conversation/set', async (req) => {
    const body = validate(c.set.body, req.body);
    const userId = authOf(req).user.id;
    if (body.is_new) return ok(await conversations.createConversation(ctx, userId, body));
    const loaded = await conversations.renameConversation(ctx, userId, body.conversation_id ?? '', body.name);
    return ok(presentConversation(loaded.conv, loaded.message, loaded.reference));
  });

  app.get('/v1/conversation/get', async (req) => {
    const q = validate(c.get.query, req.query);
    const loaded = await conversations.loadConversation(ctx, authOf(req).user.id, q.conversation_id, 'owner');
    return ok(
      presentConversation(loaded.conv, loaded.message, loaded.reference, { avatar: loaded.dialog.icon }),
    );
  });

  app.get<{ Params: { dialog_id: string } }>(
    '/v1/conversation/getsse/:dialog_id',
    { config: { public: true } },
    async (req) => {
      const header = req.headers.authorization ?? '';
      if (header.trim().split(/\s+/).length !== 2) throw errors.data('Authorization is not valid!');
      const beta = credentialOf(req) ?? '';
      const token = await ctx.db.kysely
        .selectFrom('api_token')
        .select(['tenant_id'])
        .where('beta_hash', '=', ctx.secrets.mac(beta))
        .executeTakeFirst();
      if (!token) throw errors.data('Authentication error: API key is invalid!');
      // The beta token acts as the owner of its tenant (API.md §1.4).
      const db = ctx.db.kysely;
      const dialog = await loadDialog(
        db,
        await accessScopeOf(db, token.tenant_id),
        req.params.dialog_id,
        'read',
      );
      return ok(presentSharedDialog(dialog));
    },
  );

  app.get('/v1/conversation/list', async (req) => {
    const q = validate(c.list.query, req.query);
    const rows = await conversations.listConversations(ctx, authOf(req).user.id, q.dialog_id);
    return ok(
      rows.map((r) => presentConversation(r, conversations.messagesOf(r), conversations.referencesOf(r))),
    );
  });

  const rm = async (req: FastifyRequest) => {
    const body = validate(c.rm.body, req.body);
    await conversations.removeConversations(ctx, authOf(req).user.id, body.conversation_ids);
    return ok(true);
  };
  app.post('/v1/conversation/rm', rm);
  app.post('/v1/conversation/remove', rm);

  const completion = async (req: FastifyRequest, reply: Parameters<typeof runCompletion>[1]) => {
    const body = validate(c.completion.body, req.body);
    const userId = authOf(req).user.id;
    const loaded = await conversations.loadConversation(ctx, userId, body.conversation_id);
    if (loaded.dialog.status !== '1') throw errors.data('Dialog not found!');
    let dialog = dialogConfigOf(loaded.dialog);
    const requestMessages = body.messages as ChatMessage[];
    const messages = questionMessages(requestMessages);
    const last = messages[messages.length - 1];
    if (!last || last.role !== 'user')
      throw errors.data('The last content of this conversation is not from user.');
    if (!last.id) last.id = newId();
    const embedded = typeof body.llm_id === 'string' && body.llm_id !== '';
    if (embedded) {
      try {
        await svc.chatModel(dialog.tenant_id, body.llm_id as string);
      } catch {
        throw errors.data(`Cannot use specified model ${body.llm_id}.`);
      }
      const setting: Record<string, unknown> = {};
      for (const k of [
        'temperature',
        'top_p',
        'frequency_penalty',
        'presence_penalty',
        'max_tokens',
      ] as const) {
        if (typeof body[k] === 'number') setting[k] = body[k];
      }
      dialog = { ...dialog, llm_id: body.llm_id as string, llm_setting: setting };
    }
    return runCompletion(svc, reply, {
      dialog,
      messages,
      messageId: last.id,
      sessionId: loaded.conv.id,
      format: 'web',
      stream: body.stream !== false,
      options: {
        values: parameterValues(body),
        quote: body.quote,
        docIds: attachmentIds(body, last),
      },
      // Embedded use (llm_id given) is never persisted (API.md §9).
      store: embedded ? undefined : conversations.conversationStore(ctx, loaded, requestMessages),
      persist: embedded
        ? undefined
        : (result, answer) =>
            conversations.saveAnswer(ctx, loaded, requestMessages, answer, result.reference, {
              tokens: result.tokens,
              durationS: result.durationS,
            }),
    });
  };
  app.post('/v1/conversation/completion', completion);
  app.post('/v1/conversation/chat_completion', completion);

  app.post('/v1/conversation/delete_msg', async (req) => {
    const body = validate(c.deleteMsg.body, req.body);
    const loaded = await conversations.deleteConversationMessage(
      ctx,
      authOf(req).user.id,
      body.conversation_id,
      body.message_id,
    );
    return ok(presentConversation(loaded.conv, loaded.message, loaded.reference));
  });

  app.post('/v1/conversation/thumbup', async (req) => {
    const body = validate(c.thumbup.body, req.body);
    const loaded = await conversations.thumbConversationMessage(ctx, authOf(req).user.id, body);
    return ok(presentConversation(loaded.conv, loaded.message, loaded.reference));
  });

  await searchRoutes(app, ctx, svc);
  await uploadAndParseRoutes(app, ctx);
}
