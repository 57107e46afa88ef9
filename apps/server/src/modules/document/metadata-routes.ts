import type { FastifyInstance } from 'fastify';
import { contract } from '@lectern/shared';
import type { AppContext } from '../../context.js';
import { authOf } from '../../http/auth.js';
import { ok } from '../../http/envelope.js';
import { validate } from '../../http/validate.js';
import { metadataChanges, metadataSummary, updateDocMetadataSetting, updateMetadata } from './metadata.js';
import { presentDocument } from './presenter.js';

const c = contract.document;

/** `document/update_metadata_setting`, `document/metadata/summary`, `document/metadata/update` (API.md §6). */
export async function documentMetadataRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.post('/v1/document/update_metadata_setting', async (req) => {
    const body = validate(c.updateMetadataSetting.body, req.body);
    return ok(
      presentDocument(await updateDocMetadataSetting(ctx, authOf(req).user, body.doc_id, body.metadata)),
    );
  });

  app.post('/v1/document/metadata/summary', async (req) => {
    const body = validate(c.metadataSummary.body, req.body);
    return ok({ summary: await metadataSummary(ctx, authOf(req).user, body.kb_id, body.doc_ids) });
  });

  app.post('/v1/document/metadata/update', async (req) => {
    const body = validate(c.metadataUpdate.body, req.body);
    const changes = metadataChanges(body.updates, body.deletes);
    return ok(await updateMetadata(ctx, authOf(req).user, body.kb_id, body.doc_ids, changes));
  });
}
