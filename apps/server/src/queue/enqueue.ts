/**
 * Building and inserting task rows of any kind. The payload is checked against its kind's schema
 * (packages/shared contract/tasks.ts) before it is stored, so a handler never meets a malformed row.
 */
import { taskPayloadSchemas, type TaskKind, type TaskPayload } from '@lectern/shared';
import type { TaskTable } from '../db/types.js';
import { toJson } from '../db/json.js';
import { newId } from '../util/ids.js';
import { creationStamps } from '../util/time.js';
import { WHOLE_DOCUMENT_END } from './log.js';

export interface TaskRowFields {
  doc_id: string;
  kb_id: string;
  tenant_id: string;
  from_page?: number;
  to_page?: number;
  priority?: number;
  digest?: string;
  /** Creation time; rows created in one go are spaced 1 ms apart by the caller to keep their order. */
  now?: number;
}

/** A fresh, unclaimed row of `kind` with a validated payload. */
export function newTaskRow<K extends TaskKind>(
  kind: K,
  payload: TaskPayload<K>,
  fields: TaskRowFields,
): TaskTable {
  const checked = taskPayloadSchemas[kind].parse(payload);
  return {
    id: newId(),
    doc_id: fields.doc_id,
    kb_id: fields.kb_id,
    tenant_id: fields.tenant_id,
    from_page: fields.from_page ?? 0,
    to_page: fields.to_page ?? WHOLE_DOCUMENT_END,
    kind,
    payload: toJson(checked),
    priority: fields.priority ?? 0,
    begin_at: null,
    process_duration: 0,
    progress: 0,
    progress_msg: '',
    retry_count: 0,
    digest: fields.digest ?? '',
    chunk_ids: '',
    cancel: 0,
    lease_owner: null,
    lease_until: null,
    token_num: 0,
    ...creationStamps(fields.now ?? Date.now()),
  };
}
