/**
 * Row factories for the policy's database tests (not a test file itself): tenants, memberships,
 * knowledge bases, documents, assistants, conversations and files written straight into the real
 * database of a test server, so the loaders and list filters run against real SQL.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/types.js';
import type { DocumentTable, KnowledgebaseTable } from '../db/tables/knowledge.js';
import { newId } from '../util/ids.js';
import { creationStamps } from '../util/time.js';

type Db = Kysely<Database>;

export async function addTenant(db: Db, id: string): Promise<void> {
  await db
    .insertInto('tenant')
    .values({
      id,
      name: `${id}'s team`,
      llm_id: '',
      embd_id: '',
      asr_id: '',
      img2txt_id: '',
      rerank_id: '',
      tts_id: null,
      parser_ids: '',
      credit: 0,
      status: '1',
      ...creationStamps(),
    })
    .execute();
}

export async function addMembership(
  db: Db,
  userId: string,
  tenantId: string,
  role: string,
  status = '1',
): Promise<void> {
  await db
    .insertInto('user_tenant')
    .values({
      id: newId(),
      user_id: userId,
      tenant_id: tenantId,
      role,
      invited_by: tenantId,
      status,
      ...creationStamps(),
    })
    .execute();
}

export async function addKb(db: Db, tenantId: string, over: Partial<KnowledgebaseTable> = {}) {
  const row: KnowledgebaseTable = {
    id: newId(),
    tenant_id: tenantId,
    created_by: tenantId,
    name: `kb-${newId().slice(0, 6)}`,
    avatar: null,
    language: 'English',
    description: null,
    embd_id: '',
    permission: 'me',
    doc_num: 0,
    token_num: 0,
    chunk_num: 0,
    similarity_threshold: 0.2,
    vector_similarity_weight: 0.3,
    parser_id: 'naive',
    pipeline_id: null,
    parser_config: '{}',
    pagerank: 0,
    graphrag_task_id: null,
    graphrag_task_finish_at: null,
    raptor_task_id: null,
    raptor_task_finish_at: null,
    mindmap_task_id: null,
    mindmap_task_finish_at: null,
    status: '1',
    ...creationStamps(),
    ...over,
  };
  await db.insertInto('knowledgebase').values(row).execute();
  return row;
}

export async function addDoc(db: Db, kbId: string, createdBy: string): Promise<DocumentTable> {
  const row: DocumentTable = {
    id: newId(),
    kb_id: kbId,
    created_by: createdBy,
    name: `doc-${newId().slice(0, 6)}.txt`,
    type: 'doc',
    suffix: 'txt',
    location: '',
    blob_key: null,
    size: 0,
    thumbnail: null,
    parser_id: 'naive',
    pipeline_id: null,
    parser_config: '{}',
    source_type: 'local',
    token_num: 0,
    chunk_num: 0,
    progress: 0,
    progress_msg: '',
    process_begin_at: null,
    process_duration: 0,
    run: '0',
    status: '1',
    meta_fields: '{}',
    ...creationStamps(),
  };
  await db.insertInto('document').values(row).execute();
  return row;
}

export async function addDialog(db: Db, tenantId: string, status = '1'): Promise<string> {
  const id = newId();
  await db
    .insertInto('dialog')
    .values({
      id,
      tenant_id: tenantId,
      name: `dialog-${id.slice(0, 6)}`,
      description: '',
      icon: '',
      language: 'English',
      llm_id: '',
      llm_setting: '{}',
      prompt_type: 'simple',
      prompt_config: '{}',
      meta_data_filter: '{}',
      similarity_threshold: 0.1,
      vector_similarity_weight: 0.3,
      top_n: 6,
      top_k: 1024,
      do_refer: '1',
      rerank_id: '',
      kb_ids: '[]',
      status,
      ...creationStamps(),
    })
    .execute();
  return id;
}

export async function addConversation(db: Db, dialogId: string, userId: string): Promise<string> {
  const id = newId();
  await db
    .insertInto('conversation')
    .values({
      id,
      dialog_id: dialogId,
      name: 'c',
      message: '[]',
      reference: '[]',
      user_id: userId,
      ...creationStamps(),
    })
    .execute();
  return id;
}

/** A file of `tenantId`, linked to `docIds` through file2document rows. */
export async function addFile(db: Db, tenantId: string, docIds: string[] = []): Promise<string> {
  const id = newId();
  await db
    .insertInto('file')
    .values({
      id,
      parent_id: id,
      tenant_id: tenantId,
      created_by: tenantId,
      name: `file-${id.slice(0, 6)}.txt`,
      location: '',
      size: 0,
      type: 'doc',
      source_type: '',
      ...creationStamps(),
    })
    .execute();
  for (const docId of docIds) {
    await db
      .insertInto('file2document')
      .values({ id: newId(), file_id: id, document_id: docId, ...creationStamps() })
      .execute();
  }
  return id;
}
