/**
 * `/api/v1/datasets/<id>/documents…` and `…/chunks` (API.md §17): upload, list, update, download,
 * delete; parse start/stop; chunk CRUD — each over the `/v1` document and chunk services. The
 * document must belong to the dataset in the path (else 102 "You don't own the document …").
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { contract, RetCode } from '@lectern/shared';
import type { AppContext } from '../../context.js';
import { authOf } from '../../http/auth.js';
import { ApiError, errors } from '../../http/envelope.js';
import { validate } from '../../http/validate.js';
import { accessScopeOf, loadKb } from '../../policy/index.js';
import * as chunks from '../chunk/service.js';
import { keywordList } from '../chunk/fields.js';
import { sendUserContent } from '../../http/user-content.js';
import { documentBlobKey } from '../../storage/blob-refs.js';
import { readTmp, readUploadForm } from '../document/intake.js';
import * as docs from '../document/service.js';
import { storeUploads } from '../document/upload.js';
import { done, pageParam, PUBLIC } from './auth.js';
import { presentPublicChunk, presentPublicDocument } from './presenters.js';

const c = contract.publicApi;
type DatasetParams = { Params: { dataset_id: string } };
type DocParams = { Params: { dataset_id: string; document_id: string } };

async function dataset(ctx: AppContext, req: FastifyRequest, id: string, action: 'read' | 'manage' = 'read') {
  const db = ctx.db.kysely;
  return loadKb(db, await accessScopeOf(db, authOf(req).user.id), id, action);
}

/** The document when it is in the path's dataset and the key may use it. */
async function documentIn(
  ctx: AppContext,
  req: FastifyRequest,
  datasetId: string,
  docId: string,
  action: 'read' | 'manage' = 'read',
) {
  await dataset(ctx, req, datasetId, action);
  const found = await docs.usableDoc(ctx, authOf(req).user, docId, action).catch(() => null);
  if (!found || found.kb.id !== datasetId) throw errors.data(`You don't own the document ${docId}.`);
  return found;
}

async function docsIn(ctx: AppContext, req: FastifyRequest, datasetId: string, ids: string[]) {
  for (const id of ids) await documentIn(ctx, req, datasetId, id, 'manage');
}

