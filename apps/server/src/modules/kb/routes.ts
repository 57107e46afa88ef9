import type { FastifyInstance } from 'fastify';
import { contract, KB_FORBIDDEN_FIELDS } from '@lectern/shared';
import type { AppContext } from '../../context.js';
import { authOf } from '../../http/auth.js';
import { errors, ok } from '../../http/envelope.js';
import { asObject, forbidFields, validate } from '../../http/validate.js';
import * as extras from './extras.js';
import { listQueryOf } from './paging.js';
import { presentKbDetail, presentKbListItem, presentKbRow } from './presenter.js';
import * as kbs from './service.js';
import { kbUsage } from './usage.js';

const c = contract.kb;

export async function kbRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.post('/v1/kb/create', async (req) => {
    const body = validate(c.create.body, req.body);
    return ok({ kb_id: await kbs.createKb(ctx, authOf(req).user, body) });
  });

  app.post('/v1/kb/update', async (req) => {
    const body = validate(c.update.body, req.body);
    forbidFields(req.body, KB_FORBIDDEN_FIELDS);
    const row = await kbs.updateKb(ctx, authOf(req).user, body);
    // "KB row merged with the request" (API.md §5), with the stored (trimmed, validated) values winning.
    const request = { ...asObject(req.body) };
    delete request.kb_id;
    const presented = presentKbRow(row);
    return ok({ ...request, ...presented });
  });

  app.get('/v1/kb/detail', async (req) => {
    const { kb_id } = validate(c.detail.query, req.query);
    const { kb, size } = await kbs.kbDetail(ctx, authOf(req).user, kb_id);
    return ok(presentKbDetail(kb, size));
  });

  app.post('/v1/kb/list', async (req) => {
    const q = validate(c.list.query, req.query);
    const body = validate(c.list.body, req.body);
    const list = listQueryOf(q, kbs.KB_ORDER_COLUMNS);
    const { rows, total } = await kbs.listKbs(ctx, authOf(req).user, {
      ...list,
      parserId: typeof q.parser_id === 'string' && q.parser_id ? q.parser_id : undefined,
      ownerIds: body.owner_ids,
    });
    return ok({ kbs: rows.map(presentKbListItem), total });
  });

  app.post('/v1/kb/rm', async (req) => {
    const { kb_id } = validate(c.rm.body, req.body);
    await kbs.removeKb(ctx, authOf(req).user, kb_id);
    return ok(true);
  });

  app.get('/v1/kb/usage', async (req) => {
    const { kb_id } = validate(c.usage.query, req.query);
    return ok(await kbUsage(ctx, authOf(req).user, kb_id));
  });

  app.get<{ Params: { kb_id: string } }>('/v1/kb/:kb_id/tags', async (req) => {
    await kbs.usableKb(ctx, authOf(req).user, req.params.kb_id);
    return ok(await extras.tagCounts(ctx, [req.params.kb_id]));
  });

  app.get('/v1/kb/tags', async (req) => {
    const ids = extras.splitIds(validate(c.tagsOfKbs.query, req.query).kb_ids);
    await extras.usableKbs(ctx, authOf(req).user, ids);
    return ok(await extras.tagCounts(ctx, ids));
  });

  app.post<{ Params: { kb_id: string } }>('/v1/kb/:kb_id/rm_tags', async (req) => {
    await kbs.usableKb(ctx, authOf(req).user, req.params.kb_id);
    const { tags } = validate(c.rmTags.body, req.body);
    await extras.removeTags(ctx, req.params.kb_id, tags);
    return ok(true);
  });

  app.post<{ Params: { kb_id: string } }>('/v1/kb/:kb_id/rename_tag', async (req) => {
    await kbs.usableKb(ctx, authOf(req).user, req.params.kb_id);
    const { from_tag, to_tag } = validate(c.renameTag.body, req.body);
    await extras.renameTag(ctx, req.params.kb_id, from_tag, to_tag);
    return ok(true);
  });

  app.get('/v1/kb/get_meta', async (req) => {
    const ids = extras.splitIds(validate(c.getMeta.query, req.query).kb_ids);
    await extras.usableKbs(ctx, authOf(req).user, ids);
    return ok(await extras.metaSummary(ctx, ids));
  });

  app.get('/v1/kb/basic_info', async (req) => {
    const kbId = validate(c.basicInfo.query, req.query).kb_id;
    if (typeof kbId !== 'string' || kbId === '') throw errors.argument('Lack of "KB ID"');
    await kbs.usableKb(ctx, authOf(req).user, kbId);
    return ok(await extras.basicInfo(ctx, kbId));
  });
}
