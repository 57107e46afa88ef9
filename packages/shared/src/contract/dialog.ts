/** `/v1/dialog` — chat assistants (API.md §8). */
import { z } from 'zod';
import { done, epochMs, jsonObject, timeFields } from './common.js';
import { PROMPT_TYPES, statusSchema } from './enums.js';
import { route, routeChecked } from './route.js';

/** Assistant defaults of API.md §8 / §18. */
export const DEFAULT_PROLOGUE = "Hi! I'm your assistant. What can I do for you?";
export const DEFAULT_EMPTY_RESPONSE = 'Sorry! No relevant content was found in the knowledge base!';

export const DEFAULT_PROMPT_CONFIG = {
  system: '',
  prologue: DEFAULT_PROLOGUE,
  parameters: [] as Array<{ key: string; optional: boolean }>,
  empty_response: DEFAULT_EMPTY_RESPONSE,
  quote: true,
  keyword: false,
  refine_multiturn: false,
  cross_languages: [] as string[],
  reasoning: false,
  toc_enhance: false,
  tavily_api_key: '',
  use_kg: false,
  tts: false,
  self_rag: false,
};

/** Stored when a dialog has no llm_setting (API.md §8). */
export const DEFAULT_LLM_SETTING = {
  temperature: 0.1,
  top_p: 0.3,
  frequency_penalty: 0.7,
  presence_penalty: 0.4,
  max_tokens: 512,
};

// ---- Request shapes (loose: keys the contract does not name are stored as given) ----------------

const parameterInput = z.looseObject({ key: z.string(), optional: z.boolean().optional() });

const promptConfigInput = z.looseObject({
  system: z.string().optional(),
  prologue: z.string().optional(),
  parameters: z.array(parameterInput).nullable().optional(),
  empty_response: z.string().nullable().optional(),
  quote: z.boolean().optional(),
  keyword: z.boolean().optional(),
  refine_multiturn: z.boolean().optional(),
  cross_languages: z.array(z.string()).optional(),
  reasoning: z.boolean().optional(),
  toc_enhance: z.boolean().optional(),
  tavily_api_key: z.string().nullable().optional(),
  use_kg: z.boolean().optional(),
  tts: z.boolean().optional(),
  self_rag: z.boolean().optional(),
});

const llmSettingFields = {
  temperature: z.number().optional(),
  top_p: z.number().optional(),
  frequency_penalty: z.number().optional(),
  presence_penalty: z.number().optional(),
  max_tokens: z.number().min(0).optional(),
};
const llmSettingInput = z.looseObject(llmSettingFields);

const dialogSetBody = z.object({
  prompt_config: promptConfigInput,
  dialog_id: z.string().nullable().optional(),
  /** The name checks answer 102 with their own messages (API.md §8), so the service checks `name`. */
  name: routeChecked<string>().optional(),
  description: z.string().nullable().optional(),
  icon: z.string().nullable().optional(),
  language: z.string().optional(),
  kb_ids: z.array(z.string()).nullable().optional(),
  llm_id: z.string().nullable().optional(),
  llm_setting: llmSettingInput.nullable().optional(),
  top_n: z.number().int().min(0).optional(),
  top_k: z.number().int().min(1).optional(),
  rerank_id: z.string().nullable().optional(),
  similarity_threshold: z.number().min(0).max(1).optional(),
  vector_similarity_weight: z.number().min(0).max(1).nullable().optional(),
  /** The metadata filter applied to retrieval (free-form: API.md §6 condition language). */
  meta_data_filter: z.looseObject({}).nullable().optional(),
  prompt_type: z.enum(PROMPT_TYPES).optional(),
  do_refer: z.string().optional(),
});

/** Query-string paging of `next` and `list-public-agent` (numbers arrive as strings). */
const pageNumber = z.coerce.number<number | string>().int().min(0).optional();

// ---- Data shapes -------------------------------------------------------------------------------

/** `llm_setting`: keys may be omitted to leave the provider default. Not strict: extra keys are kept. */
export const llmSettingSchema = z.object(llmSettingFields);
export type LlmSetting = z.infer<typeof llmSettingSchema>;

export const promptParameterSchema = z.object({ key: z.string(), optional: z.boolean() });
export type PromptParameter = z.infer<typeof promptParameterSchema>;

