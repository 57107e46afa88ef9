/** Table types of the agent area (API.md §18: user_canvas, user_canvas_version; canvas_run holds run logs). */
import type { Selectable } from 'kysely';
import type { JsonColumn } from './chat.js';
import type { TimeColumns } from './time.js';

export interface UserCanvasTable extends TimeColumns {
  id: string;
  avatar: string | null;
  /** The owner tenant (= the owner user's id). */
  user_id: string;
  title: string;
  /** "me" | "team" */
  permission: string;
  description: string | null;
  canvas_type: string | null;
  /** "agent_canvas" | "dataflow_canvas" */
  canvas_category: string;
  dsl: JsonColumn;
}

export interface UserCanvasVersionTable extends TimeColumns {
  id: string;
  user_canvas_id: string;
  /** `<title>_<YYYY_MM_DD_HH_MM_SS>` */
  title: string;
  description: string | null;
  dsl: JsonColumn;
}

/** One agent run: the events as streamed (replayed by `trace`) and each component's tool-call steps. */
export interface CanvasRunTable extends TimeColumns {
  /** The run's message id. */
  id: string;
  canvas_id: string;
  task_id: string;
  session_id: string | null;
  tenant_id: string;
  /** running | finished | paused | error | cancelled */
  status: string;
  events: JsonColumn;
  trace: JsonColumn;
}

/** Rows as selected (JSON columns read as `unknown`: parse with `parseJson`). */
export type UserCanvasRow = Selectable<UserCanvasTable>;
export type UserCanvasVersionRow = Selectable<UserCanvasVersionTable>;
export type CanvasRunRow = Selectable<CanvasRunTable>;
