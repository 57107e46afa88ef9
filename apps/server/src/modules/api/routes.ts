import type { FastifyInstance } from 'fastify';
import { contract } from '@lectern/shared';
import type { ServerContext } from '../context.js';
import { questionMessages } from '../../chat/history.js';
import type { ChatMessage } from '../../chat/types.js';
import { authOf } from '../../http/auth.js';
import { errors, ok } from '../../http/envelope.js';
import { asObject, validate } from '../../http/validate.js';
import { accessScopeOf, authorize, resource } from '../../policy/index.js';
import { newId } from '../../util/ids.js';
import { presentApiToken } from '../system/presenter.js';
import { createApiToken, deleteApiToken, listApiTokens } from '../system/service.js';
import { ownedTenant } from '../user/service.js';
import { attachmentIds, parameterValues, runCompletion } from '../conversation/completion.js';
import { presentConversation } from '../conversation/presenter.js';
import { dialogConfigOf, ownedDialog } from '../dialog/service.js';
import * as api from './service.js';
import { statistics, statsRange } from './stats.js';

const c = contract.api;

/** Legacy chat API routes authenticate with the assistant's API key themselves (public for the hook). */
const byApiKey = { config: { public: true } } as const;

export async function apiRoutes(app: FastifyInstance, ctx: ServerContext): Promise<void> {
  const svc = ctx.chat;

  app.post('/v1/api/new_token', async (req) => {
    const body = validate(c.newToken.body, req.body);
    const userId = authOf(req).user.id;
    const tenant = await ownedTenant(ctx, userId);
    let row;
    if (body.canvas_id) {
      // The canvas is checked where the key is used (new_conversation), once canvases exist.
      row = await createApiToken(ctx, tenant.id, { dialogId: body.canvas_id, source: 'agent' });
    } else {
      if (!body.dialog_id) throw errors.argument('required argument are missing: dialog_id; ');
      const dialog = await ownedDialog(ctx, userId, body.dialog_id);
      row = await createApiToken(ctx, tenant.id, { dialogId: dialog.id, source: 'dialog' });
    }
    return ok(presentApiToken(row, true));
  });

  app.get('/v1/api/token_list', async (req) => {
    const q = validate(c.tokenList.query, req.query);
    const tenant = await ownedTenant(ctx, authOf(req).user.id);
    const id = q.dialog_id ?? q.canvas_id;
    if (id === undefined) throw errors.argument('required argument are missing: dialog_id; ');
    const rows = await listApiTokens(ctx, tenant.id, { dialogId: id });
    return ok(rows.map((r) => presentApiToken(r)));
  });

  app.post('/v1/api/rm', async (req) => {
    const body = validate(c.rm.body, req.body);
    const userId = authOf(req).user.id;
    const tenant = await ownedTenant(ctx, userId);
    authorize(await accessScopeOf(ctx.db.kysely, userId), 'manage', resource.tenant(body.tenant_id));
    for (const token of body.tokens) await deleteApiToken(ctx, tenant.id, token);
    return ok(true);
  });

  app.get('/v1/api/stats', async (req) => {
    const q = validate(c.stats.query, req.query);
    const tenant = await ownedTenant(ctx, authOf(req).user.id);
    return ok(
      await statistics(ctx, tenant.id, statsRange(q.from_date, q.to_date), q.canvas_id !== undefined),
    );
  });

  app.get('/v1/api/new_conversation', byApiKey, async (req) => {
    const key = await api.apiKeyOf(ctx, req);
    const q = validate(c.newConversation.query, req.query);
    return ok(await api.newSession(ctx, key, q.user_id ?? ''));
  });

  app.get<{ Params: { id: string } }>('/v1/api/conversation/:id', byApiKey, async (req) => {
    const key = await api.apiKeyOf(ctx, req);
    const { session } = await api.keySession(ctx, key, req.params.id, 'invalid-key');
    const conv = presentConversation(
      { ...session, name: session.name ?? '' },
      api.sessionMessages(session),
      api.sessionReferences(session),
      { format: 'legacy' },
    );
    return ok({
      ...conv,
      exp_user_id: session.exp_user_id,
      tokens: session.tokens,
      source: session.source,
      duration: session.duration,
      round: session.round,
      thumb_up: session.thumb_up,
      errors: session.errors,
    });
  });

  app.post('/v1/api/completion', byApiKey, async (req, reply) => {
    const key = await api.apiKeyOf(ctx, req);
    const body = validate(c.completion.body, req.body);
    const { session, dialog } = await api.keySession(ctx, key, body.conversation_id, 'not-found');
    if (!dialog || dialog.status !== '1') throw errors.data('Dialog not found!');
    const messages = questionMessages(body.messages as ChatMessage[]);
    const last = messages[messages.length - 1];
    if (!last || last.role !== 'user')
      throw errors.data('The last content of this conversation is not from user.');
    if (!last.id) last.id = newId();
    const question = { ...last };
    return runCompletion(svc, reply, {
      dialog: dialogConfigOf(dialog),
      messages,
      messageId: last.id,
      sessionId: session.id,
      format: 'legacy',
      stream: body.stream !== false,
      // The legacy API answers without citations unless asked (API.md §10 quote=false).
      options: {
        values: parameterValues(asObject(req.body)),
        quote: body.quote === true,
        docIds: attachmentIds(body, last),
      },
      persist: (result, answer) =>
        api.appendRound(ctx, session, question, answer, result.reference, {
          tokens: result.tokens,
          durationS: result.durationS,
        }),
    });
  });
}
