/**
 * The enumerations of the wire contract (API.md §1.3, §1.8, §5, §6, §18): envelope codes, status
 * strings, document run states, parser ids, permissions, model types, roles. Request and data
 * schemas use the zod enums; clients use the lists for pickers and the consts for comparisons.
 */
import { z } from 'zod';

/** Envelope codes of API.md §1.3. */
export const RetCode = {
  SUCCESS: 0,
  NOT_EFFECTIVE: 10,
  EXCEPTION_ERROR: 100,
  ARGUMENT_ERROR: 101,
  DATA_ERROR: 102,
  OPERATING_ERROR: 103,
  CONNECTION_ERROR: 105,
  RUNNING: 106,
  PERMISSION_ERROR: 108,
  AUTHENTICATION_ERROR: 109,
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  SERVER_ERROR: 500,
  /** Client-side only: a request that got no response at all. */
  NETWORK_FAILURE: 1999,
} as const;
export type RetCode = (typeof RetCode)[keyof typeof RetCode];

/** The JSON envelope every /v1 answer uses (API.md §1.2). */
export interface Envelope<T = unknown> {
  code: number;
  message: string;
  data?: T | null;
}

/** Exact body of HTTP 401 for a missing or invalid credential (API.md §1.4). */
export const UNAUTHORIZED_BODY = {
  code: 401,
  message: "<Unauthorized '401: Unauthorized'>",
  data: null,
} as const;

/** Soft-delete / enable switch of every row (API.md §1.8): `"1"` valid, `"0"` invalid. */
export const STATUS_VALUES = ['0', '1'] as const;
export const statusSchema = z.enum(STATUS_VALUES);
export type StatusValue = z.infer<typeof statusSchema>;

/** Document parsing status (API.md §1.8; `run` is sent as a string). */
export const DocRun = {
  UNSTART: '0',
  RUNNING: '1',
  CANCEL: '2',
  DONE: '3',
  FAIL: '4',
  SCHEDULE: '5',
} as const;
export type DocRun = (typeof DocRun)[keyof typeof DocRun];
export const RUN_STATUSES = ['0', '1', '2', '3', '4', '5'] as const;
export const runStatusSchema = z.enum(RUN_STATUSES);

/** Chunk methods offered in the method picker (API.md §19.7). */
export const CHUNK_METHODS = [
  'naive',
  'book',
  'laws',
  'manual',
  'paper',
  'presentation',
  'qa',
  'resume',
  'table',
  'picture',
  'one',
  'knowledge_graph',
  'tag',
] as const;
export type ChunkMethod = (typeof CHUNK_METHODS)[number];

/** Methods chosen automatically by file type, never offered in the method picker (API.md §6 upload). */
export const AUTO_CHUNK_METHODS = ['email', 'audio'] as const;

/** Every `parser_id` a KB or document may carry (in the order the 100 message lists them). */
export const PARSER_IDS = [...CHUNK_METHODS, 'audio', 'email'] as const;
export type ParserId = (typeof PARSER_IDS)[number];

/** KB (and agent) visibility (API.md §1.6). */
export const KB_PERMISSIONS = ['me', 'team'] as const;
export const kbPermissionSchema = z.enum(KB_PERMISSIONS);
export type KbPermission = z.infer<typeof kbPermissionSchema>;

/** Roles of a `user_tenant` membership (API.md §1.6). */
export const TENANT_ROLES = ['owner', 'admin', 'normal', 'invite'] as const;
export type TenantRole = (typeof TENANT_ROLES)[number];

/** Model types of the provider catalogue (API.md §4). */
export const MODEL_TYPES = [
  'chat',
  'embedding',
  'rerank',
  'image2text',
  'speech2text',
  'tts',
  'ocr',
] as const;
export const modelTypeSchema = z.enum(MODEL_TYPES);
export type ModelType = z.infer<typeof modelTypeSchema>;

/** Document types by extension (API.md §6, §12.3). */
export const DOCUMENT_TYPES = ['pdf', 'doc', 'visual', 'aural', 'virtual', 'other'] as const;
export const documentTypeSchema = z.enum(DOCUMENT_TYPES);
export type DocumentType = z.infer<typeof documentTypeSchema>;

export const MESSAGE_ROLES = ['user', 'assistant', 'system'] as const;
export const messageRoleSchema = z.enum(MESSAGE_ROLES);

/** `dialog.prompt_type` (API.md §8). */
export const PROMPT_TYPES = ['simple', 'advanced'] as const;

/** Knowledge-graph extraction methods of `parser_config.graphrag.method` (API.md §19.10). */
export const GRAPH_METHODS = ['light', 'general'] as const;
export type GraphMethod = (typeof GRAPH_METHODS)[number];

export const COLOR_SCHEMAS = ['Bright', 'Dark'] as const;
export type ColorSchema = (typeof COLOR_SCHEMAS)[number];
