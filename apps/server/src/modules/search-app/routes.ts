/** `/v1/search/*` — search apps (API.md §15). */
import type { FastifyInstance } from 'fastify';
import { contract } from '@lectern/shared';
import type { AppContext } from '../../context.js';
import { authOf } from '../../http/auth.js';
import { ok } from '../../http/envelope.js';
import { validate } from '../../http/validate.js';
import { presentSearch, presentSearchListItem } from './presenter.js';
import * as searches from './service.js';

const c = contract.search;

export async function searchAppRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.post('/v1/search/create', async (req) => {
    const body = validate(c.create.body, req.body);
    return ok({ search_id: await searches.createSearch(ctx, authOf(req).user.id, body) });
  });

  app.post('/v1/search/update', async (req) => {
    const body = validate(c.update.body, req.body);
    return ok(presentSearch(await searches.updateSearch(ctx, authOf(req).user.id, body)));
  });

  app.get('/v1/search/detail', async (req) => {
    const q = validate(c.detail.query, req.query);
    return ok(presentSearch(await searches.loadSearchApp(ctx, authOf(req).user.id, q.search_id, 'read')));
  });

  app.post('/v1/search/list', async (req) => {
    const q = validate(c.list.query, req.query);
    const b = validate(c.list.body, req.body);
    const { rows, total } = await searches.listSearches(ctx, authOf(req).user.id, q, b.owner_ids);
    return ok({ search_apps: rows.map(presentSearchListItem), total });
  });

  app.post('/v1/search/rm', async (req) => {
    const body = validate(c.rm.body, req.body);
    await searches.removeSearch(ctx, authOf(req).user.id, body.search_id);
    return ok(true);
  });
}
