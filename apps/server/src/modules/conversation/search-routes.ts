/**
 * `/v1/conversation/{tts, ask, mindmap, related_questions}`: the search page (with a search app's
 * configuration when a `search_id` is given, modules/search-app/run.ts) and text to speech.
 */
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { contract } from '@lectern/shared';
import type { AppContext } from '../../context.js';
import type { ChatServices } from '../../chat/services.js';
import { sseErrorFrame } from '../../chat/sse.js';
import { ttsPieces } from '../../chat/tts.js';
import { authOf } from '../../http/auth.js';
import { ApiError, errors, ok } from '../../http/envelope.js';
import { validate } from '../../http/validate.js';
import { modelFor } from '../../models/registry.js';
import { searchMindMap, searchRelated, streamAsk } from '../search-app/run.js';
import { ownedTenant } from '../user/service.js';
import { errorMessage } from './completion.js';

const c = contract.conversation;

export async function searchRoutes(app: FastifyInstance, ctx: AppContext, svc: ChatServices): Promise<void> {
  app.post('/v1/conversation/tts', async (req, reply) => {
    const body = validate(c.tts.body, req.body);
    const tenant = await ownedTenant(ctx, authOf(req).user.id);
    const ttsId = tenant.tts_id;
    if (!ttsId) throw errors.data('No default TTS model is set');
    const tts = await modelFor(ctx, tenant.id, ttsId, 'tts');
    const pieces = ttsPieces(body.text);
    // The first piece is synthesized before answering, so a broken model gets a clean envelope.
    let first: Uint8Array;
    try {
      first = pieces.length > 0 ? (await tts.speak(pieces[0])).audio : new Uint8Array();
    } catch (err) {
      throw new ApiError(500, errorMessage(err, req.log), false);
    }
    async function* audio() {
      yield Buffer.from(first);
      for (const piece of pieces.slice(1)) {
        try {
          yield Buffer.from((await tts.speak(piece)).audio);
        } catch (err) {
          yield Buffer.from(sseErrorFrame(errorMessage(err, req.log)));
          return;
        }
      }
    }
    reply.header('Cache-Control', 'no-cache').header('X-Accel-Buffering', 'no').type('audio/mpeg');
    return reply.send(Readable.from(audio()));
  });

  app.post('/v1/conversation/ask', async (req, reply) => {
    const body = validate(c.ask.body, req.body);
    return streamAsk(ctx, svc, reply, authOf(req).user.id, body, req.log);
  });

  app.post('/v1/conversation/mindmap', async (req) => {
    const body = validate(c.mindmap.body, req.body);
    return ok(await searchMindMap(ctx, svc, authOf(req).user.id, body, req.log));
  });

  app.post('/v1/conversation/related_questions', async (req) => {
    const body = validate(c.relatedQuestions.body, req.body);
    return ok(await searchRelated(ctx, svc, authOf(req).user.id, body));
  });
}
