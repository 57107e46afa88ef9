import type { FastifyInstance, FastifyRequest } from 'fastify';
import { contract } from '@lectern/shared';
import type { AppContext } from '../../context.js';
import { authOf } from '../../http/auth.js';
import { ok } from '../../http/envelope.js';
import { validate } from '../../http/validate.js';
import { presentDialog, presentDialogListItem, presentPublicAgent } from './presenter.js';
import * as dialogs from './service.js';

const c = contract.dialog;

export async function dialogRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.post('/v1/dialog/set', async (req) => {
    const body = validate(c.set.body, req.body);
    const row = await dialogs.setDialog(ctx, authOf(req).user.id, body);
    return ok(presentDialog(row, await dialogs.kbNamesOf(ctx, dialogs.dialogConfigOf(row).kb_ids)));
  });

  app.get('/v1/dialog/get', async (req) => {
    const q = validate(c.get.query, req.query);
    const row = await dialogs.ownedDialog(ctx, authOf(req).user.id, q.dialog_id);
    return ok(presentDialog(row, await dialogs.kbNamesOf(ctx, dialogs.dialogConfigOf(row).kb_ids)));
  });

  app.get('/v1/dialog/list', async (req) => {
    const rows = await dialogs.listDialogs(ctx, authOf(req).user.id);
    const all = [...new Set(rows.flatMap((r) => dialogs.dialogConfigOf(r).kb_ids))];
    const live = new Map((await dialogs.liveKbs(ctx, all)).map((kb) => [kb.id, kb.name]));
    return ok(
      rows.map((r) => {
        const ids = dialogs.dialogConfigOf(r).kb_ids.filter((id) => live.has(id));
        return presentDialog(r, { kb_ids: ids, kb_names: ids.map((id) => live.get(id) as string) });
      }),
    );
  });

  app.post('/v1/dialog/next', async (req) => {
    const q = validate(c.next.query, req.query);
    const b = validate(c.next.body, req.body);
    const { rows, total } = await dialogs.nextDialogs(ctx, authOf(req).user.id, { ...q, ...b });
    return ok({ dialogs: rows.map(presentDialogListItem), total });
  });

  const rm = async (req: FastifyRequest) => {
    const body = validate(c.rm.body, req.body);
    await dialogs.removeDialogs(ctx, authOf(req).user.id, body.dialog_ids);
    return ok(true);
  };
  app.post('/v1/dialog/rm', rm);
  app.post('/v1/dialog/remove', rm);

  app.get('/v1/dialog/list-public-agent', async (req) => {
    const q = validate(c.listPublicAgent.query, req.query);
    return ok((await dialogs.publicAgents(ctx, authOf(req).user.id, q)).map(presentPublicAgent));
  });
}
