/**
 * `/v1/kb/<id>/knowledge_graph` (GET, DELETE) and the KB jobs `run_graphrag`, `run_raptor`,
 * `run_mindmap` with their `trace_*` routes (API.md §5). Reading needs the KB readable; deleting the
 * graph and starting jobs need it manageable (API.md §1.6).
 */
import type { FastifyInstance } from 'fastify';
import { contract } from '@lectern/shared';
import type { AppContext } from '../../context.js';
import { deleteKnowledgeGraph, kbKnowledgeGraph } from '../../graph/jobs/serve.js';
import type { KbJobKind } from '../../graph/jobs/kb-task.js';
import { kbJobTask, startKbJob } from '../../graph/jobs/start.js';
import { authOf } from '../../http/auth.js';
import { errors, ok } from '../../http/envelope.js';
import { validate } from '../../http/validate.js';
import { accessScopeOf, loadKb, refusals } from '../../policy/index.js';
import type { UserTable } from '../../db/types.js';

const c = contract.graph;

async function kbFor(ctx: AppContext, user: UserTable, kbId: unknown, action: 'read' | 'manage') {
  if (typeof kbId !== 'string' || !kbId) throw errors.data('Lack of "KB ID"');
  const db = ctx.db.kysely;
  return loadKb(db, await accessScopeOf(db, user.id), kbId, action, {
    missing: () => errors.data('Invalid Knowledgebase ID'),
    refused: refusals.noAuthorization,
  });
}

export async function graphRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get<{ Params: { kb_id: string } }>('/v1/kb/:kb_id/knowledge_graph', async (req) => {
    const { full } = validate(c.knowledgeGraph.query, req.query ?? {});
    const kb = await kbFor(ctx, authOf(req).user, req.params.kb_id, 'read');
    return ok(await kbKnowledgeGraph(ctx, kb.id, full === '1' || full === 'true'));
  });

  app.delete<{ Params: { kb_id: string } }>('/v1/kb/:kb_id/knowledge_graph', async (req) => {
    const kb = await kbFor(ctx, authOf(req).user, req.params.kb_id, 'manage');
    await deleteKnowledgeGraph(ctx, kb.id);
    return ok(true);
  });

  const jobs: Array<[KbJobKind, 'runGraphrag' | 'runRaptor' | 'runMindmap', string]> = [
    ['graphrag', 'runGraphrag', 'graphrag_task_id'],
    ['raptor', 'runRaptor', 'raptor_task_id'],
    ['mindmap', 'runMindmap', 'mindmap_task_id'],
  ];
  for (const [kind, name, idKey] of jobs) {
    app.post(c[name].path, async (req) => {
      const { kb_id } = validate(c[name].body, req.body ?? {});
      const kb = await kbFor(ctx, authOf(req).user, kb_id, 'manage');
      return ok({ [idKey]: await startKbJob(ctx, kb, kind) });
    });
  }
  const traces: Array<[KbJobKind, 'traceGraphrag' | 'traceRaptor' | 'traceMindmap']> = [
    ['graphrag', 'traceGraphrag'],
    ['raptor', 'traceRaptor'],
    ['mindmap', 'traceMindmap'],
  ];
  for (const [kind, name] of traces) {
    app.get(c[name].path, async (req) => {
      const { kb_id } = validate(c[name].query, req.query);
      const kb = await kbFor(ctx, authOf(req).user, kb_id, 'read');
      return ok(await kbJobTask(ctx, kb, kind));
    });
  }
}
