import { z } from 'zod';
import { COLOR_SCHEMAS } from './constants.js';

/** The user object the server presents (API.md §2). Never carries the password. */
export interface UserInfo {
  id: string;
  email: string;
  nickname: string;
  avatar: string | null;
  language: string;
  color_schema: string;
  timezone: string;
  is_active: string;
  is_authenticated: string;
  is_anonymous: string;
  is_superuser: boolean;
  login_channel: string | null;
  last_login_time: string | null;
  status: string;
  create_time: number;
  create_date: string;
  update_time: number;
  update_date: string;
  access_token?: string;
}

export const EMAIL_PATTERN = /^[\w._-]+@([\w_-]+\.)+[\w-]{2,}$/;

/** Profile form (client side) — required fields of SPEC §5. */
export const profileFormSchema = z.object({
  nickname: z.string().trim().min(1),
  timezone: z.string().min(1),
  color_schema: z.enum(COLOR_SCHEMAS),
  language: z.string().min(1),
  avatar: z.string().nullable().optional(),
});
export type ProfileForm = z.infer<typeof profileFormSchema>;

export interface TenantInfo {
  tenant_id: string;
  name: string;
  llm_id: string;
  embd_id: string;
  rerank_id: string;
  asr_id: string;
  img2txt_id: string;
  tts_id: string | null;
  parser_ids: string;
  role: string;
}

export interface ApiTokenRow {
  tenant_id: string;
  token: string;
  dialog_id: string | null;
  source: string | null;
  beta: string | null;
  create_time: number;
  create_date: string;
  update_time: number | null;
  update_date: string | null;
}
