/**
 * `/api/v1/searchbots/*` (API.md §17): the search app's share page. The credential is the beta token
 * of an API key (`Authorization: Bearer <beta>`, API.md §1.4), acting as the owner of the key's
 * tenant; the routes run the same search as `/v1/conversation/{ask, mindmap, related_questions}` and
 * `/v1/chunk/retrieval_test` with the app's `search_config`.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { contract } from '@lectern/shared';
import type { ServerContext } from '../context.js';
import type { UserTable } from '../../db/types.js';
import { credentialOf } from '../../http/auth.js';
import { errors } from '../../http/envelope.js';
import { validate } from '../../http/validate.js';
import { retrievalTest } from '../chunk/retrieval-test.js';
import { presentSearch } from '../search-app/presenter.js';
import { searchMindMap, searchRelated, streamAsk, withSearchConfig } from '../search-app/run.js';
import { loadSearchApp } from '../search-app/service.js';
import { done, PUBLIC } from './auth.js';

const c = contract.searchBots;

/** The owner of the beta token's tenant; the same answers as `conversation/getsse`. */
async function betaOwner(ctx: ServerContext, req: FastifyRequest): Promise<UserTable> {
  const header = req.headers.authorization ?? '';
  if (header.trim().split(/\s+/).length !== 2) throw errors.data('Authorization is not valid!');
  const beta = credentialOf(req) ?? '';
  const db = ctx.db.kysely;
  const token = await db
    .selectFrom('api_token')
    .select(['tenant_id'])
    .where('beta_hash', '=', ctx.secrets.mac(beta))
    .executeTakeFirst();
  const user = token
    ? await db
        .selectFrom('user')
        .selectAll()
        .where('id', '=', token.tenant_id)
        .where('status', '=', '1')
        .executeTakeFirst()
    : undefined;
  if (!user) throw errors.data('Authentication error: API key is invalid!');
  return user;
}

export async function searchBotRoutes(app: FastifyInstance, ctx: ServerContext): Promise<void> {
  app.get('/api/v1/searchbots/detail', PUBLIC, async (req) => {
    const owner = await betaOwner(ctx, req);
    const q = validate(c.detail.query, req.query);
    return done(presentSearch(await loadSearchApp(ctx, owner.id, q.search_id, 'read')));
  });

  app.post('/api/v1/searchbots/ask', PUBLIC, async (req, reply) => {
    const owner = await betaOwner(ctx, req);
    const body = validate(c.ask.body, req.body);
    return streamAsk(ctx, ctx.chat, reply, owner.id, body, req.log);
  });

  app.post('/api/v1/searchbots/retrieval_test', PUBLIC, async (req) => {
    const owner = await betaOwner(ctx, req);
    const body = validate(c.retrievalTest.body, req.body);
    const full = await withSearchConfig(ctx, owner.id, { ...body, kb_id: body.kb_id ?? [] });
    return done(await retrievalTest(ctx, owner, full));
  });

  app.post('/api/v1/searchbots/related_questions', PUBLIC, async (req) => {
    const owner = await betaOwner(ctx, req);
    const body = validate(c.relatedQuestions.body, req.body);
    return done(await searchRelated(ctx, ctx.chat, owner.id, body));
  });

  app.post('/api/v1/searchbots/mindmap', PUBLIC, async (req) => {
    const owner = await betaOwner(ctx, req);
    const body = validate(c.mindmap.body, req.body);
    return done(await searchMindMap(ctx, ctx.chat, owner.id, body, req.log));
  });
}