/** A stored prompt_config: the defaults above merged with what the client set (extra keys kept). */
export const promptConfigSchema = z.object({
  system: z.string(),
  prologue: z.string(),
  parameters: z.array(promptParameterSchema),
  empty_response: z.string(),
  quote: z.boolean(),
  keyword: z.boolean(),
  refine_multiturn: z.boolean(),
  cross_languages: z.array(z.string()),
  reasoning: z.boolean(),
  toc_enhance: z.boolean(),
  /** The web-search API key (field name fixed by the wire format). */
  tavily_api_key: z.string(),
  use_kg: z.boolean(),
  tts: z.boolean(),
  self_rag: z.boolean(),
});
export type PromptConfig = z.infer<typeof promptConfigSchema>;

const dialogFields = {
  id: z.string(),
  tenant_id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  icon: z.string().nullable(),
  language: z.string(),
  llm_id: z.string(),
  llm_setting: llmSettingSchema,
  prompt_type: z.enum(PROMPT_TYPES),
  prompt_config: promptConfigSchema,
  meta_data_filter: jsonObject,
  similarity_threshold: z.number(),
  vector_similarity_weight: z.number(),
  top_n: z.number(),
  top_k: z.number(),
  do_refer: z.string(),
  rerank_id: z.string(),
  kb_ids: z.array(z.string()),
  /** Names of the live KBs among `kb_ids` (get, list, set). */
  kb_names: z.array(z.string()).optional(),
  /** Ids in the stored `kb_ids` whose KB was deleted (get, list, set; absent when none). */
  missing_kb_ids: z.array(z.string()).optional(),
  status: statusSchema,
  ...timeFields,
};

/** A dialog as `get`, `list` and `set` answer it. */
export const dialogSchema = z.strictObject(dialogFields);
export type Dialog = z.infer<typeof dialogSchema>;

/** The dialog of the public share page (`conversation/getsse`): `icon` renamed `avatar`, web-search key masked. */
const { icon: _icon, ...sharedFields } = dialogFields;
export const sharedDialogSchema = z.strictObject({ ...sharedFields, avatar: z.string().nullable() });
export type SharedDialog = z.infer<typeof sharedDialogSchema>;

/** A row of `dialog/next`. */
export const dialogListItemSchema = z.strictObject({
  id: z.string(),
  tenant_id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  language: z.string(),
  llm_id: z.string(),
  llm_setting: llmSettingSchema,
  prompt_type: z.enum(PROMPT_TYPES),
  prompt_config: promptConfigSchema,
  similarity_threshold: z.number(),
  vector_similarity_weight: z.number(),
  top_n: z.number(),
  top_k: z.number(),
  do_refer: z.string(),
  rerank_id: z.string(),
  kb_ids: z.array(z.string()),
  icon: z.string().nullable(),
  status: statusSchema,
  nickname: z.string(),
  tenant_avatar: z.string().nullable(),
  update_time: epochMs,
  create_time: epochMs,
});

/** An agent usable from chat (`list-public-agent`, API.md §8). */
const publicAgentSchema = z.strictObject({
  id: z.string(),
  title: z.string(),
  avatar: z.string().nullable(),
  description: z.string().nullable(),
  permission: z.string(),
  tenant_id: z.string(),
  nickname: z.string(),
  tenant_avatar: z.string().nullable(),
  update_time: epochMs,
});

const dialogIds = z.object({ dialog_ids: z.array(z.string()) });

export const dialogContract = {
  set: route({
    method: 'POST',
    path: '/v1/dialog/set',
    auth: 'login',
    body: dialogSetBody,
    data: dialogSchema,
  }),
  get: route({
    method: 'GET',
    path: '/v1/dialog/get',
    auth: 'login',
    query: z.object({ dialog_id: z.string() }),
    data: dialogSchema,
  }),
  list: route({ method: 'GET', path: '/v1/dialog/list', auth: 'login', data: z.array(dialogSchema) }),
  next: route({
    method: 'POST',
    path: '/v1/dialog/next',
    auth: 'login',
    query: z.object({
      keywords: z.string().optional(),
      page: pageNumber,
      page_size: pageNumber,
      orderby: z.string().optional(),
      desc: z.string().optional(),
    }),
    body: z.object({ owner_ids: z.array(z.string()).optional() }),
    data: z.strictObject({ dialogs: z.array(dialogListItemSchema), total: z.number() }),
  }),
  rm: route({ method: 'POST', path: '/v1/dialog/rm', auth: 'login', body: dialogIds, data: done }),
  /** Alias of `rm`. */
  remove: route({ method: 'POST', path: '/v1/dialog/remove', auth: 'login', body: dialogIds, data: done }),
  listPublicAgent: route({
    method: 'GET',
    path: '/v1/dialog/list-public-agent',
    auth: 'login',
    query: z.object({ keywords: z.string().optional(), page: pageNumber, page_size: pageNumber }),
    data: z.array(publicAgentSchema),
  }),
};
