import type { FastifyInstance } from 'fastify';
import { contract } from '@lectern/shared';
import type { AppContext } from '../../context.js';
import { authOf } from '../../http/auth.js';
import { errors, ok } from '../../http/envelope.js';
import { validate } from '../../http/validate.js';
import { presentKbRow } from './presenter.js';
import {
  checkEmbedding,
  KB_JOB_KINDS,
  unbindTask,
  updateMetadataSetting,
  type KbJobKind,
} from './settings.js';

const c = contract.kb;

/** `kb/update_metadata_setting`, `kb/check_embedding`, `kb/unbind_task` (API.md §5). */
export async function kbSettingsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.post('/v1/kb/update_metadata_setting', async (req) => {
    const body = validate(c.updateMetadataSetting.body, req.body);
    const row = await updateMetadataSetting(
      ctx,
      authOf(req).user,
      body.kb_id,
      body.metadata,
      body.enable_metadata ?? true,
    );
    return ok(presentKbRow(row));
  });

  app.post('/v1/kb/check_embedding', async (req) => {
    const body = validate(c.checkEmbedding.body, req.body);
    return ok(await checkEmbedding(ctx, authOf(req).user, body.kb_id, body.embd_id, body.check_num ?? 5));
  });

  app.delete('/v1/kb/unbind_task', async (req) => {
    const q = validate(c.unbindTask.query, req.query);
    if (typeof q.kb_id !== 'string' || q.kb_id === '') throw errors.data('Lack of "KB ID"');
    const kind = q.pipeline_task_type;
    if (typeof kind !== 'string' || !(KB_JOB_KINDS as readonly string[]).includes(kind))
      throw errors.data('Invalid task type');
    await unbindTask(ctx, authOf(req).user, q.kb_id, kind as KbJobKind);
    return ok(true);
  });
}
