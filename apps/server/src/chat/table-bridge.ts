/**
 * Binds the chat pipeline's structured-query services (API.md §19.7) to the real modules: KB field
 * maps from the metadata database, rows from the chunk index, statements run by the table-SQL worker
 * thread (released on shutdown), result rows cited through their chunks.
 */
import type { AppContext } from '../context.js';
import { cleanModelSql } from '../search/table-sql/statement.js';
import {
  loadTableRows,
  MAX_RESULT_ROWS,
  TableSqlRunner,
  tableSchemaOf,
} from '../search/table-sql/table-query.js';
import type { ChatServices } from './services.js';
import type { RefChunk } from './types.js';

export function createTableQueries(ctx: AppContext): Pick<ChatServices, 'tableSchema' | 'queryTable'> {
  const runner = new TableSqlRunner();
  ctx.onClose.push(() => runner.close());
  return {
    tableSchema: (tenantId, kbIds) => tableSchemaOf(ctx, tenantId, kbIds),
    async queryTable(schema, table, modelAnswer, signal) {
      const rows = await loadTableRows(ctx, schema);
      if (!rows || rows.length === 0) return null;
      const sql = cleanModelSql(modelAnswer);
      const outcome = await runner.query(
        { table, fields: Object.keys(schema.fieldMap), rows, sql, maxRows: MAX_RESULT_ROWS },
        signal,
      );
      const chunks = new Map<string, RefChunk>();
      if (outcome.ok && outcome.rowIdColumn >= 0) {
        const ids = [...new Set(outcome.rows.map((r) => String(r[outcome.rowIdColumn])))];
        for (const c of await ctx.chunkIndex.getMany(ids)) {
          chunks.set(c.id, {
            chunk_id: c.id,
            content_with_weight: c.content_with_weight,
            doc_id: c.doc_id,
            docnm_kwd: c.docnm_kwd,
            kb_id: c.kb_id,
            important_kwd: c.important_kwd,
            image_id: c.img_id,
            positions: c.positions,
            similarity: 1,
            vector_similarity: 0,
            term_similarity: 0,
            doc_type_kwd: c.doc_type_kwd ?? '',
          });
        }
      }
      return { sql, outcome, chunks };
    },
  };
}
