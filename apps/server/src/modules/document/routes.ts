import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { contract, RetCode } from '@lectern/shared';
import type { AppContext } from '../../context.js';
import { authOf } from '../../http/auth.js';
import { documentBlobKey } from '../../storage/blob-refs.js';
import { ApiError, errors, ok } from '../../http/envelope.js';
import { sendUserContent } from '../../http/user-content.js';
import { sendDocxPreview } from '../../http/docx-preview.js';
import { asObject, validate } from '../../http/validate.js';
import { accessScopeOf, loadKb, refusals } from '../../policy/index.js';
import { listQueryOf } from '../kb/paging.js';
import { attachmentDownloadRoute, attachmentRoutes } from './attachments.js';
import { fileRoutes } from './file-routes.js';
import { documentMetadataRoutes } from './metadata-routes.js';
import { DOC_ORDER_COLUMNS, docFilterOf, filterSummary, listDocs } from './list.js';
import { presentDocument, presentListedDocument, thumbnailUrl } from './presenter.js';
import * as docs from './service.js';
import { usableDoc, usableDocs } from './service.js';

const c = contract.document;

/** The KB a list call names, readable by the caller (else 101 / 103 as API.md §6 says). */
async function listedKb(ctx: AppContext, req: FastifyRequest, kbId: unknown) {
  if (typeof kbId !== 'string' || kbId === '') throw errors.argument('Lack of "KB ID"');
  const db = ctx.db.kysely;
  return loadKb(db, await accessScopeOf(db, authOf(req).user.id), kbId, 'read', {
    refused: refusals.datasetOwner,
  });
}

export async function documentRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  // Multipart routes (upload, web_crawl, parse) live in their own scope with the upload limits.
  await app.register(async (scope) => {
    await scope.register(multipart, {
      limits: {
        fileSize: ctx.config.maxFileBytes,
        files: ctx.config.maxFilesPerBatch,
        fields: 50,
        fieldSize: 1024 * 1024,
        parts: ctx.config.maxFilesPerBatch + 50,
      },
    });
    await fileRoutes(scope, ctx);
    await attachmentRoutes(scope, ctx);
  });

  await attachmentDownloadRoute(app, ctx);
  await documentMetadataRoutes(app, ctx);

  app.post('/v1/document/create', async (req) => {
    const body = validate(c.create.body, req.body);
    return ok(presentDocument(await docs.createVirtualDoc(ctx, authOf(req).user, body.name, body.kb_id)));
  });

  app.post('/v1/document/list', async (req) => {
    const q = validate(c.list.query, req.query);
    const kb = await listedKb(ctx, req, q.kb_id);
    const body = validate(c.list.body, req.body);
    const list = listQueryOf(q, DOC_ORDER_COLUMNS);
    const { total, docs: rows } = await listDocs(ctx, kb.id, list, docFilterOf(q, body, list.keywords));
    return ok({ total, docs: rows.map(presentListedDocument) });
  });

  app.post('/v1/document/filter', async (req) => {
    const kb = await listedKb(ctx, req, asObject(req.body).kb_id);
    const filters = validate(c.filter.body, req.body);
    const keywords = typeof filters.keywords === 'string' ? filters.keywords.trim() : '';
    return ok(await filterSummary(ctx, kb.id, docFilterOf({}, filters, keywords)));
  });

  app.post('/v1/document/infos', async (req) => {
    const { doc_ids } = validate(c.infos.body, req.body);
    const found = await usableDocs(ctx, authOf(req).user, doc_ids);
    return ok(found.map((f) => presentDocument(f.doc)));
  });

  app.get('/v1/document/thumbnails', { config: { public: true } }, async (req) => {
    const raw = validate(c.thumbnails.query, req.query).doc_ids;
    const ids = (Array.isArray(raw) ? raw : [raw])
      .flatMap((v) => (typeof v === 'string' ? v.split(',') : []))
      .filter((v) => v.length > 0);
    if (ids.length === 0) throw errors.argument('Lack of "Document ID"');
    const rows = await ctx.db.kysely
      .selectFrom('document')
      .select(['id', 'kb_id', 'thumbnail'])
      .where('id', 'in', ids)
      .execute();
    return ok(Object.fromEntries(rows.map((r) => [r.id, thumbnailUrl(r)])));
  });

  app.post('/v1/document/change_status', async (req) => {
    const body = validate(c.changeStatus.body, req.body);
    return ok(await docs.changeStatus(ctx, authOf(req).user, body.doc_ids, body.status));
  });

  app.post('/v1/document/rm', async (req) => {
    const { doc_id } = validate(c.rm.body, req.body);
    await docs.removeDocs(ctx, authOf(req).user, Array.isArray(doc_id) ? doc_id : [doc_id]);
    return ok(true);
  });

  app.post('/v1/document/run', async (req) => {
    const body = validate(c.run.body, req.body);
    await docs.runDocs(ctx, authOf(req).user, body);
    return ok(true);
  });

  app.post('/v1/document/rename', async (req) => {
    const body = validate(c.rename.body, req.body);
    await docs.renameDoc(ctx, authOf(req).user, body.doc_id, body.name);
    return ok(true);
  });

  app.post('/v1/document/change_parser', async (req) => {
    const body = validate(c.changeParser.body, req.body);
    await docs.changeParser(ctx, authOf(req).user, body);
    return ok(true);
  });

  app.post('/v1/document/set_meta', async (req) => {
    const body = validate(c.setMeta.body, req.body);
    await docs.setMeta(ctx, authOf(req).user, body.doc_id, body.meta);
    return ok(true);
  });

  app.get<{ Params: { doc_id: string } }>('/v1/document/get/:doc_id', async (req, reply) => {
    const found = await usableDoc(ctx, authOf(req).user, req.params.doc_id).catch(() => null);
    if (!found) throw errors.data('Document not found!');
    const { doc } = found;
    const key = documentBlobKey(doc);
    const bytes = key ? await ctx.blobs.get(key) : Buffer.alloc(0);
    if (!bytes) throw errors.data('Document not found!');
    return sendUserContent(reply, bytes, { ext: doc.suffix, fileName: doc.name });
  });

  app.get<{ Params: { doc_id: string } }>('/v1/document/preview/:doc_id', async (req, reply) => {
    const found = await usableDoc(ctx, authOf(req).user, req.params.doc_id).catch(() => null);
    if (!found) throw errors.data('Document not found!');
    const { doc } = found;
    const key = documentBlobKey(doc);
    const bytes = key ? await ctx.blobs.get(key) : null;
    if (!bytes) throw errors.data('Document not found!');
    return sendDocxPreview(reply, bytes, doc.suffix, doc.name);
  });

  app.get<{ Params: { image_id: string } }>(
    '/v1/document/image/:image_id',
    { config: { public: true } },
    async (req, reply) => {
      const id = req.params.image_id;
      const dash = id.indexOf('-');
      const bucket = dash > 0 ? id.slice(0, dash) : '';
      const name = dash > 0 ? id.slice(dash + 1) : '';
      // Only thumbnails and chunk images are public; original uploads never are.
      const isImage =
        /^[0-9a-f]{32}$/.test(bucket) &&
        (/^thumbnail_[0-9a-f]{32}\.png$/.test(name) || /^[0-9a-f]{16}$/.test(name));
      const bytes = isImage ? await ctx.blobs.get(`${bucket}/${name}`) : null;
      if (!bytes) throw new ApiError(RetCode.DATA_ERROR, 'Image not found.');
      return sendUserContent(reply, bytes, { ext: 'jpg', contentType: 'image/JPEG' });
    },
  );
}
