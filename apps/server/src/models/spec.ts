import { countTokens } from 'gpt-tokenizer/encoding/cl100k_base';
import type { ModelType } from '@lectern/shared';
import type { CatalogueFactory, CatalogueModel } from './catalogue.js';

/**
 * Everything an adapter needs to call one model: built by the registry from a tenant_llm row
 * (decrypted) and the catalogue, or directly by the key check before anything is stored.
 */
export interface ModelSpec {
  /** "<stored llm_name>@<factory>" */
  id: string;
  factory: CatalogueFactory;
  /** Name as stored (may carry the "___<tag>" suffix). */
  storedName: string;
  /** Name sent to the provider. */
  callName: string;
  modelType: ModelType;
  /** Plain api key ("" when the provider needs none). */
  apiKey: string;
  /** Provider credential fields (packed factories), e.g. bedrock_region, api_version. */
  credentials: Record<string, string>;
  /** Base URL to call: the tenant's api_base, else the catalogue default. */
  baseUrl: string;
  maxTokens: number;
  catalogue?: CatalogueModel;
  /** The fetch every request of this model goes through: the outbound guard (net/), set by buildModel,
   *  so a user's base URL cannot reach private or local addresses unless LECTERN_SSRF_ALLOW allows them. */
  fetch?: typeof fetch;
}

export function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/** Rough token count for providers that do not report usage. */
export function estimateTokens(...texts: string[]): number {
  let n = 0;
  for (const t of texts) if (t) n += countTokens(t);
  return n;
}
