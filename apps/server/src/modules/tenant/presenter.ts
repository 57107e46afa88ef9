/** Team rows as API.md §3 shows them (`update_date` RFC 1123, `delta_seconds` since then). */
import type { TenantRole } from '@lectern/shared';
import { nowMs, rfc1123 } from '../../util/time.js';

const since = (ms: number) => Math.max(0, Math.round((nowMs() - Number(ms)) / 1000));

export function presentMember(row: {
  id: string;
  user_id: string;
  role: string;
  status: string;
  update_time: number;
  nickname: string;
  email: string;
  avatar: string | null;
  is_active: string;
  is_authenticated: string;
  is_anonymous: string;
  is_superuser: boolean | number;
}) {
  return {
    id: row.id,
    user_id: row.user_id,
    role: row.role as TenantRole,
    status: row.status,
    nickname: row.nickname,
    email: row.email,
    avatar: row.avatar,
    is_active: row.is_active,
    is_authenticated: row.is_authenticated,
    is_anonymous: row.is_anonymous,
    is_superuser: !!row.is_superuser,
    update_date: rfc1123(row.update_time) ?? '',
    delta_seconds: since(row.update_time),
  };
}

export function presentTeam(row: {
  tenant_id: string;
  role: string;
  update_time: number;
  nickname: string;
  email: string;
  avatar: string | null;
}) {
  return {
    tenant_id: row.tenant_id,
    role: row.role as TenantRole,
    nickname: row.nickname,
    email: row.email,
    avatar: row.avatar,
    update_date: rfc1123(row.update_time) ?? '',
    delta_seconds: since(row.update_time),
  };
}
