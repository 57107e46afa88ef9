/**
 * Table types of the chat area (API.md §18: dialog, conversation, api_4_conversation).
 * JSON columns are written as JSON text (`toJson`) and read back with `parseJson` — PostgreSQL
 * hands them back parsed, SQLite as text, hence the `unknown` select type.
 */
import type { ColumnType } from 'kysely';
import type { TimeColumns } from './time.js';

export type JsonColumn = ColumnType<unknown, string, string>;

export interface DialogTable extends TimeColumns {
  id: string;
  tenant_id: string;
  name: string;
  description: string;
  icon: string;
  language: string;
  llm_id: string;
  llm_setting: JsonColumn;
  prompt_type: string;
  prompt_config: JsonColumn;
  meta_data_filter: JsonColumn;
  similarity_threshold: number;
  vector_similarity_weight: number;
  top_n: number;
  top_k: number;
  do_refer: string;
  rerank_id: string;
  kb_ids: JsonColumn;
  status: string;
}

export interface ConversationTable extends TimeColumns {
  id: string;
  dialog_id: string;
  name: string;
  message: JsonColumn;
  reference: JsonColumn;
  user_id: string;
}

export interface Api4ConversationTable extends TimeColumns {
  id: string;
  name: string | null;
  dialog_id: string;
  user_id: string;
  exp_user_id: string | null;
  message: JsonColumn;
  reference: JsonColumn;
  tokens: number;
  /** null: legacy API assistant session; "agent": agent session; "dialog": web-chat statistics row. */
  source: string | null;
  dsl: JsonColumn;
  duration: number;
  round: number;
  thumb_up: number;
  errors: string | null;
}
