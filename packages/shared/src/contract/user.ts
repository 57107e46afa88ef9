/** `/v1/user` (API.md §2). */
import { z } from 'zod';
import { done, httpDate, timeFields } from './common.js';
import { route } from './route.js';

/** The user object (API.md §2). Never carries the password. */
export const userSchema = z.strictObject({
  id: z.string(),
  email: z.string(),
  nickname: z.string(),
  /** A data-URL image, or null. */
  avatar: z.string().nullable(),
  language: z.string(),
  /** "Bright" or "Dark". */
  color_schema: z.string(),
  timezone: z.string(),
  is_active: z.string(),
  is_authenticated: z.string(),
  is_anonymous: z.string(),
  is_superuser: z.boolean(),
  login_channel: z.string().nullable(),
  last_login_time: httpDate.nullable(),
  status: z.string(),
  ...timeFields,
  /** Login and register only: the raw session value (informational; clients use the header). */
  access_token: z.string().optional(),
});
export type UserInfo = z.infer<typeof userSchema>;

export const tenantInfoSchema = z.strictObject({
  tenant_id: z.string(),
  name: z.string(),
  llm_id: z.string(),
  embd_id: z.string(),
  rerank_id: z.string(),
  asr_id: z.string(),
  img2txt_id: z.string(),
  tts_id: z.string().nullable(),
  /** `"<parser_id>:<label>,…"`: the chunk methods offered to this tenant. */
  parser_ids: z.string(),
  /** A `user_tenant` role (`TENANT_ROLES`). */
  role: z.string(),
});
export type TenantInfo = z.infer<typeof tenantInfoSchema>;

const credentials = z.object({
  email: z.string().optional(),
  password: z.string().optional(),
});

/** Longest nickname (characters): the user row's column. */
export const NICKNAME_MAX = 100;

export const userContract = {
  register: route({
    method: 'POST',
    path: '/v1/user/register',
    auth: 'public',
    // The nickname fits the user row (varchar(100)), as on the profile (`setting`).
    body: z.object({
      nickname: z.string().max(NICKNAME_MAX, `is too long (at most ${NICKNAME_MAX} characters).`),
      email: z.string(),
      password: z.string(),
    }),
    data: userSchema,
  }),
  login: route({
    method: 'POST',
    path: '/v1/user/login',
    auth: 'public',
    body: credentials,
    data: userSchema,
  }),
  logout: route({ method: 'POST', path: '/v1/user/logout', auth: 'login', data: done }),
  logoutGet: route({ method: 'GET', path: '/v1/user/logout', auth: 'login', data: done }),
  info: route({ method: 'GET', path: '/v1/user/info', auth: 'login', data: userSchema }),
  /** Alias of `info` (SPEC §7 spelling). */
  accountInfo: route({ method: 'GET', path: '/v1/account/user/info', auth: 'login', data: userSchema }),
  setting: route({
    method: 'POST',
    path: '/v1/user/setting',
    auth: 'login',
    body: z.object({
      nickname: z.string().trim().min(1, 'can not be empty.').max(NICKNAME_MAX).optional(),
      avatar: z.string().nullable().optional(),
      language: z.string().max(32).optional(),
      color_schema: z
        .string()
        .refine((v) => v === 'Bright' || v === 'Dark', '`color_schema` must be Bright or Dark.')
        .optional(),
      timezone: z.string().min(1, 'can not be empty.').max(64).optional(),
      password: z.string().optional(),
      new_password: z.string().optional(),
    }),
    data: done,
  }),
  tenantInfo: route({ method: 'GET', path: '/v1/user/tenant_info', auth: 'login', data: tenantInfoSchema }),
  setTenantInfo: route({
    method: 'POST',
    path: '/v1/user/set_tenant_info',
    auth: 'login',
    body: z.object({
      tenant_id: z.string(),
      asr_id: z.string(),
      embd_id: z.string(),
      img2txt_id: z.string(),
      llm_id: z.string(),
      rerank_id: z.string().optional(),
      tts_id: z.string().nullable().optional(),
    }),
    data: done,
  }),
  loginChannels: route({
    method: 'GET',
    path: '/v1/user/login/channels',
    auth: 'public',
    /** The configured SSO channels (`LOGIN_CHANNELS`), `[]` when none. */
    data: z.array(z.strictObject({ channel: z.string(), display_name: z.string(), icon: z.string() })),
  }),
};
