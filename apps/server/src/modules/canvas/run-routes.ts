/**
 * Agent runs over HTTP (API.md §13, §13.2; AGENTS.md §7.4): the canvas's own conversation
 * (`completion`) and sessions (`<id>/completion`) stream the run's feed; the run itself is a typed
 * task that a disconnect does not stop (`cancel` does), whose events `trace` replays. Uploads for
 * file inputs are stored under the canvas.
 */
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { contract } from '@lectern/shared';
import { canvasTarget } from '../../agents/targets.js';
import { saveUpload } from '../../agents/storage-port.js';
import type { ServerContext } from '../context.js';
import { authOf } from '../../http/auth.js';
import { errors, ok } from '../../http/envelope.js';
import { validate } from '../../http/validate.js';
import { isOutboundError, outboundPolicyOf } from '../../net/index.js';
import { readTmp, readUploadForm } from '../document/intake.js';
import { fetchUrl, isHttpUrl } from '../document/web-fetch.js';
import { sanitizeFileName } from '../kb/naming.js';
import { presentRunLog } from './presenter.js';
import { accessibleCanvas } from './service.js';
import { sessionFrames, startSessionTurn, startTurn, streamFeed } from './session-run.js';

const c = contract.canvas;

export async function runRoutes(app: FastifyInstance, ctx: ServerContext): Promise<void> {
  app.post('/v1/canvas/completion', async (req, reply) => {
    const body = validate(c.completion.body, req.body);
    const user = authOf(req).user;
    const canvas = await accessibleCanvas(ctx, user.id, body.id);
    if (canvas.canvas_category === 'dataflow_canvas')
      throw errors.argument('Ingestion pipeline canvases are not supported.');
    const live = await startTurn(ctx, canvasTarget(canvas), {
      query: body.query ?? '',
      files: body.files ?? [],
      inputs: body.inputs ?? {},
      userId: body.user_id ?? user.id,
    });
    await streamFeed(reply, live, (e) => e);
  });

  app.post<{ Params: { canvas_id: string } }>('/v1/canvas/:canvas_id/completion', async (req, reply) => {
    const body = validate(c.sessionCompletion.body, req.body);
    const user = authOf(req).user;
    const canvas = await accessibleCanvas(ctx, user.id, req.params.canvas_id);
    const { live, sessionId } = await startSessionTurn(ctx, canvas, {
      query: body.query ?? body.question ?? '',
      files: body.files ?? [],
      inputs: body.inputs ?? {},
      userId: body.user_id ?? user.id,
      sessionId: body.session_id,
    });
    await streamFeed(reply, live, sessionFrames(sessionId, body.return_trace === true), 'data:[DONE]\n\n');
  });

  app.put<{ Params: { task_id: string } }>('/v1/canvas/cancel/:task_id', async (req) => {
    const db = ctx.db.kysely;
    const run = await db
      .selectFrom('canvas_run')
      .select(['canvas_id', 'task_id'])
      .where('task_id', '=', req.params.task_id)
      .executeTakeFirst();
    if (!run) throw errors.data('Task not found.');
    await accessibleCanvas(ctx, authOf(req).user.id, run.canvas_id);
    await db.updateTable('task').set({ cancel: 1 }).where('id', '=', run.task_id).execute();
    ctx.agents.runs.get(run.task_id)?.cancel(); // at once here; elsewhere at its next lease renewal
    return ok(true);
  });

  app.get('/v1/canvas/trace', { config: { public: true } }, async (req) => {
    const q = validate(c.trace.query, req.query);
    const row = await ctx.db.kysely
      .selectFrom('canvas_run')
      .selectAll()
      .where('id', '=', q.message_id)
      .where('canvas_id', '=', q.canvas_id)
      .executeTakeFirst();
    return ok(row ? presentRunLog(row) : {});
  });

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
    scope.post<{ Params: { canvas_id: string } }>(
      '/v1/canvas/upload/:canvas_id',
      { config: { public: true } },
      async (req) => {
        const q = validate(c.upload.query, req.query);
        const canvas = await ctx.db.kysely
          .selectFrom('user_canvas')
          .select(['id', 'user_id'])
          .where('id', '=', req.params.canvas_id)
          .executeTakeFirst();
        if (!canvas) throw errors.data('canvas not found.');
        if (q.url) {
          if (!isHttpUrl(q.url)) throw errors.argument('The URL format is invalid');
          const page = await fetchUrl(q.url, {
            policy: outboundPolicyOf(ctx.config),
            maxBytes: ctx.config.maxFileBytes,
            timeoutMs: 60_000,
          }).catch((err: unknown) => {
            if (isOutboundError(err) && err.refused) throw errors.argument(err.message);
            throw errors.exception('Download failure.');
          });
          const name = sanitizeFileName(
            page.fileName ?? new URL(page.url).pathname.split('/').pop() ?? 'file',
          );
          return ok(await saveUpload(ctx, canvas.user_id, canvas.user_id, { name, bytes: page.body }));
        }
        if (!req.isMultipart()) throw errors.argument('No file part!');
        const form = await readUploadForm(req, ctx);
        try {
          if (form.files.length === 0) throw errors.argument('No file part!');
          const saved = [];
          for (const f of form.files)
            saved.push(
              await saveUpload(ctx, canvas.user_id, canvas.user_id, {
                name: sanitizeFileName(f.filename),
                bytes: await readTmp(f),
              }),
            );
          return ok(saved.length === 1 ? saved[0] : saved);
        } finally {
          await form.cleanup();
        }
      },
    );
  });
}
