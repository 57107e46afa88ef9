/**
 * Agent sessions (`api_4_conversation` rows with `source "agent"`, API.md §13, AGENTS.md §7.4): each
 * starts from the canvas's DSL, reset, and keeps its own DSL, messages and references.
 */
import { sql } from 'kysely';
import { loadDsl, resetDsl } from '@lectern/agent-core';
import type { QueryOf, contract } from '@lectern/shared';
import type { ServerContext } from '../context.js';
import { parseJson, toJson } from '../../db/json.js';
import type { UserCanvasRow } from '../../db/tables/canvas.js';
import { errors } from '../../http/envelope.js';
import { newId } from '../../util/ids.js';
import { creationStamps } from '../../util/time.js';

const ORDERABLE = new Set(['create_time', 'update_time', 'name', 'round']);

export async function newAgentSession(
  ctx: ServerContext,
  canvas: UserCanvasRow,
  userId: string,
  name: string | undefined,
) {
  const row = {
    id: newId(),
    name: name ?? 'New session',
    dialog_id: canvas.id,
    user_id: userId,
    exp_user_id: null,
    message: toJson([]),
    reference: toJson([]),
    tokens: 0,
    source: 'agent',
    dsl: toJson(resetDsl(loadDsl(parseJson<unknown>(canvas.dsl, {})))),
    duration: 0,
    round: 0,
    thumb_up: 0,
    errors: null,
    ...creationStamps(),
  };
  await ctx.db.kysely.insertInto('api_4_conversation').values(row).execute();
  return row;
}

/** A session of this canvas, or 102 "Session not found!". */
export async function sessionOf(ctx: ServerContext, canvasId: string, sessionId: string) {
  const s = await ctx.db.kysely
    .selectFrom('api_4_conversation')
    .selectAll()
    .where('id', '=', sessionId)
    .where('dialog_id', '=', canvasId)
    .where('source', '=', 'agent')
    .executeTakeFirst();
  if (!s) throw errors.data('Session not found!');
  return s;
}

export async function listAgentSessions(
  ctx: ServerContext,
  canvasId: string,
  q: QueryOf<typeof contract.canvas.sessions>,
  /** One session by id (the public API's `id` filter). */
  id?: string,
) {
  let query = ctx.db.kysely
    .selectFrom('api_4_conversation')
    .where('dialog_id', '=', canvasId)
    .where('source', '=', 'agent');
  if (q.keywords) query = query.where(sql<boolean>`lower(name) like ${`%${q.keywords.toLowerCase()}%`}`);
  if (q.user_id) query = query.where('user_id', '=', q.user_id);
  if (id) query = query.where('id', '=', id);
  // Dates `YYYY-MM-DD[ HH:MM:SS]` against the stored `create_date` (same format, UTC).
  if (q.from_date) query = query.where('create_date', '>=', q.from_date);
  if (q.to_date)
    query = query.where('create_date', '<=', q.to_date.length === 10 ? `${q.to_date} 23:59:59` : q.to_date);
  const total = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  const orderby = q.orderby && ORDERABLE.has(q.orderby) ? q.orderby : 'update_time';
  const desc = (q.desc ?? 'true').toLowerCase() !== 'false';
  const page = q.page || 1;
  const size = q.page_size ?? 30;
  let rows = query.selectAll().orderBy(sql.ref(orderby), desc ? 'desc' : 'asc');
  if (size > 0) rows = rows.limit(size).offset((page - 1) * size);
  return { rows: await rows.execute(), total: Number(total?.n ?? 0) };
}

/** Removes sessions of this canvas (their run logs too) in one transaction; ids must be the canvas's. */
export async function removeAgentSessions(ctx: ServerContext, canvasId: string, ids: string[]) {
  if (ids.length === 0) return;
  await ctx.db.kysely.transaction().execute(async (tx) => {
    await tx.deleteFrom('canvas_run').where('session_id', 'in', ids).execute();
    await tx
      .deleteFrom('api_4_conversation')
      .where('id', 'in', ids)
      .where('dialog_id', '=', canvasId)
      .where('source', '=', 'agent')
      .execute();
  });
}

export async function removeAgentSession(ctx: ServerContext, canvasId: string, sessionId: string) {
  await sessionOf(ctx, canvasId, sessionId);
  await ctx.db.kysely.transaction().execute(async (tx) => {
    await tx.deleteFrom('canvas_run').where('session_id', '=', sessionId).execute();
    await tx.deleteFrom('api_4_conversation').where('id', '=', sessionId).execute();
  });
}
