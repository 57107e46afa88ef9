/** `/api/v1/datasets` (API.md §17): dataset CRUD over the `/v1` KB services. */
import type { FastifyInstance } from 'fastify';
import { contract } from '@lectern/shared';
import type { AppContext } from '../../context.js';
import { authOf } from '../../http/auth.js';
import { errors } from '../../http/envelope.js';
import { validate } from '../../http/validate.js';
import { accessScopeOf, loadKb } from '../../policy/index.js';
import * as kbs from '../kb/service.js';
import { done, pageParam, PUBLIC } from './auth.js';
import { presentDataset } from './presenters.js';

const c = contract.publicApi;

export async function datasetRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.post('/api/v1/datasets', PUBLIC, async (req) => {
    const body = validate(c.createDataset.body, req.body);
    const user = authOf(req).user;
    const kbId = await kbs.createKb(ctx, user, {
      name: body.name as string,
      avatar: body.avatar,
      description: body.description,
      embd_id: body.embedding_model,
      permission: body.permission,
      parser_id: body.chunk_method,
      parser_config: body.parser_config,
    });
    const kb = await kbs.findKb(ctx, kbId);
    if (!kb) throw errors.data("Can't find this dataset!");
    return done(presentDataset(kb));
  });

  app.get('/api/v1/datasets', PUBLIC, async (req) => {
    const q = validate(c.listDatasets.query, req.query);
    const page = pageParam('page', q.page, 1);
    const pageSize = pageParam('page_size', q.page_size, 30);
    const orderby = q.orderby && kbs.KB_ORDER_COLUMNS.includes(q.orderby) ? q.orderby : 'create_time';
    const { rows } = await kbs.listKbs(ctx, authOf(req).user, {
      page: 0,
      pageSize: 0,
      orderby,
      desc: (q.desc ?? 'true').toLowerCase() !== 'false',
      keywords: '',
    });
    const filtered = rows.filter((r) => (!q.id || r.id === q.id) && (!q.name || r.name === q.name));
    if ((q.id || q.name) && filtered.length === 0) throw errors.data("You don't own the dataset.");
    return done(filtered.slice((page - 1) * pageSize, page * pageSize).map(presentDataset));
  });

  app.put<{ Params: { dataset_id: string } }>('/api/v1/datasets/:dataset_id', PUBLIC, async (req) => {
    const body = validate(c.updateDataset.body, req.body);
    const user = authOf(req).user;
    const db = ctx.db.kysely;
    const kb = await loadKb(db, await accessScopeOf(db, user.id), req.params.dataset_id, 'manage');
    const row = await kbs.updateKb(ctx, user, {
      kb_id: kb.id,
      name: body.name ?? kb.name,
      description: body.description !== undefined ? body.description : kb.description,
      parser_id: body.chunk_method ?? kb.parser_id,
      avatar: body.avatar,
      permission: body.permission,
      embd_id: body.embedding_model,
      parser_config: body.parser_config,
      pagerank: body.pagerank,
    });
    return done(presentDataset(row));
  });

  app.delete('/api/v1/datasets', PUBLIC, async (req) => {
    const body = validate(c.deleteDatasets.body, req.body ?? {});
    const user = authOf(req).user;
    // `ids: null` (or absent) = every dataset the key's tenant owns.
    const ids =
      body.ids ??
      (
        await ctx.db.kysely
          .selectFrom('knowledgebase')
          .select('id')
          .where('tenant_id', '=', user.id)
          .where('status', '=', '1')
          .execute()
      ).map((r) => r.id);
    const db = ctx.db.kysely;
    const scope = await accessScopeOf(db, user.id);
    // Check every id before removing any, so a bad id leaves everything in place.
    for (const id of ids) await loadKb(db, scope, id, 'manage');
    for (const id of ids) await kbs.removeKb(ctx, user, id);
    return done(null);
  });
}
