import { maskSecret } from '../../security/secrets.js';
import { rfc1123 } from '../../util/time.js';
import { searchConfigOf, webSearchKeyOf, type SearchRow } from './service.js';

/** The app's config with its web-search key masked (shown so to everyone, the owner included). */
function maskedConfig(row: SearchRow) {
  const config = searchConfigOf(row);
  const key = webSearchKeyOf(config);
  return key ? { ...config, tavily_api_key: maskSecret(key) } : config;
}

/** A search app as the API shows it (API.md §15 / §18), config with its defaults, dates in RFC 1123. */
export function presentSearch(row: SearchRow) {
  return {
    id: row.id,
    avatar: row.avatar,
    tenant_id: row.tenant_id,
    name: row.name,
    description: row.description,
    created_by: row.created_by,
    search_config: maskedConfig(row),
    status: row.status,
    create_time: row.create_time,
    create_date: rfc1123(row.create_time),
    update_time: row.update_time,
    update_date: rfc1123(row.update_time),
  };
}

/** A row of `search/list` (API.md §15 field list). */
export function presentSearchListItem(row: SearchRow & { nickname: string; tenant_avatar: string | null }) {
  return {
    id: row.id,
    avatar: row.avatar,
    tenant_id: row.tenant_id,
    name: row.name,
    description: row.description,
    created_by: row.created_by,
    status: row.status,
    update_time: row.update_time,
    create_time: row.create_time,
    nickname: row.nickname,
    tenant_avatar: row.tenant_avatar,
  };
}
