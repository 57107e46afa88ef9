import type { TenantInfo, UserInfo } from '@lectern/shared';
import type { TenantTable, UserTable } from '../../db/types.js';
import { rfc1123 } from '../../util/time.js';

/** The user object of API.md §2 — never the password or the stored session hash. */
export function presentUser(row: UserTable, accessToken?: string): UserInfo {
  const user: UserInfo = {
    id: row.id,
    email: row.email,
    nickname: row.nickname,
    avatar: row.avatar,
    language: row.language,
    color_schema: row.color_schema,
    timezone: row.timezone,
    is_active: row.is_active,
    is_authenticated: row.is_authenticated,
    is_anonymous: row.is_anonymous,
    is_superuser: Boolean(row.is_superuser),
    login_channel: row.login_channel,
    last_login_time: rfc1123(row.last_login_time),
    status: row.status,
    create_time: row.create_time,
    create_date: rfc1123(row.create_time) as string,
    update_time: row.update_time,
    update_date: rfc1123(row.update_time) as string,
  };
  if (accessToken) user.access_token = accessToken;
  return user;
}

export function presentTenantInfo(row: TenantTable, role: string): TenantInfo {
  return {
    tenant_id: row.id,
    name: row.name,
    llm_id: row.llm_id,
    embd_id: row.embd_id,
    rerank_id: row.rerank_id,
    asr_id: row.asr_id,
    img2txt_id: row.img2txt_id,
    tts_id: row.tts_id,
    parser_ids: row.parser_ids,
    role,
  };
}
