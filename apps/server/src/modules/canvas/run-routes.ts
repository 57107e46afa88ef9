/**
 * Agent runs over HTTP (API.md §13, §13.2; AGENTS.md §7.4): the canvas's own conversation
 * (`completion`) and sessions (`<id>/completion`) stream the run's feed; the run itself is a typed
 * task that a disconnect does not stop (`cancel` does), whose events `trace` replays. Uploads for
 * file inputs are stored under the canvas.
 */
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { isErrorEvent, type RunEvent } from '@lectern/agent-core';
import { contract } from '@lectern/shared';
import { sseFrame, SseWriter } from '../../chat/sse.js';
import { canvasTarget, sessionTarget } from '../../agents/targets.js';
import { startRun, type RunRequestSpec, type RunTarget } from '../../agents/runner.js';
import { saveUpload } from '../../agents/storage-port.js';
import type { LiveRun } from '../../agents/live-runs.js';
import type { ServerContext } from '../context.js';
import { authOf } from '../../http/auth.js';
import { errors, ok } from '../../http/envelope.js';
import { validate } from '../../http/validate.js';
import { isOutboundError, outboundPolicyOf } from '../../net/index.js';
import { readTmp, readUploadForm } from '../document/intake.js';
import { fetchUrl, isHttpUrl } from '../document/web-fetch.js';
import { sanitizeFileName } from '../kb/naming.js';
import { presentRunLog } from './presenter.js';
import { accessibleCanvas, dslRefusal } from './service.js';
import { newAgentSession, sessionOf } from './sessions.js';

const c = contract.canvas;

async function start(ctx: ServerContext, target: RunTarget, request: RunRequestSpec): Promise<LiveRun> {
  try {
    return await startRun(ctx, ctx.agents, target, request);
  } catch (err) {
    throw dslRefusal(err) ?? err;
  }
}

/** Streams a run's feed; `pick` maps each event to the frame sent (null = not forwarded). */
async function stream(
  reply: FastifyReply,
  live: LiveRun,
  pick: (e: RunEvent) => unknown,
  last = '',
): Promise<void> {
  const sse = new SseWriter(reply);
  sse.open();
  for await (const e of live.feed.follow()) {
    const frame = pick(e);
    if (frame !== null && !sse.write(sseFrame(frame))) break; // the client left; the run goes on
  }
  sse.close(last);
}

export async function runRoutes(app: FastifyInstance, ctx: ServerContext): Promise<void> {
  app.post('/v1/canvas/completion', async (req, reply) => {
    const body = validate(c.completion.body, req.body);
    const user = authOf(req).user;
    const canvas = await accessibleCanvas(ctx, user.id, body.id);
    if (canvas.canvas_category === 'dataflow_canvas')
      throw errors.argument('Ingestion pipeline canvases are not supported.');
    const live = await start(ctx, canvasTarget(canvas), {
      query: body.query ?? '',
      files: body.files ?? [],
      inputs: body.inputs ?? {},
      userId: body.user_id ?? user.id,
    });
    await stream(reply, live, (e) => e);
  });

  app.post<{ Params: { canvas_id: string } }>('/v1/canvas/:canvas_id/completion', async (req, reply) => {
    const body = validate(c.sessionCompletion.body, req.body);
    const user = authOf(req).user;
    const canvas = await accessibleCanvas(ctx, user.id, req.params.canvas_id);
    const endUser = body.user_id ?? user.id;
    const session = body.session_id
      ? await sessionOf(ctx, canvas.id, body.session_id)
      : await newAgentSession(ctx, canvas, endUser, undefined);
    const request = {
      query: body.query ?? body.question ?? '',
      files: body.files ?? [],
      inputs: body.inputs ?? {},
      userId: endUser,
    };
    const live = await start(ctx, sessionTarget(canvas, session, request), request);
    const finished: Array<{ component_id: string; trace: unknown[] }> = [];
    await stream(
      reply,
      live,
      (e) => {
        if (isErrorEvent(e)) return e;
        const tagged = { ...e, session_id: session.id };
        if (e.event === 'message' || e.event === 'message_end') return tagged;
        if (e.event !== 'node_finished' || !body.return_trace) return null;
        finished.push({ component_id: e.data.component_id, trace: [e.data] });
        return { ...tagged, data: { ...e.data, trace: structuredClone(finished) } };
      },
      'data:[DONE]\n\n',
    );
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
