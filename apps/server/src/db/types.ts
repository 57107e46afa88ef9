/**
 * Table types of API.md §18. Every table has the four time columns; ids are 32-hex strings;
 * JSON columns hold text (SQLite) or jsonb (PostgreSQL) — read them with `parseJson`.
 * Modules add their tables here as they arrive.
 */
import type { Generated } from 'kysely';
import type { TimeColumns } from './tables/time.js';
import type { LlmFactoriesTable, LlmTable, TenantLlmTable } from './tables/models.js';
import type {
  DocumentTable,
  File2DocumentTable,
  KbGraphDocTable,
  KbGraphTable,
  KnowledgebaseTable,
} from './tables/knowledge.js';
import type { Api4ConversationTable, ConversationTable, DialogTable } from './tables/chat.js';
import type { CanvasRunTable, UserCanvasTable, UserCanvasVersionTable } from './tables/canvas.js';
import type { McpServerTable } from './tables/mcp.js';
import type { SearchTable } from './tables/search.js';

export type { TimeColumns } from './tables/time.js';

export interface UserTable extends TimeColumns {
  id: string;
  email: string;
  nickname: string;
  password: string;
  /** sha256 of the current session secret, or "INVALID_<32 hex>" after logout. */
  access_token: string;
  avatar: string | null;
  language: string;
  color_schema: string;
  timezone: string;
  last_login_time: number | null;
  is_authenticated: string;
  is_active: string;
  is_anonymous: string;
  login_channel: string | null;
  is_superuser: number;
  status: string;
}

export interface TenantTable extends TimeColumns {
  id: string;
  name: string;
  llm_id: string;
  embd_id: string;
  asr_id: string;
  img2txt_id: string;
  rerank_id: string;
  tts_id: string | null;
  parser_ids: string;
  credit: number;
  status: string;
}

export interface UserTenantTable extends TimeColumns {
  id: string;
  user_id: string;
  tenant_id: string;
  role: string;
  invited_by: string;
  status: string;
}

export interface ApiTokenTable extends TimeColumns {
  id: string;
  tenant_id: string;
  /** What the key list shows (`tokenHint`): the key itself is shown once, at creation, never stored. */
  token_hint: string;
  /** HMAC-SHA256 of the key with the server secret: the only way a key is found. */
  token_hash: string;
  dialog_id: string | null;
  source: string | null;
  /** The beta token's hint and keyed hash (share/embed links); null until one is made. */
  beta_hint: string | null;
  beta_hash: string | null;
}

/** An Idempotency-Key record shared by the API processes (http/idempotency.ts). */
export interface IdempotencyKeyTable {
  scope_hash: string;
  body_hash: string;
  /** The attempt that runs the request (random per attempt); only it may settle or drop the row. */
  owner: string;
  state: 'running' | 'done';
  status: number | null;
  content_type: string | null;
  payload: string | null;
  expires_at: number;
}

export interface FileTable extends TimeColumns {
  id: string;
  parent_id: string;
  tenant_id: string;
  created_by: string;
  name: string;
  location: string;
  /** The blob holding the content (documents created from it share it); null for folders. */
  blob_key: string | null;
  size: number;
  type: string;
  source_type: string;
}

export interface TaskTable extends TimeColumns {
  id: string;
  doc_id: string;
  kb_id: string;
  tenant_id: string;
  from_page: number;
  to_page: number;
  /** TaskKind (packages/shared contract/tasks.ts). */
  kind: string;
  /** JSON of the kind's payload schema. */
  payload: string;
  priority: number;
  begin_at: number | null;
  process_duration: number;
  progress: number;
  progress_msg: string;
  retry_count: number;
  digest: string;
  chunk_ids: string;
  cancel: number;
  lease_owner: string | null;
  lease_until: number | null;
  token_num: number;
}

/** Tracing keys of a tenant (API.md §14); `secret_key` is sealed with the server key. */
export interface TenantTracingTable extends TimeColumns {
  tenant_id: string;
  secret_key: string;
  public_key: string;
  host: string;
}

export interface Database {
  task: TaskTable;
  user: UserTable;
  tenant: TenantTable;
  user_tenant: UserTenantTable;
  api_token: ApiTokenTable;
  file: FileTable;
  kv: { key: string; value: string; update_time: number };
  rate_limit: { key: string; count: number; reset_at: number };
  idempotency_key: IdempotencyKeyTable;
  llm_factories: LlmFactoriesTable;
  llm: LlmTable;
  tenant_llm: TenantLlmTable;
  knowledgebase: KnowledgebaseTable;
  document: DocumentTable;
  kb_graph: KbGraphTable;
  kb_graph_doc: KbGraphDocTable;
  file2document: File2DocumentTable;
  dialog: DialogTable;
  conversation: ConversationTable;
  api_4_conversation: Api4ConversationTable;
  user_canvas: UserCanvasTable;
  user_canvas_version: UserCanvasVersionTable;
  canvas_run: CanvasRunTable;
  mcp_server: McpServerTable;
  tenant_tracing: TenantTracingTable;
  search: SearchTable;
  _placeholder_generated?: { id: Generated<number> };
}