export async function documentRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.post<DatasetParams>('/api/v1/datasets/:dataset_id/documents', PUBLIC, async (req) => {
    const kb = await dataset(ctx, req, req.params.dataset_id);
    if (!req.isMultipart()) throw errors.argument('No file part!');
    const form = await readUploadForm(req, ctx);
    try {
      if (form.files.length === 0) throw errors.argument('No file part!');
      if (form.files.some((f) => f.filename === '')) throw errors.argument('No file selected!');
      const stored = await storeUploads(
        ctx,
        authOf(req).user,
        kb,
        form.files.map((f) => ({ filename: f.filename, load: () => readTmp(f) })),
      );
      if (stored.errors.length > 0) throw new ApiError(RetCode.SERVER_ERROR, stored.errors.join('\n'));
      return done(stored.docs.map(presentPublicDocument));
    } finally {
      await form.cleanup();
    }
  });

  app.get<DatasetParams>('/api/v1/datasets/:dataset_id/documents', PUBLIC, async (req) => {
    const q = validate(c.listDocuments.query, req.query);
    const kb = await dataset(ctx, req, req.params.dataset_id);
    const page = pageParam('page', q.page, 1);
    const pageSize = pageParam('page_size', q.page_size, 30);
    let base = ctx.db.kysely.selectFrom('document').where('kb_id', '=', kb.id);
    if (q.id) base = base.where('id', '=', q.id);
    if (q.name) base = base.where('name', '=', q.name);
    if (q.keywords) base = base.where('name', 'like', `%${q.keywords.replace(/[\\%_]/g, (m) => `\\${m}`)}%`);
    const total = Number(
      (await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0,
    );
    const orderby = q.orderby === 'update_time' ? 'update_time' : 'create_time';
    const rows = await base
      .selectAll()
      .orderBy(orderby, (q.desc ?? 'true').toLowerCase() === 'false' ? 'asc' : 'desc')
      .orderBy('id')
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute();
    return done({ docs: rows.map(presentPublicDocument), total });
  });

  app.put<DocParams>('/api/v1/datasets/:dataset_id/documents/:document_id', PUBLIC, async (req) => {
    const body = validate(c.updateDocument.body, req.body);
    const { doc } = await documentIn(ctx, req, req.params.dataset_id, req.params.document_id, 'manage');
    const user = authOf(req).user;
    if (body.name !== undefined && body.name !== doc.name) await docs.renameDoc(ctx, user, doc.id, body.name);
    if (body.meta_fields !== undefined)
      await docs.setMeta(ctx, user, doc.id, JSON.stringify(body.meta_fields));
    if (body.chunk_method !== undefined || body.parser_config !== undefined)
      await docs.changeParser(ctx, user, {
        doc_id: doc.id,
        parser_id: body.chunk_method ?? doc.parser_id,
        parser_config: body.parser_config,
      });
    if (body.enabled !== undefined) {
      const result = await docs.changeStatus(ctx, user, [doc.id], body.enabled ? '1' : '0');
      const entry = result[doc.id];
      if (entry && 'error' in entry) throw errors.data(entry.error);
    }
    const fresh = await ctx.db.kysely
      .selectFrom('document')
      .selectAll()
      .where('id', '=', doc.id)
      .executeTakeFirstOrThrow();
    return done(presentPublicDocument(fresh));
  });

  app.get<DocParams>('/api/v1/datasets/:dataset_id/documents/:document_id', PUBLIC, async (req, reply) => {
    const { doc } = await documentIn(ctx, req, req.params.dataset_id, req.params.document_id);
    const key = documentBlobKey(doc);
    const bytes = key ? await ctx.blobs.get(key) : Buffer.alloc(0);
    if (!bytes) throw errors.data('Document not found!');
    return sendUserContent(reply, bytes, { ext: doc.suffix, fileName: doc.name });
  });

  app.delete<DatasetParams>('/api/v1/datasets/:dataset_id/documents', PUBLIC, async (req) => {
    const body = validate(c.deleteDocuments.body, req.body ?? {});
    const kb = await dataset(ctx, req, req.params.dataset_id, 'manage');
    const ids =
      body.ids ??
      (await ctx.db.kysely.selectFrom('document').select('id').where('kb_id', '=', kb.id).execute()).map(
        (r) => r.id,
      );
    await docsIn(ctx, req, kb.id, ids);
    if (ids.length > 0) await docs.removeDocs(ctx, authOf(req).user, ids);
    return done(null);
  });

  const parsing = (run: '1' | '2') => async (req: FastifyRequest<DatasetParams>) => {
    const body = validate(c.startParsing.body, req.body);
    if (body.document_ids.length === 0) throw errors.argument('`document_ids` is required');
    await docsIn(ctx, req, req.params.dataset_id, body.document_ids);
    await docs.runDocs(ctx, authOf(req).user, { doc_ids: body.document_ids, run, delete: run === '1' });
    return done(null);
  };
  app.post<DatasetParams>('/api/v1/datasets/:dataset_id/chunks', PUBLIC, parsing('1'));
  app.delete<DatasetParams>('/api/v1/datasets/:dataset_id/chunks', PUBLIC, parsing('2'));

  const chunkPath = '/api/v1/datasets/:dataset_id/documents/:document_id/chunks';
  app.get<DocParams>(chunkPath, PUBLIC, async (req) => {
    const q = validate(c.listChunks.query, req.query);
    const { doc } = await documentIn(ctx, req, req.params.dataset_id, req.params.document_id);
    const page = pageParam('page', q.page, 1);
    const size = pageParam('page_size', q.page_size, 30);
    const res = await chunks.listChunks(ctx, authOf(req).user, {
      docId: doc.id,
      page,
      size,
      keywords: q.keywords ?? '',
    });
    const full = await ctx.chunkIndex.getMany(res.chunks.map((ch) => ch.chunk_id));
    const byId = new Map(full.map((f) => [f.id, f]));
    return done({
      // Keyword listings carry the highlighted text as `content`.
      chunks: res.chunks.flatMap((ch) => {
        const f = byId.get(ch.chunk_id);
        return f ? [{ ...presentPublicChunk(f), content: ch.content_with_weight }] : [];
      }),
      doc: presentPublicDocument(res.doc),
      total: res.total,
    });
  });

  app.post<DocParams>(chunkPath, PUBLIC, async (req) => {
    const body = validate(c.addChunk.body, req.body);
    if (typeof body.content !== 'string' || body.content.trim() === '')
      throw errors.argument('`content` is required');
    const { doc } = await documentIn(ctx, req, req.params.dataset_id, req.params.document_id, 'manage');
    const id = await chunks.createChunk(ctx, authOf(req).user, doc.id, {
      content: body.content,
      important_kwd: keywordList('important_keywords', body.important_keywords, 'is required to be a list'),
      question_kwd: keywordList('questions', body.questions, 'is required to be a list'),
    });
    const stored = await ctx.chunkIndex.get(id);
    if (!stored) throw errors.data('Chunk not found!');
    return done({ chunk: presentPublicChunk(stored) });
  });

  app.put<{ Params: DocParams['Params'] & { chunk_id: string } }>(
    `${chunkPath}/:chunk_id`,
    PUBLIC,
    async (req) => {
      const body = validate(c.updateChunk.body, req.body);
      const { doc } = await documentIn(ctx, req, req.params.dataset_id, req.params.document_id, 'manage');
      const current = await ctx.chunkIndex.get(req.params.chunk_id);
      if (!current || current.doc_id !== doc.id)
        throw errors.data(`Can't find this chunk ${req.params.chunk_id}`);
      if (body.content !== undefined && typeof body.content !== 'string')
        throw errors.exception('`content` must be a string.');
      await chunks.setChunk(ctx, authOf(req).user, {
        docId: doc.id,
        chunkId: current.id,
        content: (body.content as string | undefined) ?? current.content_with_weight,
        important_kwd: keywordList('important_keywords', body.important_keywords, 'should be a list'),
        question_kwd: keywordList('questions', body.questions, 'should be a list'),
        available: body.available === undefined ? undefined : body.available ? 1 : 0,
      });
      return done(null);
    },
  );

  app.delete<DocParams>(chunkPath, PUBLIC, async (req) => {
    const body = validate(c.deleteChunks.body, req.body ?? {});
    const { doc } = await documentIn(ctx, req, req.params.dataset_id, req.params.document_id, 'manage');
    const ids =
      body.chunk_ids ??
      (
        await ctx.chunkIndex.list({ kbIds: [doc.kb_id], docIds: [doc.id] }, 'position', 0, 100_000)
      ).chunks.map((ch) => ch.id);
    if (ids.length > 0) await chunks.removeChunks(ctx, authOf(req).user, doc.id, ids);
    return done(null);
  });
}
