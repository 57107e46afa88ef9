import type { Migration } from 'kysely';
import * as m0001 from './0001_foundation.js';
import * as m0002 from './0002_task.js';
import * as m0003 from './0003_llm.js';
import * as m0004 from './0004_kb_document.js';
import * as m0005 from './0005_chat.js';
import * as m0006 from './0006_task_kind.js';
import * as m0007 from './0007_rate_limit.js';
import * as m0008 from './0008_canvas.js';
import * as m0009 from './0009_kb_graph.js';
import * as m0010 from './0010_file_blobs.js';
import * as m0011 from './0011_mcp_server.js';
import * as m0012 from './0012_search_app.js';
import * as m0013 from './0013_langfuse.js';
import { hashedTokensMigration, type TokenOpener } from './0014_hashed_tokens_idempotency.js';

/** What some migrations need besides the database (0014 opens the sealed API keys once). */
export interface MigrationDeps {
  secrets?: TokenOpener;
}

/**
 * Every migration, in order. Listed statically (not read from a folder) so the bundled server
 * carries them. Add new ones at the end with the next number.
 */
export const migrationsFor = (deps: MigrationDeps): Record<string, Migration> => ({
  '0001_foundation': m0001,
  '0002_task': m0002,
  '0003_llm': m0003,
  '0004_kb_document': m0004,
  '0005_chat': m0005,
  '0006_task_kind': m0006,
  '0007_rate_limit': m0007,
  '0008_canvas': m0008,
  '0009_kb_graph': m0009,
  '0010_file_blobs': m0010,
  '0011_mcp_server': m0011,
  '0012_search_app': m0012,
  '0013_langfuse': m0013,
  '0014_hashed_tokens_idempotency': hashedTokensMigration(deps.secrets),
});
