import type { FastifyInstance } from 'fastify';
import { docKnowledgeGraph } from '../../graph/jobs/serve.js';
import { contract } from '@lectern/shared';
import type { AppContext } from '../../context.js';
import { authOf } from '../../http/auth.js';
import { errors, ok } from '../../http/envelope.js';
import { validate } from '../../http/validate.js';
import { presentDocument } from '../document/presenter.js';
import { presentStoredChunk } from './presenter.js';
import { withSearchConfig } from '../search-app/run.js';
import { retrievalTest } from './retrieval-test.js';
import { availability, keywordList, nonBlank, positiveInt, tagFeatures } from './fields.js';
import * as chunks from './service.js';
import { chunkDoc } from './service.js';

const c = contract.chunk;

/** Decodes `image_base64` (a bare base64 string or a data URL). */
function imageBytes(value: string | null | undefined): Buffer | undefined {
  if (!value) return undefined;
  const raw = value.replace(/^data:[^,]*,/, '');
  if (!/^[A-Za-z0-9+/=\s]+$/.test(raw)) throw errors.exception('`image_base64` must be base64 data.');
  const bytes = Buffer.from(raw, 'base64');
  return bytes.length > 0 ? bytes : undefined;
}

/** Chunks of a document and retrieval testing (API.md §7). */
export async function chunkRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.post('/v1/chunk/list', async (req) => {
    const body = validate(c.list.body, req.body);
    const page = positiveInt('page', body.page, 1);
    const size = positiveInt('size', body.size, 30, true);
    const available =
      body.available_int === undefined || body.available_int === null || body.available_int === ''
        ? undefined
        : availability(body.available_int);
    const res = await chunks.listChunks(ctx, authOf(req).user, {
      docId: body.doc_id,
      page,
      size,
      keywords: body.keywords ?? '',
      available,
    });
    return ok({ total: res.total, chunks: res.chunks, doc: presentDocument(res.doc) });
  });

  app.get('/v1/chunk/get', async (req) => {
    const { chunk_id } = validate(c.get.query, req.query);
    return ok(presentStoredChunk(await chunks.getChunk(ctx, authOf(req).user, chunk_id)));
  });

  app.post('/v1/chunk/create', async (req) => {
    const body = validate(c.create.body, req.body);
    const important = keywordList('important_kwd', body.important_kwd, 'is required to be a list');
    const questions = keywordList('question_kwd', body.question_kwd, 'is required to be a list');
    const tags = nonBlank(keywordList('tag_kwd', body.tag_kwd, 'is required to be a list'));
    const chunkId = await chunks.createChunk(ctx, authOf(req).user, body.doc_id, {
      content: body.content_with_weight,
      important_kwd: important,
      question_kwd: questions,
      tag_kwd: tags,
      tag_feas: tagFeatures(body.tag_feas),
    });
    return ok({ chunk_id: chunkId });
  });

  app.post('/v1/chunk/set', async (req) => {
    const body = validate(c.set.body, req.body);
    const important = keywordList('important_kwd', body.important_kwd, 'should be a list');
    const questions = keywordList('question_kwd', body.question_kwd, 'should be a list');
    const tags = nonBlank(keywordList('tag_kwd', body.tag_kwd, 'should be a list'));
    const tagFeas = tagFeatures(body.tag_feas);
    const available =
      body.available_int === undefined || body.available_int === null
        ? undefined
        : availability(body.available_int);
    await chunks.setChunk(ctx, authOf(req).user, {
      docId: body.doc_id,
      chunkId: body.chunk_id,
      content: body.content_with_weight,
      important_kwd: important,
      question_kwd: questions,
      tag_kwd: tags,
      tag_feas: tagFeas,
      available,
      image: imageBytes(body.image_base64),
      imgId: body.img_id ?? undefined,
    });
    return ok(true);
  });

  app.post('/v1/chunk/switch', async (req) => {
    const body = validate(c.switch.body, req.body);
    const available = availability(body.available_int);
    await chunks.switchChunks(ctx, authOf(req).user, body.doc_id, body.chunk_ids, available);
    return ok(true);
  });

  app.post('/v1/chunk/rm', async (req) => {
    const body = validate(c.rm.body, req.body);
    await chunks.removeChunks(ctx, authOf(req).user, body.doc_id, body.chunk_ids);
    return ok(true);
  });

  app.post('/v1/chunk/retrieval_test', async (req) => {
    const body = validate(c.retrievalTest.body, req.body);
    const user = authOf(req).user;
    // A search app's settings fill what the request leaves out (API.md §15).
    return ok(await retrievalTest(ctx, user, await withSearchConfig(ctx, user.id, body)));
  });

  // The document's part of the KB graph and its mind map (API.md §7, §19.10).
  app.get('/v1/chunk/knowledge_graph', async (req) => {
    const { doc_id } = validate(c.knowledgeGraph.query, req.query);
    const { kb } = await chunkDoc(ctx, authOf(req).user, doc_id);
    return ok(await docKnowledgeGraph(ctx, kb.id, doc_id));
  });
}
