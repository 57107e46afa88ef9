import type { FactoryInfo, LlmListItem, MyLlmItem } from '@lectern/shared';
import type { CatalogueFactory } from '../../models/catalogue.js';
import type { LlmFactoriesTable, LlmTable, TenantLlmTable } from '../../db/tables/models.js';

/** The only way model-provider rows leave the server: never an api key, never packed credentials. */

export function presentFactory(row: LlmFactoriesTable, f: CatalogueFactory): FactoryInfo {
  return {
    name: row.name,
    logo: row.logo,
    tags: row.tags,
    rank: row.rank,
    status: row.status,
    model_types: f.model_types,
    local: f.local,
    base_url_required: f.base_url_required,
    default_base_url: f.default_base_url,
    credential_fields: f.credentials.map((c) => ({ ...c })),
  };
}

export function presentCatalogueModel(row: LlmTable, available: boolean): LlmListItem {
  return {
    llm_name: row.llm_name,
    model_type: row.model_type,
    fid: row.fid,
    max_tokens: row.max_tokens,
    tags: row.tags,
    is_tools: row.is_tools === 1,
    status: row.status,
    available,
  };
}

/** A tenant model the catalogue does not list (added with add_llm). */
export function presentCustomModel(row: TenantLlmTable): LlmListItem {
  return {
    llm_name: row.llm_name,
    model_type: row.model_type,
    fid: row.llm_factory,
    max_tokens: row.max_tokens,
    tags: '',
    is_tools: false,
    status: row.status,
    available: row.status === '1',
  };
}

export function presentMyLlm(row: TenantLlmTable, details: boolean): MyLlmItem {
  const item: MyLlmItem = {
    type: row.model_type,
    name: row.llm_name,
    used_token: Number(row.used_tokens),
    status: row.status || '1',
  };
  if (details) {
    item.api_base = row.api_base || '';
    item.max_tokens = row.max_tokens || 8192;
  }
  return item;
}
