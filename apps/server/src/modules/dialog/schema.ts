import { z } from 'zod';

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

const parameter = z.looseObject({ key: z.string(), optional: z.boolean().optional() });

export const promptConfigSchema = z.looseObject({
  system: z.string().optional(),
  prologue: z.string().optional(),
  parameters: z.array(parameter).nullable().optional(),
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

export const llmSettingSchema = z.looseObject({
  temperature: z.number().optional(),
  top_p: z.number().optional(),
  frequency_penalty: z.number().optional(),
  presence_penalty: z.number().optional(),
  max_tokens: z.number().min(0).optional(),
});

export const dialogSetBody = z.object({
  prompt_config: promptConfigSchema,
  dialog_id: z.string().nullable().optional(),
  // `name` is checked by hand: the contract has its own 102 messages for it.
  name: z.unknown().optional(),
  description: z.string().nullable().optional(),
  icon: z.string().nullable().optional(),
  language: z.string().optional(),
  kb_ids: z.array(z.string()).nullable().optional(),
  llm_id: z.string().nullable().optional(),
  llm_setting: llmSettingSchema.nullable().optional(),
  top_n: z.number().int().min(0).optional(),
  top_k: z.number().int().min(1).optional(),
  rerank_id: z.string().nullable().optional(),
  similarity_threshold: z.number().min(0).max(1).optional(),
  vector_similarity_weight: z.number().min(0).max(1).nullable().optional(),
  meta_data_filter: z.looseObject({}).nullable().optional(),
  prompt_type: z.enum(['simple', 'advanced']).optional(),
  do_refer: z.string().optional(),
});
export type DialogSetBody = z.infer<typeof dialogSetBody>;

export const dialogGetQuery = z.object({ dialog_id: z.string() });

export const dialogRmBody = z.object({ dialog_ids: z.array(z.string()) });

export const dialogNextQuery = z.object({
  keywords: z.string().optional(),
  page: z.coerce.number().int().min(0).optional(),
  page_size: z.coerce.number().int().min(0).optional(),
  orderby: z.string().optional(),
  desc: z.string().optional(),
});

export const dialogNextBody = z.object({ owner_ids: z.array(z.string()).optional() });

export const listPublicAgentQuery = z.object({
  keywords: z.string().optional(),
  page: z.coerce.number().int().min(0).optional(),
  page_size: z.coerce.number().int().min(0).optional(),
});
