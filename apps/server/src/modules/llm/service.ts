import { BUILTIN_FACTORY, type FactoryInfo, type LlmListItem, type MyLlms } from '@lectern/shared';
import type { AppContext } from '../../context.js';
import { builtinMaybeAvailable } from '../../models/builtin.js';
import { catalogueFactory } from '../../models/catalogue.js';
import type { TenantLlmTable } from '../../db/tables/models.js';
import { updateStamps } from '../../util/time.js';
import { presentCatalogueModel, presentCustomModel, presentFactory, presentMyLlm } from './presenter.js';

/** Reads and simple writes of /v1/llm (API.md §4). Every query is scoped to the caller's tenant. */

export async function listFactories(ctx: AppContext): Promise<FactoryInfo[]> {
  const rows = await ctx.db.kysely
    .selectFrom('llm_factories')
    .selectAll()
    .orderBy('rank', 'desc')
    .orderBy('name')
    .execute();
  const out: FactoryInfo[] = [];
  for (const row of rows) {
    const f = catalogueFactory(row.name);
    if (!f || f.hidden || row.name === BUILTIN_FACTORY) continue;
    out.push(presentFactory(row, f));
  }
  return out;
}

function tenantRows(ctx: AppContext, tenantId: string): Promise<TenantLlmTable[]> {
  return ctx.db.kysely
    .selectFrom('tenant_llm')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .orderBy('create_time')
    .orderBy('llm_name')
    .execute();
}

/**
 * `{<factory>: [model]}`: the catalogue models the tenant configured, every Builtin model, and the
 * tenant's own custom models; `model_type` filters by substring.
 */
export async function listModels(
  ctx: AppContext,
  tenantId: string,
  modelType: string | undefined,
): Promise<Record<string, LlmListItem[]>> {
  const rows = await tenantRows(ctx, tenantId);
  const catalogue = await ctx.db.kysely.selectFrom('llm').selectAll().where('status', '=', '1').execute();
  const byKey = new Map(catalogue.map((m) => [`${m.fid}\u0000${m.llm_name}`, m]));
  const items: LlmListItem[] = [];
  for (const m of catalogue) {
    if (m.fid === BUILTIN_FACTORY)
      items.push(presentCatalogueModel(m, builtinMaybeAvailable(ctx.config, m.llm_name)));
  }
  for (const row of rows) {
    const m = byKey.get(`${row.llm_factory}\u0000${row.llm_name}`);
    items.push(m ? presentCatalogueModel(m, row.status === '1') : presentCustomModel(row));
  }
  const res: Record<string, LlmListItem[]> = {};
  for (const item of items) {
    if (modelType && !item.model_type.includes(modelType)) continue;
    (res[item.fid] ??= []).push(item);
  }
  return res;
}

export async function myLlms(ctx: AppContext, tenantId: string, details: boolean): Promise<MyLlms> {
  const rows = await tenantRows(ctx, tenantId);
  const factories = await ctx.db.kysely.selectFrom('llm_factories').select(['name', 'tags']).execute();
  const tags = new Map(factories.map((f) => [f.name, f.tags]));
  const res: MyLlms = {};
  for (const row of rows) {
    const group = (res[row.llm_factory] ??= { tags: tags.get(row.llm_factory) ?? '', llm: [] });
    group.llm.push(presentMyLlm(row, details));
  }
  return res;
}

export async function deleteLlm(
  ctx: AppContext,
  tenantId: string,
  factory: string,
  llmName: string,
): Promise<void> {
  await ctx.db.kysely
    .deleteFrom('tenant_llm')
    .where('tenant_id', '=', tenantId)
    .where('llm_factory', '=', factory)
    .where('llm_name', '=', llmName)
    .execute();
}

export async function enableLlm(
  ctx: AppContext,
  tenantId: string,
  factory: string,
  llmName: string,
  status: string,
): Promise<void> {
  await ctx.db.kysely
    .updateTable('tenant_llm')
    .set({ status, ...updateStamps() })
    .where('tenant_id', '=', tenantId)
    .where('llm_factory', '=', factory)
    .where('llm_name', '=', llmName)
    .execute();
}

export async function deleteFactory(ctx: AppContext, tenantId: string, factory: string): Promise<void> {
  await ctx.db.kysely
    .deleteFrom('tenant_llm')
    .where('tenant_id', '=', tenantId)
    .where('llm_factory', '=', factory)
    .execute();
}
