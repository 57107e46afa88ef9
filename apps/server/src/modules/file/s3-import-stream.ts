/**
 * The streamed form of `file/import_s3` (`stream: true`): the import's progress as server-sent events
 * (`listed`, one `object` per object, `finished`, then the terminator; contract `s3ImportEventSchema`).
 * Refusals found before the first object (bad endpoint, foreign folder, wrong keys, unknown bucket, too
 * many objects) are one JSON answer as without `stream`; the stream opens once the objects are listed.
 * The client closing the stream cancels the import after the current object.
 */
import type { FastifyReply } from 'fastify';
import type { S3ImportEvent } from '@lectern/shared';
import { SseWriter, sseFrame } from '../../chat/sse.js';
import type { AppContext } from '../../context.js';
import { ApiError } from '../../http/envelope.js';
import { presentFile } from './presenter.js';
import { importFromS3, type S3ImportInput } from './s3-import.js';
import type { Caller } from './service.js';

export async function streamS3Import(
  ctx: AppContext,
  caller: Caller,
  input: S3ImportInput,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const sse = new SseWriter(reply);
  const send = (event: S3ImportEvent) => sse.data(event);
  let result;
  try {
    result = await importFromS3(ctx, caller, input, {
      signal: sse.signal,
      onListed: (total) => send({ event: 'listed', total }),
      onObject: ({ key, file, reason, done, total }) =>
        send({
          event: 'object',
          key,
          status: file ? 'imported' : 'skipped',
          ...(file ? { file: presentFile(file) } : { reason: reason ?? '' }),
          done,
          total,
        }),
    });
  } catch (err) {
    // Not streaming yet: the refusal is the route's one JSON answer (the app's error handler).
    if (!sse.started) throw err;
    reply.log.error({ err }, 'S3 import failed mid-stream');
    const refusal = err instanceof ApiError ? err : null;
    sse.write(
      sseFrame({
        code: refusal?.code ?? 500,
        message: refusal?.message ?? 'The import failed.',
        data: false,
      }),
    );
    sse.close();
    return reply;
  }
  if (!sse.clientGone)
    send({ event: 'finished', files: result.files.map(presentFile), skipped: result.skipped });
  sse.end();
  return reply;
}
