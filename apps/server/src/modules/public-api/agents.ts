/**
 * `/api/v1/agents…` (API.md §17): agent CRUD (the `/v1/canvas` service: `set`, `setting`, `rm`),
 * agent sessions and completions (the session turn of `/v1/canvas/<id>/completion`: SSE of the
 * same frames, or the collected answer with `stream: false`). Errors follow RAGFlow's agent API:
 * 101 "No DSL data in request." / "No title in request.", 102 "Agent with title <t> already
 * exists.", 103 "Only owner of canvas authorized for this operation." for changes, and 102
 * "You don't own the agent <id>" for sessions and runs of an unknown or foreign agent.
 */
import type { FastifyInstance } from 'fastify';
import { contract } from '@lectern/shared';
import type { ServerContext } from '../context.js';
import { parseJson } from '../../db/json.js';
import type { UserCanvasRow } from '../../db/tables/canvas.js';
import { authOf } from '../../http/auth.js';
import { ApiError, errors } from '../../http/envelope.js';
import { validate } from '../../http/validate.js';
import { presentCanvasRow } from '../canvas/presenter.js';
import * as canvases from '../canvas/service.js';
import {
  collectedAnswer,
  collectRun,
  isAgentCanvas,
  sessionFrames,
  startSessionTurn,
  streamFeed,
} from '../canvas/session-run.js';
import * as sessions from '../canvas/sessions.js';
import { done, pageParam, PUBLIC } from './auth.js';
import { presentAgentSession } from './presenters.js';

const c = contract.publicAgents;
type AgentParams = { Params: { agent_id: string } };

/** An agent canvas the key's tenant may run, else 102 "You don't own the agent <id>". */
export async function ownAgent(ctx: ServerContext, userId: string, agentId: string): Promise<UserCanvasRow> {
  const row = await canvases.accessibleCanvas(ctx, userId, agentId).catch(() => null);
  if (!row || !isAgentCanvas(row)) throw errors.data(`You don't own the agent ${agentId}`);
  return row;
}

/** `dsl` as an object: given as one, or as JSON text (RAGFlow's SDK sends either). */
function dslOf(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    throw errors.data('The DSL is not valid JSON.');
  }
}

function titleOf(raw: unknown): string | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'string') throw errors.data('Title can not be empty.');
  return raw.trim();
}

/** Rows before the page asked for; past any table's size (and SQL's integer range), the page is empty. */
const MAX_OFFSET = 1e12;
const pastTheEnd = (page: number, size: number) => (page - 1) * size > MAX_OFFSET;

/** A run's failure as the public envelope (the run's own code, e.g. 500, and its message). */
function runFailure(error: { code: number; message: string }): ApiError {
  return new ApiError(error.code, error.message);
}

