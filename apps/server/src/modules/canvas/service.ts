/**
 * Canvases and their versions (API.md §13): lists through the policy's SQL rules, saves validated
 * with agent-core (a malformed DSL is refused with the component it concerns, nothing saved), each
 * save appending a version (newest 20 kept), reset, and the owner checks of every write.
 */
import { sql } from 'kysely';
import { DslError, formatIssue, loadDsl, resetDsl, validateDsl, type Dsl } from '@lectern/agent-core';
import type { BodyOf, QueryOf, contract } from '@lectern/shared';
import type { ServerContext } from '../context.js';
import { parseJson, toJson } from '../../db/json.js';
import type { UserCanvasRow } from '../../db/tables/canvas.js';
import { errors } from '../../http/envelope.js';
import {
  accessScopeOf,
  authorizeCanvas,
  loadCanvas,
  readableCanvases,
  refusals,
  type Action,
} from '../../policy/index.js';
import { newId } from '../../util/ids.js';
import { creationStamps, updateStamps } from '../../util/time.js';
import { utf8Bytes } from '../kb/naming.js';

type C = typeof contract.canvas;

/** Versions kept per canvas (API.md §13). */
export const VERSIONS_KEPT = 20;
const TITLE_LIMIT_BYTES = 255;
const ORDERABLE = new Set(['create_time', 'update_time', 'title']);

/** `<title>_<YYYY_MM_DD_HH_MM_SS>` (UTC). */
export function versionTitle(title: string, ms: number): string {
  const d = new Date(ms).toISOString(); // 2025-04-28T18:40:41.123Z
  return `${title}_${d.slice(0, 19).replace(/[-T:]/g, '_')}`;
}

/**
 * A canvas the caller may `action`: unknown → 102 "canvas not found."; present but not the
 * caller's to use → 103 "Only owner of canvas …" (the run, debug and form routes of §13).
 */
export async function accessibleCanvas(
  ctx: ServerContext,
  userId: string,
  id: string,
  action: Action = 'read',
): Promise<UserCanvasRow> {
  const db = ctx.db.kysely;
  const row = await db.selectFrom('user_canvas').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw refusals.canvasNotFound();
  return authorizeCanvas(await accessScopeOf(db, userId), action, row, refusals.canvasOwner);
}

/** `get`, `getlistversion`, `getversion`: unknown and unreadable alike → 102 "canvas not found.". */
export async function readableCanvas(ctx: ServerContext, userId: string, id: string) {
  const db = ctx.db.kysely;
  return loadCanvas(db, await accessScopeOf(db, userId), id, 'read');
}

type ListQuery = QueryOf<C['list']> & QueryOf<C['listteam']>;

export async function listCanvases(
  ctx: ServerContext,
  userId: string,
  q: Partial<ListQuery>,
  opts: {
    teamOnly?: boolean;
    defaults: { page: number; pageSize: number };
    /** Exact matches (the public API's `id` / `title` filters). */
    exact?: { id?: string; title?: string };
    defaultOrder?: 'create_time' | 'update_time';
  },
) {
  const db = ctx.db.kysely;
  const scope = await accessScopeOf(db, userId);
  const ownerIds = q.owner_ids ? q.owner_ids.split(',').filter(Boolean) : null;
  let query = db
    .selectFrom('user_canvas')
    .innerJoin('user', 'user.id', 'user_canvas.user_id')
    .where(readableCanvases(scope, { alias: 'user_canvas', ownerIds, teamOnly: opts.teamOnly }));
  if (q.keywords)
    query = query.where(sql<boolean>`lower(user_canvas.title) like ${`%${q.keywords.toLowerCase()}%`}`);
  if (q.canvas_category) query = query.where('user_canvas.canvas_category', '=', q.canvas_category);
  if (opts.exact?.id) query = query.where('user_canvas.id', '=', opts.exact.id);
  if (opts.exact?.title) query = query.where('user_canvas.title', '=', opts.exact.title);
  const totalRow = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  const orderby = q.orderby && ORDERABLE.has(q.orderby) ? q.orderby : (opts.defaultOrder ?? 'create_time');
  const desc = (q.desc ?? 'true').toLowerCase() !== 'false';
  let rows = query
    .selectAll('user_canvas')
    .select(['user.nickname as nickname', 'user.avatar as tenant_avatar'])
    .orderBy(sql.ref(`user_canvas.${orderby}`), desc ? 'desc' : 'asc');
  const page = q.page ?? opts.defaults.page;
  const size = q.page_size ?? opts.defaults.pageSize;
  if (page && size) rows = rows.limit(size).offset((page - 1) * size);
  return { rows: await rows.execute(), total: Number(totalRow?.n ?? 0) };
}

