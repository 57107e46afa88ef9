import type { TimeColumns } from './time.js';

/** Catalogue factory row (API.md §18 `llm_factories`), seeded from catalogue.json. */
export interface LlmFactoriesTable extends TimeColumns {
  name: string;
  logo: string;
  tags: string;
  rank: number;
  status: string;
}

/** Catalogue model row (API.md §18 `llm`); primary key (fid, llm_name). */
export interface LlmTable extends TimeColumns {
  llm_name: string;
  model_type: string;
  fid: string;
  max_tokens: number;
  tags: string;
  /** bool as 0/1 */
  is_tools: number;
  status: string;
}

/** A tenant's configured model (API.md §18 `tenant_llm`); unique (tenant_id, llm_factory, llm_name). */
export interface TenantLlmTable extends TimeColumns {
  id: string;
  tenant_id: string;
  llm_factory: string;
  model_type: string;
  llm_name: string;
  /** The key or the packed JSON credentials, encrypted with the server key (`Secrets.encrypt`). */
  api_key: string | null;
  api_base: string | null;
  max_tokens: number;
  used_tokens: number;
  status: string;
}
