/**
 * The rest of `/api/v1` (API.md §17): retrieval over datasets, speech to text and text to speech
 * with the tenant's models.
 */
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { contract } from '@lectern/shared';
import type { ServerContext } from '../context.js';
import { authOf } from '../../http/auth.js';
import { errors } from '../../http/envelope.js';
import { validate } from '../../http/validate.js';
import { parseRetrievalParams } from '../../search/retrieval-params.js';
import { runRetrieval } from '../../search/run-retrieval.js';
import { fromMetadataCondition } from '../../search/metadata-conditions.js';
import { checked, rewrittenQuestion, usableKbs } from '../chunk/retrieval-test.js';
import { presentHit } from '../chunk/presenter.js';
import { answerSequence2txt } from '../conversation/sequence2txt.js';
import { done, PUBLIC } from './auth.js';
import { presentRetrievalChunk } from './presenters.js';

const c = contract.publicApi;

export async function miscRoutes(app: FastifyInstance, ctx: ServerContext): Promise<void> {
  app.post('/api/v1/retrieval', PUBLIC, async (req) => {
    const body = validate(c.retrieval.body, req.body);
    const user = authOf(req).user;
    const kbIds = [...new Set(body.dataset_ids ?? [])];
    if (kbIds.length === 0) throw errors.data('`dataset_ids` is required.');
    const settings = await checked(() =>
      parseRetrievalParams(
        {
          question: body.question,
          kbIds,
          docIds: body.document_ids,
          page: body.page,
          size: body.page_size,
          similarity_threshold: body.similarity_threshold,
          vector_similarity_weight: body.vector_similarity_weight,
          top_k: body.top_k,
          rerank_id: body.rerank_id,
          keyword: body.keyword,
          cross_languages: body.cross_languages,
          use_kg: body.use_kg,
          toc_enhance: body.toc_enhance,
          highlight: body.highlight,
        },
        'public_retrieval',
      ),
    );
    const kbs = await usableKbs(ctx, user, kbIds);
    const result = await checked(() =>
      runRetrieval(ctx, {
        caller: 'public_retrieval',
        kbs,
        settings,
        rerankTenantId: user.id,
        rewrite: (question) => rewrittenQuestion(ctx, kbs[0], settings, question),
        metaFilters: [fromMetadataCondition(body.metadata_condition)],
      }),
    );
    return done({
      total: result.total,
      chunks: result.chunks.map((h) => presentRetrievalChunk(presentHit(h))),
      doc_aggs: result.doc_aggs,
    });
  });

  await app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: ctx.config.maxFileBytes, files: 1, fields: 10 } });
    scope.post('/api/v1/sequence2txt', PUBLIC, async (req, reply) =>
      answerSequence2txt(ctx, req, reply, authOf(req).user.id),
    );
  });

  app.post('/api/v1/tts', PUBLIC, async (req, reply) => {
    const { text } = validate(c.tts.body, req.body);
    // The same synthesis as `/v1/conversation/tts`, answered by that route's handler.
    const res = await app.inject({
      method: 'POST',
      url: '/v1/conversation/tts',
      headers: { authorization: req.headers.authorization ?? '', 'content-type': 'application/json' },
      payload: JSON.stringify({ text }),
    });
    return reply
      .code(res.statusCode)
      .type(String(res.headers['content-type'] ?? 'audio/mpeg'))
      .send(res.rawPayload);
  });
}
