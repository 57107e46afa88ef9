/**
 * Document metadata beyond `set_meta` (API.md §6): the metadata-extraction setting of one document,
 * the per-key value counts of a KB's documents, and batch updates/deletes of metadata keys.
 */
import type { AppContext } from '../../context.js';
import { parseJson, toJson } from '../../db/json.js';
import type { UserTable } from '../../db/types.js';
import type { DocumentTable } from '../../db/tables/knowledge.js';
import { errors } from '../../http/envelope.js';
import { accessScopeOf, loadKb, refusals } from '../../policy/index.js';
import { summarizeMetadata } from '../../search/metadata-conditions.js';
import { updateStamps } from '../../util/time.js';
import { usableDoc } from './service.js';

type MetaValue = string | number | Array<string | number>;
type Meta = Record<string, MetaValue>;

/** `document/update_metadata_setting`: the document's `parser_config.metadata`. */
export async function updateDocMetadataSetting(
  ctx: AppContext,
  user: UserTable,
  docId: string,
  metadata: unknown,
): Promise<DocumentTable> {
  const { doc } = await usableDoc(ctx, user, docId, 'manage');
  const config = parseJson<Record<string, unknown>>(doc.parser_config, {});
  config.metadata = metadata;
  await ctx.db.kysely
    .updateTable('document')
    .set({ parser_config: toJson(config), ...updateStamps() })
    .where('id', '=', doc.id)
    .execute();
  const fresh = await ctx.db.kysely
    .selectFrom('document')
    .selectAll()
    .where('id', '=', doc.id)
    .executeTakeFirst();
  if (!fresh) throw errors.data('Document not found!');
  return fresh;
}

async function kbDocs(ctx: AppContext, user: UserTable, kbId: unknown, docIds: string[] | undefined) {
  if (typeof kbId !== 'string' || kbId === '') throw errors.argument('Lack of "KB ID"');
  const db = ctx.db.kysely;
  const kb = await loadKb(db, await accessScopeOf(db, user.id), kbId, 'read', {
    refused: refusals.datasetOwner,
  });
  let q = db.selectFrom('document').select(['id', 'meta_fields']).where('kb_id', '=', kb.id);
  if (docIds) {
    if (docIds.length === 0) return { kb, docs: [] };
    q = q.where('id', 'in', docIds);
  }
  return { kb, docs: await q.execute() };
}

/** `document/metadata/summary`: `{key: [[value, count], …]}` over the KB's (or the listed) documents. */
export async function metadataSummary(
  ctx: AppContext,
  user: UserTable,
  kbId: unknown,
  docIds: string[] | undefined,
): Promise<Record<string, Array<[string, number]>>> {
  const { docs } = await kbDocs(ctx, user, kbId, docIds);
  return summarizeMetadata(docs.map((d) => parseJson<Meta>(d.meta_fields, {})));
}

function isScalar(v: unknown): v is string | number {
  return typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));
}

/** The route's checks of `updates`/`deletes` (API.md §6 messages). */
export function metadataChanges(updates: unknown, deletes: unknown) {
  const u = updates ?? [];
  const d = deletes ?? [];
  if (!Array.isArray(u) || !Array.isArray(d)) throw errors.argument('updates and deletes must be lists.');
  const sets: Array<{ key: string; value: MetaValue }> = [];
  for (const item of u as unknown[]) {
    const { key, value } = (item ?? {}) as { key?: unknown; value?: unknown };
    const valueOk = isScalar(value) || (Array.isArray(value) && value.every(isScalar));
    if (typeof key !== 'string' || key === '' || !valueOk)
      throw errors.argument('Each update requires key and value.');
    sets.push({ key, value: value as MetaValue });
  }
  const drops: string[] = [];
  for (const item of d as unknown[]) {
    const { key } = (item ?? {}) as { key?: unknown };
    if (typeof key !== 'string' || key === '') throw errors.argument('Each delete requires key.');
    drops.push(key);
  }
  return { sets, drops };
}

/** `document/metadata/update`: applies the changes to the listed documents of the KB in one transaction. */
export async function updateMetadata(
  ctx: AppContext,
  user: UserTable,
  kbId: unknown,
  docIds: string[],
  changes: ReturnType<typeof metadataChanges>,
): Promise<{ updated: number; matched_docs: number }> {
  const { kb, docs } = await kbDocs(ctx, user, kbId, docIds);
  const db = ctx.db.kysely;
  await loadKb(db, await accessScopeOf(db, user.id), kb.id, 'manage');
  let updated = 0;
  await db.transaction().execute(async (trx) => {
    for (const d of docs) {
      const before = parseJson<Meta>(d.meta_fields, {});
      const after: Meta = { ...before };
      for (const { key, value } of changes.sets) after[key] = value;
      for (const key of changes.drops) delete after[key];
      if (JSON.stringify(after) === JSON.stringify(before)) continue;
      await trx
        .updateTable('document')
        .set({ meta_fields: toJson(after), ...updateStamps() })
        .where('id', '=', d.id)
        .execute();
      updated++;
    }
  });
  return { updated, matched_docs: docs.length };
}
