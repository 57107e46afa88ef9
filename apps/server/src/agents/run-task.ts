/**
 * The `agent_run` task handler: a run whose process stopped before it ended (its lease expired) is
 * run again by a worker from the request stored in the task, under the same message id, writing
 * the same run log. A run already ended, or one whose canvas or session is gone, ends its task.
 */
import type { AppContext } from '../context.js';
import type { TaskHandler } from '../queue/handlers.js';
import type { AgentServices } from './services.js';
import { startRun } from './runner.js';
import { canvasTarget, sessionTarget } from './targets.js';

export function agentRunTaskHandler(ctx: AppContext, agents: AgentServices): TaskHandler {
  return {
    async run(progress, signal) {
      const p = progress.payload('agent_run');
      const db = ctx.db.kysely;
      const log = await db
        .selectFrom('canvas_run')
        .select('status')
        .where('id', '=', p.message_id)
        .executeTakeFirst();
      if (log && log.status !== 'running') {
        await progress.report(null, 'The run had already ended.');
        return progress.fail(' The run ended before its task was closed.');
      }
      const canvas = await db
        .selectFrom('user_canvas')
        .selectAll()
        .where('id', '=', p.canvas_id)
        .executeTakeFirst();
      if (!canvas) return progress.fail(' The canvas of this run was removed.');
      if (!p.request) return progress.fail(' The run cannot be started again: its request was not kept.');
      const request = { query: p.request.query, files: p.request.files, inputs: p.request.inputs };
      let target = canvasTarget(canvas);
      if (p.session_id) {
        const session = await db
          .selectFrom('api_4_conversation')
          .select(['id', 'dsl'])
          .where('id', '=', p.session_id)
          .executeTakeFirst();
        if (!session) return progress.fail(' The session of this run was removed.');
        target = sessionTarget(canvas, session, request);
      }
      const live = await startRun(
        ctx,
        agents,
        target,
        { ...request, userId: p.user_id },
        { task: { id: progress.task.id, owner: progress.owner, messageId: p.message_id, signal } },
      );
      await live.finished;
    },
    describeFailure: (err) => `The agent run failed: ${err instanceof Error ? err.message : String(err)}`,
  };
}
