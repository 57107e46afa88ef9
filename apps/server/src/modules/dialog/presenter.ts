import { parseJson } from '../../db/json.js';
import { maskSecret } from '../../security/secrets.js';
import { rfc1123 } from '../../util/time.js';
import { DEFAULT_PROMPT_CONFIG } from '@lectern/shared';
import type { DialogRow } from './service.js';

/** The web-search key is shown masked to everyone, its owner included (issue 11 item 5). */
function maskedPromptConfig<T extends Record<string, unknown>>(config: T): T {
  const key = config.tavily_api_key;
  return typeof key === 'string' && key !== '' ? { ...config, tavily_api_key: maskSecret(key) } : config;
}

/** A dialog as the API shows it (API.md §8 / §18), JSON columns parsed, dates in RFC 1123. */
export function presentDialog(row: DialogRow, kbs?: { kb_ids: string[]; kb_names: string[] }) {
  // KBs deleted under the assistant: named so the editor can show them and let the user drop them.
  const live = new Set(kbs?.kb_ids ?? []);
  const missing = kbs ? parseJson<string[]>(row.kb_ids, []).filter((id) => !live.has(id)) : [];
  return {
    id: row.id,
    tenant_id: row.tenant_id,
    name: row.name,
    description: row.description,
    icon: row.icon,
    language: row.language,
    llm_id: row.llm_id,
    llm_setting: parseJson<Record<string, unknown>>(row.llm_setting, {}),
    prompt_type: row.prompt_type,
    prompt_config: maskedPromptConfig({
      ...DEFAULT_PROMPT_CONFIG,
      ...parseJson<Record<string, unknown>>(row.prompt_config, {}),
    }),
    meta_data_filter: parseJson<Record<string, unknown>>(row.meta_data_filter, {}),
    similarity_threshold: row.similarity_threshold,
    vector_similarity_weight: row.vector_similarity_weight,
    top_n: row.top_n,
    top_k: row.top_k,
    do_refer: row.do_refer,
    rerank_id: row.rerank_id,
    kb_ids: kbs ? kbs.kb_ids : parseJson<string[]>(row.kb_ids, []),
    ...(kbs ? { kb_names: kbs.kb_names } : {}),
    ...(missing.length > 0 ? { missing_kb_ids: missing } : {}),
    status: row.status,
    create_time: row.create_time,
    create_date: rfc1123(row.create_time),
    update_time: row.update_time,
    update_date: rfc1123(row.update_time),
  };
}

/** A row of `dialog/next` (API.md §8 field list). */
export function presentDialogListItem(row: DialogRow & { nickname: string; tenant_avatar: string | null }) {
  const d = presentDialog(row);
  return {
    id: d.id,
    tenant_id: d.tenant_id,
    name: d.name,
    description: d.description,
    language: d.language,
    llm_id: d.llm_id,
    llm_setting: d.llm_setting,
    prompt_type: d.prompt_type,
    prompt_config: d.prompt_config,
    similarity_threshold: d.similarity_threshold,
    vector_similarity_weight: d.vector_similarity_weight,
    top_n: d.top_n,
    top_k: d.top_k,
    do_refer: d.do_refer,
    rerank_id: d.rerank_id,
    kb_ids: d.kb_ids,
    icon: d.icon,
    status: d.status,
    nickname: row.nickname,
    tenant_avatar: row.tenant_avatar,
    update_time: d.update_time,
    create_time: d.create_time,
  };
}

/**
 * The dialog for the public share page (`conversation/getsse`, beta token): `icon` renamed
 * `avatar`, and the web-search key withheld — whoever holds an embed link must not get it.
 */
export function presentSharedDialog(row: DialogRow) {
  const { icon, ...rest } = presentDialog(row);
  const prompt_config = {
    ...rest.prompt_config,
    tavily_api_key: rest.prompt_config.tavily_api_key ? '***' : '',
  };
  return { ...rest, prompt_config, avatar: icon };
}

/** An agent usable from chat (`list-public-agent`, API.md §8). */
export function presentPublicAgent(r: {
  id: string;
  title: string;
  avatar: string | null;
  description: string | null;
  permission: string;
  user_id: string;
  nickname: string;
  tenant_avatar: string | null;
  update_time: number;
}) {
  return {
    id: r.id,
    title: r.title,
    avatar: r.avatar,
    description: r.description,
    permission: r.permission,
    tenant_id: r.user_id,
    nickname: r.nickname,
    tenant_avatar: r.tenant_avatar,
    update_time: r.update_time,
  };
}
