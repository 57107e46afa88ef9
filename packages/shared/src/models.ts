/** Model providers (API.md §4, §18): types and payload shapes shared by the server and the web client. */
import type { ModelType } from './constants.js';

/** The bundled local factory: its models need no key and it is hidden from `/llm/factories`. */
export const BUILTIN_FACTORY = 'Builtin';

/** Separator of the stored name suffix used by generic self-hosted factories ("name___VLLM"). */
export const MODEL_NAME_TAG_SEPARATOR = '___';

/** One field of a provider's credential form (sent as its own body field to `add_llm`). */
export interface CredentialField {
  name: string;
  label: string;
  required: boolean;
  /** Shown as a password box; stored encrypted; never returned. */
  secret: boolean;
  /** Fixed choices (e.g. a region). */
  options?: string[];
  /** Only required for these model types (all types when absent). */
  required_for?: ModelType[];
  /** How the value is given, e.g. "base64" for a service-account JSON file. */
  encoding?: 'base64';
  placeholder?: string;
}

/** `GET /v1/llm/factories` item. The last four keys are extras that let a client draw the add forms. */
export interface FactoryInfo {
  name: string;
  logo: string;
  tags: string;
  rank: number;
  status: string;
  model_types: ModelType[];
  local: boolean;
  base_url_required: boolean;
  default_base_url: string;
  credential_fields: CredentialField[];
}

/** `GET /v1/llm/list` item. */
export interface LlmListItem {
  llm_name: string;
  model_type: string;
  fid: string;
  max_tokens: number;
  tags: string;
  is_tools: boolean;
  status: string;
  available: boolean;
}

/** `GET /v1/llm/my_llms` item (`api_base` and `max_tokens` only with `include_details=true`). */
export interface MyLlmItem {
  type: string;
  name: string;
  used_token: number;
  status: string;
  api_base?: string;
  max_tokens?: number;
}

export type MyLlms = Record<string, { tags: string; llm: MyLlmItem[] }>;

/** Answer of `set_api_key` / `add_llm` with `verify: true`. */
export interface VerifyResult {
  message: string;
  success: boolean;
}

/** Splits "<llm_name>@<factory>" (API.md §1.8); a bare name has no factory. */
export function splitModelId(modelId: string): { name: string; factory: string | null } {
  const at = modelId.lastIndexOf('@');
  if (at <= 0 || at === modelId.length - 1) return { name: modelId, factory: null };
  return { name: modelId.slice(0, at), factory: modelId.slice(at + 1) };
}

/** The name to call a provider with: the stored name without its "___<tag>" suffix. */
export function callableModelName(storedName: string): string {
  const i = storedName.indexOf(MODEL_NAME_TAG_SEPARATOR);
  return i >= 0 ? storedName.slice(0, i) : storedName;
}
