import { z } from 'zod';
import { MODEL_TYPES } from '@lectern/shared';

/** Request schemas of /v1/llm (API.md §4). Provider credential fields are read from the raw body. */

const positiveInt = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v)) ? Number(v) : v),
  z.number().int().positive(),
);

export const listQuery = z.object({
  model_type: z.string().optional(),
});

export const myLlmsQuery = z.object({
  include_details: z.string().optional(),
});

export const setApiKeyBody = z.object({
  llm_factory: z.string(),
  api_key: z.string(),
  base_url: z.string().nullable().optional(),
  model_type: z.enum(MODEL_TYPES).optional(),
  llm_name: z.string().optional(),
  verify: z.boolean().optional(),
});
export type SetApiKeyBody = z.infer<typeof setApiKeyBody>;

export const addLlmBody = z.object({
  llm_factory: z.string(),
  model_type: z.enum(MODEL_TYPES).optional(),
  llm_name: z.string().optional(),
  api_base: z.string().nullable().optional(),
  api_key: z.string().nullable().optional(),
  max_tokens: positiveInt.nullable().optional(),
  verify: z.boolean().optional(),
});
export type AddLlmBody = z.infer<typeof addLlmBody>;

export const llmRefBody = z.object({
  llm_factory: z.string(),
  llm_name: z.string(),
});

export const enableLlmBody = z.object({
  llm_factory: z.string(),
  llm_name: z.string(),
  status: z.enum(['0', '1']).optional(),
});

export const factoryBody = z.object({
  llm_factory: z.string(),
});
