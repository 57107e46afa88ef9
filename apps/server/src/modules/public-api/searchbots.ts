/**
 * `/api/v1/searchbots/*` (API.md §17): the search app's share page. The credential is the beta token
 * of an API key (`Authorization: Bearer <beta>`, API.md §1.4), acting as the owner of the key's
 * tenant; the routes run the same search as `/v1/conversation/{ask, mindmap, related_questions}` and
 * `/v1/chunk/retrieval_test` with the app's `search_config`.
 */
import type { FastifyInstance } from 'fastify';
import { contract } from '@lectern/shared';
import type { ServerContext } from '../context.js';
import { validate } from '../../http/validate.js';
import { retrievalTest } from '../chunk/retrieval-test.js';
import { presentSearch } from '../search-app/presenter.js';
import { searchMindMap, searchRelated, streamAsk, withSearchConfig } from '../search-app/run.js';
import { loadSearchApp } from '../search-app/service.js';
import { betaOwner, done, PUBLIC } from './auth.js';

const c = contract.searchBots;

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
