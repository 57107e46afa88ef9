/**
 * `/v1/conversation/{tts, ask, mindmap, related_questions}`: the search page and text to speech.
 */
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { contract } from '@lectern/shared';
import type { AppContext } from '../../context.js';
import { answerQuestion } from '../../chat/answer.js';
import { relatedQuestions } from '../../chat/llm-tasks.js';
import { presentReference } from '../../chat/reference.js';
import { askDialog, mindMapFor } from '../../chat/search-answer.js';
import type { ChatServices } from '../../chat/services.js';
import { SseWriter, sseErrorFrame } from '../../chat/sse.js';
import { ttsPieces } from '../../chat/tts.js';
import { authOf } from '../../http/auth.js';
import { ApiError, errors, ok } from '../../http/envelope.js';
import { validate } from '../../http/validate.js';
import { modelFor } from '../../models/registry.js';
import { accessScopeOf, loadKbs } from '../../policy/index.js';
import { ownedTenant } from '../user/service.js';
import { errorMessage } from './completion.js';

const c = contract.conversation;

/** The KBs must all be live and usable by the caller (own, or team-shared); else 109. */
async function assertKbs(ctx: AppContext, userId: string, kbIds: string[]): Promise<void> {
  if (kbIds.length === 0) return;
  const db = ctx.db.kysely;
  await loadKbs(db, await accessScopeOf(db, userId), [...new Set(kbIds)], 'read');
}

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
    const userId = authOf(req).user.id;
    const sse = new SseWriter(reply);
    sse.open();
    try {
      await assertKbs(ctx, userId, body.kb_ids);
      const dialog = askDialog(userId, body.kb_ids);
      const gen = answerQuestion(svc, dialog, [{ role: 'user', content: body.question }], {
        signal: sse.signal,
      });
      for (let step = await gen.next(); !step.done; step = await gen.next()) {
        const ev = step.value;
        const reference = ev.final ? presentReference(ev.reference, 'web') : { chunks: [] };
        if (!sse.data({ ...ev, reference })) break;
      }
    } catch (err) {
      sse.error(errorMessage(err, req.log));
    }
    sse.end();
    return reply;
  });

  app.post('/v1/conversation/mindmap', async (req) => {
    const body = validate(c.mindmap.body, req.body);
    const userId = authOf(req).user.id;
    await assertKbs(ctx, userId, body.kb_ids);
    try {
      return ok(await mindMapFor(svc, userId, body.question, [...new Set(body.kb_ids)]));
    } catch (err) {
      if (err instanceof ApiError && err.code !== 102) throw err;
      throw errors.exception(errorMessage(err, req.log), false);
    }
  });

  app.post('/v1/conversation/related_questions', async (req) => {
    const body = validate(c.relatedQuestions.body, req.body);
    const { model } = await svc.chatModel(authOf(req).user.id, '');
    return ok(await relatedQuestions(model, body.question));
  });
}
