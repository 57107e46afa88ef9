/** Table type of the search apps (API.md §18 `search`). */
import type { JsonColumn } from './chat.js';
import type { TimeColumns } from './time.js';

export interface SearchTable extends TimeColumns {
  id: string;
  avatar: string | null;
  tenant_id: string;
  name: string;
  description: string | null;
  /** The user who made it; only they change or remove it. */
  created_by: string;
  /** API.md §15 `search_config` (defaults filled in at create). */
  search_config: JsonColumn;
  status: string;
}
