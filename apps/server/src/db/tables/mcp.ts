/** The MCP server table (API.md §18, AGENTS.md §11.1). */
import type { Selectable } from 'kysely';
import type { JsonColumn } from './chat.js';
import type { TimeColumns } from './time.js';

export interface McpServerTable extends TimeColumns {
  id: string;
  /** ≤ 255 UTF-8 bytes, unique per tenant */
  name: string;
  tenant_id: string;
  url: string;
  /** "sse" | "streamable-http" */
  server_type: string;
  description: string | null;
  /** user variables, plus the cached tool list under `tools` (name → tool dict) */
  variables: JsonColumn;
  /** request headers; values may reference variables as `${name}` */
  headers: JsonColumn;
}

export type McpServerRow = Selectable<McpServerTable>;