/** The owner's nickname and avatar, for `get`. */
export async function ownerOf(ctx: ServerContext, userId: string) {
  const u = await ctx.db.kysely
    .selectFrom('user')
    .select(['nickname', 'avatar'])
    .where('id', '=', userId)
    .executeTakeFirst();
  return { nickname: u?.nickname ?? '', tenant_avatar: u?.avatar ?? null };
}

/** Parses and checks a DSL for saving: JSON text or object, loaded and validated (editor rules too). */
export function checkedDsl(ctx: ServerContext, raw: unknown): Dsl {
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw) as unknown;
    } catch {
      throw errors.data('The DSL is not valid JSON.');
    }
  }
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw errors.data('The DSL must be a JSON object.');
  let dsl: Dsl;
  try {
    dsl = loadDsl(value);
  } catch (err) {
    throw errors.data(err instanceof Error ? err.message : 'The DSL cannot be read.');
  }
  const issues = validateDsl(dsl, { tools: ctx.agents.tools });
  if (issues.length > 0) throw errors.data(issues.map(formatIssue).join('\n'));
  return dsl;
}

/** A run's DSL error (`runCanvas` refused the saved DSL) as the envelope's 102. */
export function dslRefusal(err: unknown) {
  if (err instanceof DslError) return errors.data(err.message);
  return null;
}

function checkTitle(title: unknown): string {
  if (typeof title !== 'string' || !title.trim()) throw errors.data('Title can not be empty.');
  if (utf8Bytes(title) > TITLE_LIMIT_BYTES)
    throw errors.data(`Title length is ${utf8Bytes(title)} which is large than 255.`);
  return title;
}

type SetBody = BodyOf<C['set']>;

/** The refusal of a new canvas whose title the owner already uses (`set`: 102 "<title> already exists."). */
const duplicateTitle = (title: string) => errors.data(`${title} already exists.`);

/** `set`: create (no id) or update; every save appends a version and keeps the newest 20. */
export async function saveCanvas(
  ctx: ServerContext,
  userId: string,
  body: SetBody,
  refuseDuplicate: (title: string) => Error = duplicateTitle,
) {
  const title = checkTitle(body.title);
  const dsl = checkedDsl(ctx, body.dsl);
  const db = ctx.db.kysely;
  const now = Date.now();
  const category = body.canvas_category ?? 'agent_canvas';
  let existing: UserCanvasRow | undefined;
  if (body.id) existing = await accessibleCanvas(ctx, userId, body.id, 'manage');
  return db.transaction().execute(async (tx) => {
    let row: UserCanvasRow;
    if (!existing) {
      const dup = await tx
        .selectFrom('user_canvas')
        .select('id')
        .where('user_id', '=', userId)
        .where('title', '=', title.trim())
        .where('canvas_category', '=', category)
        .executeTakeFirst();
      if (dup) throw refuseDuplicate(title.trim());
      row = {
        id: newId(),
        avatar: body.avatar ?? null,
        user_id: userId,
        title: title.trim(),
        permission: body.permission ?? 'me',
        description: body.description ?? null,
        canvas_type: null,
        canvas_category: category,
        dsl: toJson(dsl),
        ...creationStamps(now),
      };
      await tx
        .insertInto('user_canvas')
        .values({ ...row, dsl: toJson(dsl) })
        .execute();
    } else {
      row = {
        ...existing,
        title,
        dsl: toJson(dsl),
        ...('avatar' in body ? { avatar: body.avatar ?? null } : {}),
        ...('description' in body ? { description: body.description ?? null } : {}),
        ...(body.permission ? { permission: body.permission } : {}),
        ...(body.canvas_category ? { canvas_category: body.canvas_category } : {}),
        ...updateStamps(now),
      };
      const { id: _id, dsl: _dsl, ...fields } = row;
      await tx
        .updateTable('user_canvas')
        .set({ ...fields, dsl: toJson(dsl) })
        .where('id', '=', existing.id)
        .execute();
    }
    await tx
      .insertInto('user_canvas_version')
      .values({
        id: newId(),
        user_canvas_id: row.id,
        title: versionTitle(row.title, now),
        description: row.description,
        dsl: toJson(dsl),
        ...creationStamps(now),
      })
      .execute();
    const stale = await tx
      .selectFrom('user_canvas_version')
      .select('id')
      .where('user_canvas_id', '=', row.id)
      .orderBy('create_time', 'desc')
      .orderBy('id', 'desc')
      .offset(VERSIONS_KEPT)
      .limit(1_000)
      .execute();
    if (stale.length)
      await tx
        .deleteFrom('user_canvas_version')
        .where(
          'id',
          'in',
          stale.map((s) => s.id),
        )
        .execute();
    return { row, dsl };
  });
}

