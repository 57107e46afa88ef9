/** `/v1/llm` — model providers (API.md §4). */
import { z } from 'zod';
import { done } from './common.js';
import { MODEL_TYPES, modelTypeSchema } from './enums.js';
import { route } from './route.js';

/** One field of a provider's credential form (sent as its own body field to `add_llm`). */
export const credentialFieldSchema = z.strictObject({
  name: z.string(),
  label: z.string(),
  required: z.boolean(),
  /** Shown as a password box; stored encrypted; never returned. */
  secret: z.boolean(),
  /** Fixed choices (e.g. a region). */
  options: z.array(z.string()).optional(),
  /** Only required for these model types (all types when absent). */
  required_for: z.array(modelTypeSchema).optional(),
  /** How the value is given, e.g. "base64" for a service-account JSON file. */
  encoding: z.literal('base64').optional(),
  placeholder: z.string().optional(),
});
export type CredentialField = z.infer<typeof credentialFieldSchema>;

/** A `/llm/factories` item. The last four keys are extras that let a client draw the add forms. */
export const factoryInfoSchema = z.strictObject({
  name: z.string(),
  logo: z.string(),
  tags: z.string(),
  rank: z.number(),
  status: z.string(),
  model_types: z.array(modelTypeSchema),
  local: z.boolean(),
  base_url_required: z.boolean(),
  default_base_url: z.string(),
  credential_fields: z.array(credentialFieldSchema),
});
export type FactoryInfo = z.infer<typeof factoryInfoSchema>;

/** A `/llm/list` item. */
export const llmListItemSchema = z.strictObject({
  llm_name: z.string(),
  model_type: z.string(),
  fid: z.string(),
  max_tokens: z.number(),
  tags: z.string(),
  is_tools: z.boolean(),
  status: z.string(),
  available: z.boolean(),
});
export type LlmListItem = z.infer<typeof llmListItemSchema>;

/** A `/llm/my_llms` item (`api_base` and `max_tokens` only with `include_details=true`). */
export const myLlmItemSchema = z.strictObject({
  type: z.string(),
  name: z.string(),
  used_token: z.number(),
  status: z.string(),
  api_base: z.string().optional(),
  max_tokens: z.number().optional(),
});
export type MyLlmItem = z.infer<typeof myLlmItemSchema>;

export const myLlmsSchema = z.record(
  z.string(),
  z.strictObject({ tags: z.string(), llm: z.array(myLlmItemSchema) }),
);
export type MyLlms = z.infer<typeof myLlmsSchema>;

/** Answer of `set_api_key` / `add_llm` with `verify: true` (nothing is stored then). */
export const verifyResultSchema = z.strictObject({ message: z.string(), success: z.boolean() });
export type VerifyResult = z.infer<typeof verifyResultSchema>;

/** Coerces numeric strings, as form posts send them. */
const positiveInt = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v)) ? Number(v) : v),
  z.number().int().positive(),
);

const modelRef = z.object({ llm_factory: z.string(), llm_name: z.string() });

/**
 * `set_api_key` and `add_llm` bodies also carry the provider's own credential fields (the `name`s of
 * its `credential_fields`) as top-level keys; the server reads those from the raw body.
 */
export type ProviderCredentialFields = Record<string, string | undefined>;

export const llmContract = {
  factories: route({
    method: 'GET',
    path: '/v1/llm/factories',
    auth: 'login',
    data: z.array(factoryInfoSchema),
  }),
  list: route({
    method: 'GET',
    path: '/v1/llm/list',
    auth: 'login',
    /** `model_type` filters by substring. */
    query: z.object({ model_type: z.string().optional() }),
    data: z.record(z.string(), z.array(llmListItemSchema)),
  }),
  myLlms: route({
    method: 'GET',
    path: '/v1/llm/my_llms',
    auth: 'login',
    /** `"true"` (any case) adds `api_base` and `max_tokens`. */
    query: z.object({ include_details: z.string().optional() }),
    data: myLlmsSchema,
  }),
  setApiKey: route({
    method: 'POST',
    path: '/v1/llm/set_api_key',
    auth: 'login',
    body: z.object({
      llm_factory: z.string(),
      api_key: z.string(),
      base_url: z.string().nullable().optional(),
      model_type: z.enum(MODEL_TYPES).optional(),
      llm_name: z.string().optional(),
      verify: z.boolean().optional(),
    }),
    data: z.union([z.literal(true), verifyResultSchema]),
  }),
  addLlm: route({
    method: 'POST',
    path: '/v1/llm/add_llm',
    auth: 'login',
    body: z.object({
      llm_factory: z.string(),
      model_type: z.enum(MODEL_TYPES).optional(),
      llm_name: z.string().optional(),
      api_base: z.string().nullable().optional(),
      api_key: z.string().nullable().optional(),
      max_tokens: positiveInt.nullable().optional(),
      verify: z.boolean().optional(),
    }),
    data: z.union([z.literal(true), verifyResultSchema]),
  }),
  deleteLlm: route({ method: 'POST', path: '/v1/llm/delete_llm', auth: 'login', body: modelRef, data: done }),
  enableLlm: route({
    method: 'POST',
    path: '/v1/llm/enable_llm',
    auth: 'login',
    body: modelRef.extend({ status: z.enum(['0', '1']).optional() }),
    data: done,
  }),
  deleteFactory: route({
    method: 'POST',
    path: '/v1/llm/delete_factory',
    auth: 'login',
    body: z.object({ llm_factory: z.string() }),
    data: done,
  }),
};