export async function agentRoutes(app: FastifyInstance, ctx: ServerContext): Promise<void> {
  app.get('/api/v1/agents', PUBLIC, async (req) => {
    const q = validate(c.listAgents.query, req.query);
    const page = pageParam('page', q.page, 1);
    const size = pageParam('page_size', q.page_size, 30);
    // Far past the end, one row is read for the total only.
    const beyond = pastTheEnd(page, size);
    const { rows, total } = await canvases.listCanvases(
      ctx,
      authOf(req).user.id,
      {
        orderby: q.orderby,
        desc: q.desc,
        page: beyond ? 1 : page,
        page_size: beyond ? 1 : size,
        canvas_category: 'agent_canvas',
      },
      {
        defaults: { page, pageSize: size },
        exact: { id: q.id, title: q.title },
        defaultOrder: 'update_time',
      },
    );
    if ((q.id || q.title) && total === 0) throw errors.data("The agent doesn't exist.");
    if (beyond) return done([]);
    return done(rows.map(presentCanvasRow));
  });

  app.post('/api/v1/agents', PUBLIC, async (req) => {
    const body = validate(c.createAgent.body, req.body ?? {});
    if (body.dsl === undefined || body.dsl === null) throw errors.argument('No DSL data in request.', false);
    const title = titleOf(body.title);
    if (title === undefined) throw errors.argument('No title in request.', false);
    const { row } = await canvases.saveCanvas(
      ctx,
      authOf(req).user.id,
      { title, dsl: dslOf(body.dsl) as never, description: body.description ?? null },
      (t) => errors.data(`Agent with title ${t} already exists.`),
    );
    return done(presentCanvasRow(row));
  });

  app.put<AgentParams>('/api/v1/agents/:agent_id', PUBLIC, async (req) => {
    const body = validate(c.updateAgent.body, req.body ?? {});
    const userId = authOf(req).user.id;
    const existing = await canvases
      .accessibleCanvas(ctx, userId, req.params.agent_id, 'manage')
      .catch((err: unknown) => {
        // Unknown and foreign agents alike: the owner refusal (RAGFlow's SDK answers both so).
        if (err instanceof ApiError)
          throw errors.operating('Only owner of canvas authorized for this operation.', false);
        throw err;
      });
    const title = titleOf(body.title) ?? existing.title;
    const description = 'description' in body ? { description: body.description ?? null } : {};
    if (body.dsl !== undefined && body.dsl !== null) {
      // A new DSL is a save: validated, and a version appended.
      await canvases.saveCanvas(ctx, userId, {
        id: existing.id,
        title,
        dsl: dslOf(body.dsl) as never,
        ...description,
      });
    } else {
      await canvases.updateSetting(ctx, userId, {
        id: existing.id,
        title,
        permission: existing.permission === 'team' ? 'team' : 'me',
        ...description,
      });
    }
    return done(true as const);
  });

  app.delete<AgentParams>('/api/v1/agents/:agent_id', PUBLIC, async (req) => {
    await canvases.removeCanvases(ctx, authOf(req).user.id, [req.params.agent_id]);
    return done(true as const);
  });

  // ---- sessions ----
  app.post<AgentParams>('/api/v1/agents/:agent_id/sessions', PUBLIC, async (req) => {
    const q = validate(c.createAgentSession.query, req.query);
    const body = validate(c.createAgentSession.body, req.body ?? {});
    const user = authOf(req).user;
    const canvas = await ownAgent(ctx, user.id, req.params.agent_id);
    const row = await sessions.newAgentSession(ctx, canvas, body.user_id ?? q.user_id ?? user.id, body.name);
    return done(presentAgentSession(row));
  });

  app.get<AgentParams>('/api/v1/agents/:agent_id/sessions', PUBLIC, async (req) => {
    const q = validate(c.listAgentSessions.query, req.query);
    const canvas = await ownAgent(ctx, authOf(req).user.id, req.params.agent_id);
    const page = pageParam('page', q.page, 1);
    const size = pageParam('page_size', q.page_size, 30);
    if (pastTheEnd(page, size)) return done([]);
    const { rows } = await sessions.listAgentSessions(
      ctx,
      canvas.id,
      { page, page_size: size, orderby: q.orderby, desc: q.desc, user_id: q.user_id },
      q.id,
    );
    const withDsl = (q.dsl ?? 'true').toLowerCase() !== 'false';
    return done(rows.map((r) => presentAgentSession(r, withDsl)));
  });

  app.delete<AgentParams>('/api/v1/agents/:agent_id/sessions', PUBLIC, async (req) => {
    const body = validate(c.deleteAgentSessions.body, req.body ?? {});
    const canvas = await ownAgent(ctx, authOf(req).user.id, req.params.agent_id);
    const { rows } = await sessions.listAgentSessions(ctx, canvas.id, { page_size: 0 });
    const known = new Set(rows.map((r) => r.id));
    const ids = [...new Set(body.ids ?? rows.map((r) => r.id))];
    const foreign = ids.find((id) => !known.has(id));
    if (foreign) throw errors.data(`The agent doesn't own the session ${foreign}`);
    await sessions.removeAgentSessions(ctx, canvas.id, ids);
    return done(null);
  });

  app.post<AgentParams>('/api/v1/agents/:agent_id/completions', PUBLIC, async (req, reply) => {
    const body = validate(c.agentCompletion.body, req.body ?? {});
    const user = authOf(req).user;
    const canvas = await ownAgent(ctx, user.id, req.params.agent_id);
    return answerTurn(ctx, reply, canvas, body, user.id, { tagAll: false });
  });
}

type TurnBody = ReturnType<typeof validate<typeof c.agentCompletion.body>>;

/**
 * Runs one session turn for a completion route: SSE (the session frames then `[DONE]`, or with
 * `tagAll` every event tagged with the session — the agentbot embed) or, with `stream: false`, the
 * collected answer in one envelope.
 */
export async function answerTurn(
  ctx: ServerContext,
  reply: Parameters<typeof streamFeed>[0],
  canvas: UserCanvasRow,
  body: TurnBody,
  defaultUser: string,
  opts: { tagAll: boolean },
) {
  const returnTrace = body.return_trace === true;
  const { live, sessionId } = await startSessionTurn(ctx, canvas, {
    query: body.query ?? body.question ?? '',
    files: body.files ?? [],
    inputs: body.inputs ?? {},
    userId: body.user_id ?? defaultUser,
    sessionId: body.session_id || undefined,
  });
  if (body.stream === false) {
    const run = await collectRun(live);
    if (run.error) throw runFailure(run.error);
    return done(collectedAnswer(run, sessionId, returnTrace));
  }
  if (opts.tagAll) {
    await streamFeed(reply, live, (e) => ('event' in e ? { ...e, session_id: sessionId } : e));
  } else {
    await streamFeed(reply, live, sessionFrames(sessionId, returnTrace), 'data:[DONE]\n\n');
  }
  return reply;
}

/** The stored DSL of a session or canvas as an object. */
export function dslObject(raw: unknown): Record<string, unknown> {
  return parseJson<Record<string, unknown>>(raw, {});
}
