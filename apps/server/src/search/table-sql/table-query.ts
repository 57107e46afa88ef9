/**
 * Structured queries over table KBs (API.md §19.7, RAGFlow's `use_sql`): which KBs qualify (every
 * one `table`-parsed with a field map), their rows' typed fields read from the chunk index (either
 * adapter; the metadata database is never queried), and the runner that executes one model-written
 * SELECT over them in a worker thread with a time limit (table-sql.worker.ts).
 */
import type { AppContext } from '../../context.js';
import { parseJson } from '../../db/json.js';
import { accessScopeOf, readableKbs } from '../../policy/index.js';
import { WorkerJobError, WorkerPool } from '../../util/worker-pool.js';
import { cellFor, sourceKeysOf, widenFieldMap } from './field-types.js';
import type { TableQueryJob, TableQueryOutcome } from './types.js';

/** KB rows a question may query; larger KBs answer through retrieval (the rows are copied per question). */
export const MAX_TABLE_ROWS = 50_000;
/** Result rows kept for the answer. */
export const MAX_RESULT_ROWS = 100;
/** Time one statement may run (building the throwaway database included). */
export const TABLE_SQL_TIMEOUT_MS = 5_000;
// Large pages: each listing page counts and sorts the KB again (5,000 measured ~25% faster than 1,000).
const PAGE = 5_000;

export interface TableSchema {
  kbIds: string[];
  /**
   * `<column>_<type>` key → the column's header as written, merged over the KBs with one key per
   * column name of the widest type (field-types.ts).
   */
  fieldMap: Record<string, string>;
}

/** The merged field map when every readable KB of the list is `table`-parsed with one, else null. */
export async function tableSchemaOf(
  ctx: AppContext,
  tenantId: string,
  kbIds: string[],
): Promise<TableSchema | null> {
  if (kbIds.length === 0) return null;
  const db = ctx.db.kysely;
  const kbs = await db
    .selectFrom('knowledgebase')
    .select(['id', 'parser_id', 'parser_config'])
    .where('id', 'in', kbIds)
    .where('status', '=', '1')
    .where(readableKbs(await accessScopeOf(db, tenantId)))
    .execute();
  if (kbs.length === 0) return null;
  const maps: Array<Record<string, string>> = [];
  for (const kb of kbs) {
    if (kb.parser_id !== 'table') return null;
    const map = parseJson<Record<string, unknown>>(kb.parser_config, {}).field_map;
    if (!map || typeof map !== 'object' || Object.keys(map).length === 0) return null;
    const headers: Record<string, string> = {};
    for (const [key, header] of Object.entries(map)) {
      if (typeof header === 'string') headers[key] = header;
    }
    maps.push(headers);
  }
  // Field maps stored before widening (or KBs typed differently) may still hold a name twice.
  const fieldMap = widenFieldMap(...maps);
  return Object.keys(fieldMap).length > 0 ? { kbIds: kbs.map((kb) => kb.id), fieldMap } : null;
}

/** The KBs' enabled row chunks as table rows, or null when there are more than MAX_TABLE_ROWS. */
export async function loadTableRows(
  ctx: AppContext,
  schema: TableSchema,
): Promise<TableQueryJob['rows'] | null> {
  // Each wide column reads whichever of its typed keys the row's document stored.
  const columns = Object.keys(schema.fieldMap).map((key) => ({ key, sources: sourceKeysOf(key) }));
  const rows: TableQueryJob['rows'] = [];
  for (let offset = 0; ; offset += PAGE) {
    const page = await ctx.chunkIndex.list({ kbIds: schema.kbIds, available: 1 }, 'position', offset, PAGE);
    if (page.total > MAX_TABLE_ROWS) return null;
    for (const c of page.chunks) {
      const extra = c.extra ?? {};
      const cells = columns.map(({ key, sources }) => {
        const from = sources.find((k) => extra[k] !== undefined && extra[k] !== null);
        return from === undefined ? null : cellFor(key, extra[from]);
      });
      rows.push([c.id, c.doc_id, c.docnm_kwd, ...cells]);
    }
    if (page.chunks.length < PAGE) return rows;
  }
}

/** One worker thread for statements; a statement over its time ends the thread (replaced on the next job). */
export class TableSqlRunner {
  private pool: WorkerPool | null = null;

  constructor(private readonly timeoutMs = TABLE_SQL_TIMEOUT_MS) {}

  async query(job: TableQueryJob, signal?: AbortSignal): Promise<TableQueryOutcome> {
    this.pool ??= new WorkerPool({
      entry: 'search/table-sql/table-sql.worker',
      size: 1,
      isolation: 'thread',
      maxHeapMb: 256,
      defaultTimeoutMs: this.timeoutMs,
    });
    try {
      // A thread ended by the time limit is restarted here, so its start-up is not counted as query time.
      await this.pool.warm();
      return await this.pool.run<TableQueryOutcome>('query', job, { signal });
    } catch (err) {
      if (err instanceof WorkerJobError) {
        const error =
          err.reason === 'timeout'
            ? `The query took longer than ${this.timeoutMs / 1000}s and was stopped.`
            : `The query could not run: ${err.message}`;
        return { ok: false, refused: false, error };
      }
      throw err;
    }
  }

  async close(): Promise<void> {
    await this.pool?.close();
    this.pool = null;
  }
}
