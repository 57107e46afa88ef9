/**
 * Speech to text (API.md §9 `conversation/sequence2txt`, and `/api/v1/sequence2txt`): an uploaded
 * audio file transcribed with the tenant's default ASR model, answered as `{text}` or, with
 * `stream=true`, as events (`{"event":"final","text":…}`; `{"event":"error","text":…}` on failure —
 * the model port transcribes whole files, so the stream carries one final event).
 */
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { SseWriter, sseFrame } from '../../chat/sse.js';
import { authOf } from '../../http/auth.js';
import { ApiError, errors, ok } from '../../http/envelope.js';
import { modelFor } from '../../models/registry.js';
import { extensionOf } from '../kb/naming.js';
import { readTmp, readUploadForm } from '../document/intake.js';
import { ownedTenant } from '../user/service.js';

export const AUDIO_EXTENSIONS = ['wav', 'mp3', 'm4a', 'aac', 'flac', 'ogg', 'webm', 'opus', 'wma'];

const MIME: Record<string, string> = {
  wav: 'audio/wav',
  mp3: 'audio/mpeg',
  m4a: 'audio/mp4',
  aac: 'audio/aac',
  flac: 'audio/flac',
  ogg: 'audio/ogg',
  webm: 'audio/webm',
  opus: 'audio/opus',
  wma: 'audio/x-ms-wma',
};

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * Reads the form, checks the file and the tenant's ASR model, transcribes, and answers. `tenantOwner`
 * is the user whose tenant's default model is used (the caller, or an API key's tenant owner).
 */
export async function answerSequence2txt(
  ctx: AppContext,
  req: FastifyRequest,
  reply: FastifyReply,
  tenantOwner: string,
) {
  if (!req.isMultipart()) throw errors.data("Missing 'file' in multipart form-data");
  const form = await readUploadForm(req, ctx);
  try {
    const file = form.files[0];
    if (!file) throw errors.data("Missing 'file' in multipart form-data");
    const ext = extensionOf(file.filename);
    if (!AUDIO_EXTENSIONS.includes(ext))
      throw errors.data(`Unsupported audio format: ${ext}. Allowed: ${AUDIO_EXTENSIONS.join(', ')}`);
    const tenant = await ownedTenant(ctx, tenantOwner);
    if (!tenant.asr_id) throw errors.data('No default ASR model is set');
    const model = await modelFor(ctx, tenant.id, tenant.asr_id, 'speech2text');
    const audio = await readTmp(file);
    const stream = form.fields.stream === 'true' || form.fields.stream === '1';
    if (!stream) {
      try {
        return ok({ text: (await model.transcribe(audio, { mimeType: MIME[ext] })).text });
      } catch (err) {
        throw new ApiError(500, errorText(err), false);
      }
    }
    const sse = new SseWriter(reply);
    try {
      const { text } = await model.transcribe(audio, { mimeType: MIME[ext], signal: sse.signal });
      sse.write(sseFrame({ event: 'final', text }));
    } catch (err) {
      sse.write(sseFrame({ event: 'error', text: errorText(err) }));
    }
    // Transcription streams end after their final (or error) event, without the chat terminator.
    sse.end(null);
    return reply;
  } finally {
    await form.cleanup();
  }
}

export async function sequence2txtRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: ctx.config.maxFileBytes, files: 1, fields: 10 } });
    scope.post('/v1/conversation/sequence2txt', async (req, reply) =>
      answerSequence2txt(ctx, req, reply, authOf(req).user.id),
    );
  });
}
