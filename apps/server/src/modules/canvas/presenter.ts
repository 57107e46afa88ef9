/** Canvases, versions, sessions, templates and run logs as API.md §13 shows them. */
import type { CanvasTemplate as AgentTemplate } from '@lectern/agent-core';
import type {
  CanvasCategory,
  CanvasListItem,
  CanvasRunLog,
  CanvasSession,
  CanvasTemplate,
  KbPermission,
} from '@lectern/shared';
import { parseJson } from '../../db/json.js';
import type { Api4ConversationTable } from '../../db/tables/chat.js';
import type { CanvasRunRow, UserCanvasRow, UserCanvasVersionRow } from '../../db/tables/canvas.js';
import { rfc1123 } from '../../util/time.js';

type Json = Record<string, never>;
const dslOf = (v: unknown) => parseJson<Json>(v, {});
const permission = (p: string) => (p === 'team' ? 'team' : 'me') as KbPermission;
const category = (c: string) => (c === 'dataflow_canvas' ? c : 'agent_canvas') as CanvasCategory;
const times = (r: { create_time: number; update_time: number }) => ({
  create_time: r.create_time,
  create_date: rfc1123(r.create_time) as string,
  update_time: r.update_time,
  update_date: rfc1123(r.update_time) as string,
});

type WithOwner = { nickname: string; tenant_avatar: string | null };

export function presentListItem(r: UserCanvasRow & WithOwner): CanvasListItem {
  return {
    id: r.id,
    avatar: r.avatar,
    title: r.title,
    description: r.description,
    permission: permission(r.permission),
    tenant_id: r.user_id,
    nickname: r.nickname,
    tenant_avatar: r.tenant_avatar,
    update_time: r.update_time,
    canvas_category: category(r.canvas_category),
  };
}

export function presentCanvasRow(r: UserCanvasRow) {
  return {
    id: r.id,
    avatar: r.avatar,
    title: r.title,
    dsl: dslOf(r.dsl),
    description: r.description,
    permission: permission(r.permission),
    canvas_category: category(r.canvas_category),
    user_id: r.user_id,
    ...times(r),
  };
}

export function presentCanvas(r: UserCanvasRow, owner: WithOwner) {
  return { ...presentCanvasRow(r), nickname: owner.nickname, tenant_avatar: owner.tenant_avatar };
}

export function presentSaved(r: UserCanvasRow, dsl: unknown) {
  return {
    id: r.id,
    user_id: r.user_id,
    title: r.title,
    dsl: dsl as Json,
    canvas_category: category(r.canvas_category),
    description: r.description,
    avatar: r.avatar,
    permission: permission(r.permission),
    update_time: r.update_time,
  };
}

export function presentVersionItem(
  v: Pick<UserCanvasVersionRow, 'id' | 'title' | 'user_canvas_id' | 'create_time' | 'update_time'>,
) {
  return { id: v.id, title: v.title, user_canvas_id: v.user_canvas_id, ...times(v) };
}

export function presentVersion(v: UserCanvasVersionRow) {
  return { ...presentVersionItem(v), description: v.description, dsl: dslOf(v.dsl) };
}

export function presentTemplate(t: AgentTemplate): CanvasTemplate {
  return {
    id: String(t.id),
    avatar: t.avatar ?? null,
    title: t.title,
    description: t.description,
    canvas_type: t.canvas_type,
    canvas_category: category(t.canvas_category ?? 'agent_canvas'),
    dsl: JSON.parse(JSON.stringify(t.dsl)) as Json,
  };
}

type SessionRow = Omit<Api4ConversationTable, 'message' | 'reference' | 'dsl'> & {
  message: unknown;
  reference: unknown;
  dsl: unknown;
};

export function presentSession(s: SessionRow, withDsl = true): CanvasSession {
  return {
    id: s.id,
    name: s.name ?? '',
    dialog_id: s.dialog_id,
    user_id: s.user_id,
    exp_user_id: s.exp_user_id,
    message: parseJson<CanvasSession['message']>(s.message, []),
    source: 'agent',
    ...(withDsl ? { dsl: dslOf(s.dsl) } : {}),
    reference: parseJson<CanvasSession['reference']>(s.reference, []),
    tokens: s.tokens,
    duration: s.duration,
    round: s.round,
    thumb_up: s.thumb_up,
    errors: s.errors,
    ...times(s),
  };
}

export function presentRunLog(r: CanvasRunRow): CanvasRunLog {
  return {
    message_id: r.id,
    task_id: r.task_id,
    canvas_id: r.canvas_id,
    status: r.status as CanvasRunLog['status'],
    events: parseJson<CanvasRunLog['events']>(r.events, []),
    trace: parseJson<CanvasRunLog['trace']>(r.trace, []),
    update_time: r.update_time,
  };
}
