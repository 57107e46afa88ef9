/**
 * Assistant/agent statistics (API.md §10) over `api_4_conversation`. Legacy API sessions live
 * there with their messages; web-chat conversations get a statistics row there too (same id,
 * `source "dialog"`, no messages) so the API panel counts every conversation of an assistant.
 */
import { sql } from 'kysely';
import type { AppContext } from '../../context.js';
import { toJson } from '../../db/json.js';
import { creationStamps, rfc1123, sqlDateTime, updateStamps } from '../../util/time.js';

export interface SessionStats {
  id: string;
  dialogId: string;
  userId: string;
  source: 'dialog';
  tokens: number;
  durationS: number;
}

/** One more answered round on a web conversation's statistics row (created on first use). */
export async function recordSession(ctx: AppContext, s: SessionStats): Promise<void> {
  const db = ctx.db.kysely;
  const tokens = Math.max(0, Math.round(s.tokens));
  const updated = await db
    .updateTable('api_4_conversation')
    .set({
      tokens: sql<number>`tokens + ${tokens}`,
      duration: sql<number>`duration + ${s.durationS}`,
      round: sql<number>`${sql.ref('round')} + 1`,
      ...updateStamps(),
    })
    .where('id', '=', s.id)
    // Conversation ids come from clients: never touch a row that is not this conversation's.
    .where('source', '=', s.source)
    .where('dialog_id', '=', s.dialogId)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) > 0) return;
  await db
    .insertInto('api_4_conversation')
    .values({
      id: s.id,
      name: null,
      dialog_id: s.dialogId,
      user_id: s.userId,
      exp_user_id: null,
      message: toJson([]),
      reference: toJson([]),
      tokens,
      source: s.source,
      dsl: toJson({}),
      duration: s.durationS,
      round: 1,
      thumb_up: 0,
      errors: null,
      ...creationStamps(),
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

/** Thumbs up given (+1) or taken back (−1) on a conversation's answers. */
export async function bumpThumbUp(ctx: AppContext, id: string, delta: 1 | -1): Promise<void> {
  await ctx.db.kysely
    .updateTable('api_4_conversation')
    .set({
      thumb_up: sql<number>`CASE WHEN thumb_up + ${delta} < 0 THEN 0 ELSE thumb_up + ${delta} END`,
      ...updateStamps(),
    })
    .where('id', '=', id)
    .where('source', '=', 'dialog')
    .execute();
}

const DAY_MS = 86_400_000;

/** `from_date` default: 7 days ago 00:00:00; `to_date` default now; a bare date means its end. */
export function statsRange(from?: string, to?: string, nowMs = Date.now()): { from: string; to: string } {
  const start = new Date(nowMs - 7 * DAY_MS).toISOString().slice(0, 10);
  const f = from && from.trim() ? from.trim() : `${start} 00:00:00`;
  const t = to && to.trim() ? to.trim() : (sqlDateTime(nowMs) as string);
  return {
    from: /^\d{4}-\d{2}-\d{2}$/.test(f) ? `${f} 00:00:00` : f,
    to: /^\d{4}-\d{2}-\d{2}$/.test(t) ? `${t} 23:59:59` : t,
  };
}

type Series = Array<[string | null, number]>;

export interface Stats {
  pv: Series;
  uv: Series;
  speed: Series;
  tokens: Series;
  round: Series;
  thumb_up: Series;
}

/** Per-day figures of the tenant's assistant sessions (or agent sessions). */
export async function statistics(
  ctx: AppContext,
  tenantId: string,
  range: { from: string; to: string },
  agent: boolean,
): Promise<Stats> {
  const empty: Stats = { pv: [], uv: [], speed: [], tokens: [], round: [], thumb_up: [] };
  // Agent sessions belong to canvases (user_canvas), which arrive with the agent issue; until then
  // no agent session can exist, so the agent figures are empty.
  if (agent) return empty;
  const day = sql<string>`substr(api_4_conversation.create_date, 1, 10)`;
  const rows = await ctx.db.kysely
    .selectFrom('api_4_conversation')
    .innerJoin('dialog', 'dialog.id', 'api_4_conversation.dialog_id')
    .where('dialog.tenant_id', '=', tenantId)
    .where('api_4_conversation.create_date', '>=', range.from)
    .where('api_4_conversation.create_date', '<=', range.to)
    .where((eb) =>
      eb.or([eb('api_4_conversation.source', 'is', null), eb('api_4_conversation.source', '!=', 'agent')]),
    )
    .select([
      day.as('dt'),
      sql<number>`count(api_4_conversation.id)`.as('pv'),
      sql<number>`count(distinct api_4_conversation.user_id)`.as('uv'),
      sql<number>`sum(api_4_conversation.tokens)`.as('tokens'),
      sql<number>`sum(api_4_conversation.duration)`.as('duration'),
      sql<number>`avg(api_4_conversation.round)`.as('round'),
      sql<number>`sum(api_4_conversation.thumb_up)`.as('thumb_up'),
    ])
    .groupBy(day)
    .orderBy(day)
    .execute();
  for (const r of rows) {
    const dt = rfc1123(Date.parse(`${r.dt}T00:00:00Z`));
    const tokens = Number(r.tokens ?? 0);
    empty.pv.push([dt, Number(r.pv)]);
    empty.uv.push([dt, Number(r.uv)]);
    empty.speed.push([dt, tokens / (Number(r.duration ?? 0) + 0.1)]);
    empty.tokens.push([dt, tokens / 1000]);
    empty.round.push([dt, Number(r.round ?? 0)]);
    empty.thumb_up.push([dt, Number(r.thumb_up ?? 0)]);
  }
  return empty;
}
