/**
 * The KB field map of the Table method (API.md §19.7): each parsed table's columns with their
 * detected types (chunkers/table.ts `inferColumns`: text, int, float, datetime, bool, keyword) as
 * `{ "<column>_<type suffix>": "<header>" }`, deep-merged into the KB's `parser_config.field_map`
 * (documents of one KB add their columns; a re-parsed column keeps its key). A column name typed
 * differently by another document keeps one key of the widest type (search/table-sql/field-types.ts);
 * the row chunks carry the typed values under their own document's keys.
 */
import { progressMessage } from '@lectern/shared';
import type { AppContext } from '../../context.js';
import { parseJson, toJson } from '../../db/json.js';
import type { TaskProgress } from '../../queue/progress.js';
import { widenFieldMap } from '../../search/table-sql/field-types.js';

export async function storeFieldMap(
  ctx: AppContext,
  kbId: string,
  fieldMap: Record<string, string> | undefined,
  progress: TaskProgress,
): Promise<void> {
  if (!fieldMap || Object.keys(fieldMap).length === 0) return;
  await ctx.db.kysely.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('knowledgebase')
      .select('parser_config')
      .where('id', '=', kbId)
      .executeTakeFirst();
    if (!row) return;
    const config = parseJson<Record<string, unknown>>(row.parser_config, {});
    const old: Record<string, string> = {};
    if (config.field_map && typeof config.field_map === 'object') {
      for (const [key, header] of Object.entries(config.field_map)) {
        if (typeof header === 'string') old[key] = header;
      }
    }
    config.field_map = widenFieldMap(old, fieldMap);
    await trx
      .updateTable('knowledgebase')
      .set({ parser_config: toJson(config) })
      .where('id', '=', kbId)
      .execute();
  });
  await progress.report(null, progressMessage('fieldMap', { count: Object.keys(fieldMap).length }));
}
