import { z } from 'zod';
import { COLOR_SCHEMAS } from './contract/enums.js';

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
