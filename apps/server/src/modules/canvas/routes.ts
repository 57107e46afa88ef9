/**
 * `/v1/canvas` (API.md §13): canvases, versions, templates, forms, debug and sessions. Runs, cancel,
 * trace and uploads are in ./run-routes.ts.
 */
import type { FastifyInstance } from 'fastify';
import {
  BUILTIN_PROMPTS,
  debugComponent,
  inputElements,
  inputForm,
  loadDsl,
  loadTemplates,
} from '@lectern/agent-core';
import { contract } from '@lectern/shared';
import type { ServerContext } from '../context.js';
import { parseJson } from '../../db/json.js';
import { authOf, credentialOf } from '../../http/auth.js';
import { errors, ok } from '../../http/envelope.js';
import { validate } from '../../http/validate.js';
import { accessScopeOf, authorizeCanvas, refusals } from '../../policy/index.js';
import {
  presentCanvas,
  presentCanvasRow,
  presentListItem,
  presentSaved,
  presentSession,
  presentTemplate,
  presentVersion,
  presentVersionItem,
} from './presenter.js';
import { runRoutes } from './run-routes.js';
import * as canvases from './service.js';
import * as sessions from './sessions.js';

const c = contract.canvas;

export async function canvasRoutes(app: FastifyInstance, ctx: ServerContext): Promise<void> {
  const templates = loadTemplates().map(presentTemplate);
  app.get('/v1/canvas/templates', async () => ok(templates));

  app.get('/v1/canvas/prompts', async () => {
    const p = BUILTIN_PROMPTS;
    return ok({
      task_analysis: p.task_analysis,
      plan_generation: p.plan_generation,
      reflection: p.reflection,
      citation_guidelines: p.citation_guidelines,
    });
  });

  app.get('/v1/canvas/list', async (req) => {
    const q = validate(c.list.query, req.query);
    const { rows, total } = await canvases.listCanvases(ctx, authOf(req).user.id, q, {
      defaults: { page: 0, pageSize: 0 },
    });
    return ok({ canvas: rows.map(presentListItem), total });
  });

  app.get('/v1/canvas/listteam', async (req) => {
    const q = validate(c.listteam.query, req.query);
    const { rows, total } = await canvases.listCanvases(ctx, authOf(req).user.id, q, {
      teamOnly: true,
      defaults: { page: 1, pageSize: 150 },
    });
    return ok({ kbs: rows.map(presentListItem), total });
  });

  app.get<{ Params: { canvas_id: string } }>('/v1/canvas/get/:canvas_id', async (req) => {
    const row = await canvases.readableCanvas(ctx, authOf(req).user.id, req.params.canvas_id);
    return ok(presentCanvas(row, await canvases.ownerOf(ctx, row.user_id)));
  });

  app.get<{ Params: { canvas_id: string } }>(
    '/v1/canvas/getsse/:canvas_id',
    { config: { public: true } },
    async (req) => {
      const header = req.headers.authorization ?? '';
      if (header.trim().split(/\s+/).length !== 2) throw errors.data('Authorization is not valid!');
      const beta = credentialOf(req) ?? '';
      const db = ctx.db.kysely;
      const token = await db
        .selectFrom('api_token')
        .select(['tenant_id'])
        .where('beta_hash', '=', ctx.secrets.mac(beta))
        .executeTakeFirst();
      if (!token) throw errors.data('Authentication error: API key is invalid!');
      const row = await db
        .selectFrom('user_canvas')
        .selectAll()
        .where('id', '=', req.params.canvas_id)
        .executeTakeFirst();
      if (!row) throw refusals.canvasNotFound();
      // The beta token acts as the owner of its tenant (API.md §1.4).
      authorizeCanvas(await accessScopeOf(db, token.tenant_id), 'read', row, refusals.canvasOwner);
      return ok(presentCanvasRow(row));
    },
  );

  app.post('/v1/canvas/rm', async (req) => {
    const body = validate(c.rm.body, req.body);
    await canvases.removeCanvases(ctx, authOf(req).user.id, body.canvas_ids);
    return ok(true);
  });

  app.post('/v1/canvas/set', async (req) => {
    const body = validate(c.set.body, req.body);
    const { row, dsl } = await canvases.saveCanvas(ctx, authOf(req).user.id, body);
    return ok(presentSaved(row, dsl));
  });

  app.post('/v1/canvas/setting', async (req) => {
    const body = validate(c.setting.body, req.body);
    return ok(await canvases.updateSetting(ctx, authOf(req).user.id, body));
  });

  app.get<{ Params: { canvas_id: string } }>('/v1/canvas/getlistversion/:canvas_id', async (req) => {
    const rows = await canvases.listVersions(ctx, authOf(req).user.id, req.params.canvas_id);
    return ok(rows.map(presentVersionItem));
  });

  app.get<{ Params: { version_id: string } }>('/v1/canvas/getversion/:version_id', async (req) => {
    return ok(presentVersion(await canvases.getVersion(ctx, authOf(req).user.id, req.params.version_id)));
  });

  app.post('/v1/canvas/reset', async (req) => {
    const body = validate(c.reset.body, req.body);
    return ok(await canvases.resetCanvas(ctx, authOf(req).user.id, body.id));
  });

  app.get('/v1/canvas/input_elements', async (req) => {
    const q = validate(c.inputElements.query, req.query);
    const canvas = await canvases.accessibleCanvas(ctx, authOf(req).user.id, q.id);
    return ok(inputElements(loadDsl(parseJson<unknown>(canvas.dsl, {})), q.component_id));
  });

  app.get('/v1/canvas/input_form', async (req) => {
    const q = validate(c.inputForm.query, req.query);
    const canvas = await canvases.accessibleCanvas(ctx, authOf(req).user.id, q.id);
    return ok(inputForm(loadDsl(parseJson<unknown>(canvas.dsl, {})), q.component_id));
  });

  app.post('/v1/canvas/debug', async (req) => {
    const body = validate(c.debug.body, req.body);
    const canvas = await canvases.accessibleCanvas(ctx, authOf(req).user.id, body.id);
    const dsl = parseJson<{ components?: Record<string, unknown> }>(canvas.dsl, {});
    if (!dsl.components?.[body.component_id])
      throw errors.data(`Component ${body.component_id} is not in this canvas.`);
    const ports = ctx.agents.portsFor(canvas.user_id, canvas.id);
    try {
      const outputs = await debugComponent({
        dsl,
        componentId: body.component_id,
        params: body.params,
        ports,
      });
      return ok(JSON.parse(JSON.stringify(outputs)) as Record<string, never>);
    } catch (err) {
      throw errors.exception(err instanceof Error ? err.message : String(err));
    } finally {
      ports.release();
    }
  });

  // ---- sessions ----
  app.get<{ Params: { canvas_id: string } }>('/v1/canvas/:canvas_id/sessions', async (req) => {
    const q = validate(c.sessions.query, req.query);
    const canvas = await canvases.accessibleCanvas(ctx, authOf(req).user.id, req.params.canvas_id);
    const { rows, total } = await sessions.listAgentSessions(ctx, canvas.id, q);
    const withDsl = (q.dsl ?? 'true').toLowerCase() !== 'false';
    return ok({ total, sessions: rows.map((s) => presentSession(s, withDsl)) });
  });

  app.put<{ Params: { canvas_id: string } }>('/v1/canvas/:canvas_id/sessions', async (req) => {
    const body = validate(c.newSession.body, req.body);
    const user = authOf(req).user;
    const canvas = await canvases.accessibleCanvas(ctx, user.id, req.params.canvas_id);
    const row = await sessions.newAgentSession(ctx, canvas, user.id, body.name);
    return ok(presentSession(row));
  });

  app.get<{ Params: { canvas_id: string; session_id: string } }>(
    '/v1/canvas/:canvas_id/sessions/:session_id',
    async (req) => {
      const canvas = await canvases.accessibleCanvas(ctx, authOf(req).user.id, req.params.canvas_id);
      return ok(presentSession(await sessions.sessionOf(ctx, canvas.id, req.params.session_id)));
    },
  );

  app.delete<{ Params: { canvas_id: string; session_id: string } }>(
    '/v1/canvas/:canvas_id/sessions/:session_id',
    async (req) => {
      const canvas = await canvases.accessibleCanvas(ctx, authOf(req).user.id, req.params.canvas_id);
      await sessions.removeAgentSession(ctx, canvas.id, req.params.session_id);
      return ok(true);
    },
  );

  await runRoutes(app, ctx);
}
