import { z } from 'zod';

export const registerBody = z.object({
  nickname: z.string(),
  email: z.string(),
  password: z.string(),
});

export const loginBody = z.object({
  email: z.string().optional(),
  password: z.string().optional(),
});

export const settingBody = z.object({
  nickname: z.string().trim().min(1, 'can not be empty.').max(100).optional(),
  avatar: z.string().nullable().optional(),
  language: z.string().max(32).optional(),
  color_schema: z
    .string()
    .refine((v) => v === 'Bright' || v === 'Dark', '`color_schema` must be Bright or Dark.')
    .optional(),
  timezone: z.string().min(1, 'can not be empty.').max(64).optional(),
  password: z.string().optional(),
  new_password: z.string().optional(),
});
export type SettingBody = z.infer<typeof settingBody>;

export const setTenantInfoBody = z.object({
  tenant_id: z.string(),
  asr_id: z.string(),
  embd_id: z.string(),
  img2txt_id: z.string(),
  llm_id: z.string(),
  rerank_id: z.string().optional(),
  tts_id: z.string().nullable().optional(),
});
export type SetTenantInfoBody = z.infer<typeof setTenantInfoBody>;
