import { parseJson } from '../../db/json.js';
import { rfc1123, sqlDateTime } from '../../util/time.js';
import type { KnowledgebaseTable } from '../../db/tables/knowledge.js';

/** Every column of a KB row as the contract shows rows (dates RFC 1123, JSON parsed). */
export function presentKbRow(row: KnowledgebaseTable) {
  return {
    ...row,
    parser_config: parseJson<Record<string, unknown>>(row.parser_config, {}),
    create_date: rfc1123(row.create_time),
    update_date: rfc1123(row.update_time),
    graphrag_task_finish_at: sqlDateTime(row.graphrag_task_finish_at),
    raptor_task_finish_at: sqlDateTime(row.raptor_task_finish_at),
    mindmap_task_finish_at: sqlDateTime(row.mindmap_task_finish_at),
  };
}

/** The detail object of API.md §5 (`kb/detail`). */
export function presentKbDetail(row: KnowledgebaseTable, size: number) {
  return {
    id: row.id,
    embd_id: row.embd_id,
    avatar: row.avatar,
    name: row.name,
    language: row.language,
    description: row.description,
    permission: row.permission,
    doc_num: row.doc_num,
    token_num: row.token_num,
    chunk_num: row.chunk_num,
    parser_id: row.parser_id,
    pipeline_id: row.pipeline_id,
    pipeline_name: null,
    pipeline_avatar: null,
    parser_config: parseJson<Record<string, unknown>>(row.parser_config, {}),
    pagerank: row.pagerank,
    graphrag_task_id: row.graphrag_task_id,
    graphrag_task_finish_at: sqlDateTime(row.graphrag_task_finish_at),
    raptor_task_id: row.raptor_task_id,
    raptor_task_finish_at: sqlDateTime(row.raptor_task_finish_at),
    mindmap_task_id: row.mindmap_task_id,
    mindmap_task_finish_at: sqlDateTime(row.mindmap_task_finish_at),
    create_time: row.create_time,
    update_time: row.update_time,
    size,
    connectors: [],
  };
}

export interface KbListRow extends KnowledgebaseTable {
  nickname: string | null;
  tenant_avatar: string | null;
}

/** One entry of `kb/list`. */
export function presentKbListItem(row: KbListRow) {
  return {
    id: row.id,
    avatar: row.avatar,
    name: row.name,
    language: row.language,
    description: row.description,
    tenant_id: row.tenant_id,
    permission: row.permission,
    doc_num: row.doc_num,
    token_num: row.token_num,
    chunk_num: row.chunk_num,
    parser_id: row.parser_id,
    embd_id: row.embd_id,
    nickname: row.nickname,
    tenant_avatar: row.tenant_avatar,
    update_time: row.update_time,
  };
}
