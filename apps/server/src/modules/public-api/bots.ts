/**
 * The embed pages' bots (API.md §17) with the beta token (`Authorization: Bearer <beta>`), acting as
 * the owner of the key's tenant — an assistant or agent outside that tenant is refused like an
 * unknown one:
 * - `chatbots/<dialog_id>/completions`: a session of the legacy chat API (`api_4_conversation`, the
 *   `/v1/api/completion` runner and its round bookkeeping), answer events as §9 then `data: true`;
 *   no `session_id` opens a new session (with the prologue) for the question.
 * - `chatbots/<dialog_id>/info`: title, avatar, prologue and whether web search is on.
 * - `agentbots/<agent_id>/completions`: an agent session turn (the `/api/v1/agents` runner), every
 *   run event tagged with its session.
 * - `agentbots/<agent_id>/inputs`: the Begin component's inputs, prologue and mode.
 */
import type { FastifyInstance } from 'fastify';
import { contract } from '@lectern/shared';
import type { ServerContext } from '../context.js';
import type { ChatMessage } from '../../chat/types.js';
import { questionMessages } from '../../chat/history.js';
import { parseJson } from '../../db/json.js';
import { errors } from '../../http/envelope.js';
import { validate } from '../../http/validate.js';
import { accessScopeOf, loadDialog } from '../../policy/index.js';
import { newId } from '../../util/ids.js';
import * as api from '../api/service.js';
import { runCompletion } from '../conversation/completion.js';
import { dialogConfigOf } from '../dialog/service.js';
import { answerTurn, ownAgent } from './agents.js';
import { betaOwner, done, PUBLIC } from './auth.js';

const c = contract.publicBots;
type DialogParams = { Params: { dialog_id: string } };
type AgentParams = { Params: { agent_id: string } };

/** A live assistant of the beta token's tenant, else 102 `refusal`. */
async function botDialog(ctx: ServerContext, ownerId: string, dialogId: string, refusal: string) {
  const db = ctx.db.kysely;
  const row = await loadDialog(db, await accessScopeOf(db, ownerId), dialogId, 'read').catch(() => null);
  if (!row || row.status !== '1') throw errors.data(refusal);
  return row;
}

/** A session of the embed API on this assistant, else 102 "Session not found!". */
async function botSession(ctx: ServerContext, dialogId: string, sessionId: string) {
  const row = await ctx.db.kysely
    .selectFrom('api_4_conversation')
    .selectAll()
    .where('id', '=', sessionId)
    .where('dialog_id', '=', dialogId)
    .executeTakeFirst();
  if (!row || row.source === 'agent' || row.source === 'dialog') throw errors.data('Session not found!');
  return row;
}

/** An agent of the beta token's tenant, else 102 "Can't find agent by ID: <id>". */
async function botAgent(ctx: ServerContext, ownerId: string, agentId: string) {
  return ownAgent(ctx, ownerId, agentId).catch(() => {
    throw errors.data(`Can't find agent by ID: ${agentId}`);
  });
}

export async function botRoutes(app: FastifyInstance, ctx: ServerContext): Promise<void> {
  app.post<DialogParams>('/api/v1/chatbots/:dialog_id/completions', PUBLIC, async (req, reply) => {
    const owner = await betaOwner(ctx, req);
    const body = validate(c.chatbotCompletion.body, req.body ?? {});
    const dialog = await botDialog(ctx, owner.id, req.params.dialog_id, 'Dialog not found!');
    const question = typeof body.question === 'string' ? body.question : '';
    if (question.trim() === '') throw errors.data('`question` is required.');
    const session = body.session_id
      ? await botSession(ctx, dialog.id, body.session_id)
      : await botSession(ctx, dialog.id, (await api.newDialogSession(ctx, dialog, body.user_id ?? '')).id);
    const asked: ChatMessage = { role: 'user', content: question, id: newId() };
    const messages = questionMessages([...api.sessionMessages(session), asked]);
    return runCompletion(ctx.chat, reply, {
      dialog: dialogConfigOf(dialog),
      messages,
      messageId: asked.id!,
      sessionId: session.id,
      format: 'web',
      stream: body.stream !== false,
      options: { quote: body.quote === true },
      persist: (result, answer) =>
        api.appendRound(ctx, session, asked, answer, result.reference, {
          tokens: result.tokens,
          durationS: result.durationS,
        }),
    });
  });

  app.get<DialogParams>('/api/v1/chatbots/:dialog_id/info', PUBLIC, async (req) => {
    const owner = await betaOwner(ctx, req);
    const id = req.params.dialog_id;
    const dialog = await botDialog(ctx, owner.id, id, `Can't find dialog by ID: ${id}`);
    const pc = dialogConfigOf(dialog).prompt_config;
    return done({
      title: dialog.name ?? '',
      avatar: dialog.icon ?? null,
      prologue: pc.prologue ?? '',
      has_tavily_key: typeof pc.tavily_api_key === 'string' && pc.tavily_api_key.trim() !== '',
    });
  });

  app.post<AgentParams>('/api/v1/agentbots/:agent_id/completions', PUBLIC, async (req, reply) => {
    const owner = await betaOwner(ctx, req);
    const body = validate(c.agentbotCompletion.body, req.body ?? {});
    const canvas = await botAgent(ctx, owner.id, req.params.agent_id);
    return answerTurn(ctx, reply, canvas, body, owner.id, { tagAll: true });
  });

  app.get<AgentParams>('/api/v1/agentbots/:agent_id/inputs', PUBLIC, async (req) => {
    const owner = await betaOwner(ctx, req);
    const canvas = await botAgent(ctx, owner.id, req.params.agent_id);
    const dsl = parseJson<{ components?: Record<string, { obj?: { params?: Record<string, unknown> } }> }>(
      canvas.dsl,
      {},
    );
    const params = dsl.components?.begin?.obj?.params ?? {};
    const inputs = params.inputs;
    return done({
      title: canvas.title,
      avatar: canvas.avatar,
      inputs: (inputs && typeof inputs === 'object' && !Array.isArray(inputs) ? inputs : {}) as Record<
        string,
        never
      >,
      prologue: typeof params.prologue === 'string' ? params.prologue : '',
      mode: typeof params.mode === 'string' ? params.mode : 'conversational',
    });
  });
}