/** `setting`: title, permission, description, avatar; answers the number of rows updated. */
export async function updateSetting(ctx: ServerContext, userId: string, body: BodyOf<C['setting']>) {
  const canvas = await accessibleCanvas(ctx, userId, body.id, 'manage');
  const title = checkTitle(body.title);
  const res = await ctx.db.kysely
    .updateTable('user_canvas')
    .set({
      title,
      permission: body.permission,
      ...('description' in body ? { description: body.description ?? null } : {}),
      ...('avatar' in body ? { avatar: body.avatar ?? null } : {}),
      ...updateStamps(),
    })
    .where('id', '=', canvas.id)
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}

/** `rm`: all or nothing; any id the caller does not own (or unknown) → 103. */
export async function removeCanvases(ctx: ServerContext, userId: string, ids: string[]) {
  const db = ctx.db.kysely;
  const scope = await accessScopeOf(db, userId);
  const unique = [...new Set(ids)];
  await db.transaction().execute(async (tx) => {
    for (const id of unique) await loadCanvas(tx, scope, id, 'manage', refusals.canvasOwner);
    if (unique.length === 0) return;
    await tx.deleteFrom('user_canvas_version').where('user_canvas_id', 'in', unique).execute();
    await tx.deleteFrom('canvas_run').where('canvas_id', 'in', unique).execute();
    await tx
      .deleteFrom('api_4_conversation')
      .where('dialog_id', 'in', unique)
      .where('source', '=', 'agent')
      .execute();
    await tx.deleteFrom('user_canvas').where('id', 'in', unique).execute();
  });
}

/** `reset`: history, path, messages, globals cleared and components reset — saved and answered. */
export async function resetCanvas(ctx: ServerContext, userId: string, id: string) {
  const canvas = await accessibleCanvas(ctx, userId, id);
  const dsl = resetDsl(loadDsl(parseJson<unknown>(canvas.dsl, {})));
  await ctx.db.kysely
    .updateTable('user_canvas')
    .set({ dsl: toJson(dsl), ...updateStamps() })
    .where('id', '=', canvas.id)
    .execute();
  return dsl;
}

export async function listVersions(ctx: ServerContext, userId: string, canvasId: string) {
  const canvas = await readableCanvas(ctx, userId, canvasId);
  return ctx.db.kysely
    .selectFrom('user_canvas_version')
    .select(['id', 'title', 'user_canvas_id', 'create_time', 'update_time'])
    .where('user_canvas_id', '=', canvas.id)
    .orderBy('create_time', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export async function getVersion(ctx: ServerContext, userId: string, versionId: string) {
  const db = ctx.db.kysely;
  const version = await db
    .selectFrom('user_canvas_version')
    .selectAll()
    .where('id', '=', versionId)
    .executeTakeFirst();
  if (!version) throw refusals.canvasNotFound();
  await readableCanvas(ctx, userId, version.user_canvas_id);
  return version;
}
