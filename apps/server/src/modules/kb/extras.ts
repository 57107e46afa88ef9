/**
 * Read-mostly KB endpoints beyond CRUD: tag statistics and edits over the KB's chunks, document
 * metadata aggregation, and the per-status document counts of `basic_info` (API.md §5).
 */
import type { AppContext } from '../../context.js';
import { parseJson } from '../../db/json.js';
import type { UserTable } from '../../db/types.js';
import { accessScopeOf, loadKbs } from '../../policy/index.js';
import type { KnowledgebaseTable } from '../../db/tables/knowledge.js';

/** Every listed KB when the user may use all of them; 109 otherwise. */
export async function usableKbs(
  ctx: AppContext,
  user: UserTable,
  kbIds: string[],
): Promise<KnowledgebaseTable[]> {
  const db = ctx.db.kysely;
  return loadKbs(db, await accessScopeOf(db, user.id), kbIds, 'read');
}

export function splitIds(raw: unknown): string[] {
  const values = Array.isArray(raw) ? raw : [raw];
  return values
    .flatMap((v) => (typeof v === 'string' ? v.split(',') : []))
    .map((v) => v.trim())
    .filter((v) => v.length > 0);
}

/** `[[tag, count], …]` over the chunks of the KBs, most frequent first. */
export async function tagCounts(ctx: AppContext, kbIds: string[]): Promise<Array<[string, number]>> {
  const index = ctx.chunkIndex;
  return index.tagCounts(kbIds);
}

export async function removeTags(ctx: AppContext, kbId: string, tags: string[]): Promise<void> {
  const index = ctx.chunkIndex;
  await index.removeTags(kbId, tags);
}

export async function renameTag(ctx: AppContext, kbId: string, from: string, to: string): Promise<void> {
  const index = ctx.chunkIndex;
  await index.renameTag(kbId, from, to);
}

/** `{key: {value: [doc_id…]}}` over the documents of the KBs (list values count each element). */
export async function metaSummary(ctx: AppContext, kbIds: string[]) {
  const docs = await ctx.db.kysely
    .selectFrom('document')
    .select(['id', 'meta_fields'])
    .where('kb_id', 'in', kbIds)
    .execute();
  const out: Record<string, Record<string, string[]>> = {};
  for (const doc of docs) {
    const meta = parseJson<Record<string, unknown>>(doc.meta_fields, {});
    for (const [key, value] of Object.entries(meta)) {
      for (const v of Array.isArray(value) ? value : [value]) {
        const k = String(v);
        out[key] ??= {};
        out[key][k] ??= [];
        out[key][k].push(doc.id);
      }
    }
  }
  return out;
}

/**
 * Document counts by parsing state. `downloaded` counts documents fetched from elsewhere
 * (web crawl), i.e. whose source is not a local upload.
 */
export async function basicInfo(ctx: AppContext, kbId: string) {
  const rows = await ctx.db.kysely
    .selectFrom('document')
    .select(['run', 'source_type'])
    .where('kb_id', '=', kbId)
    .execute();
  const count = (run: string) => rows.filter((r) => r.run === run).length;
  return {
    processing: count('1'),
    finished: count('3'),
    failed: count('4'),
    cancelled: count('2'),
    downloaded: rows.filter((r) => r.source_type !== 'local').length,
  };
}
