/** Field renames of the public API (API.md §17): the /v1 rows as outsiders see them. */
import { DOCUMENT_RUN_WORDS } from '@lectern/shared';
import { parseJson } from '../../db/json.js';
import type { DocumentTable, KnowledgebaseTable } from '../../db/tables/knowledge.js';
import type { ChunkRecord } from '../../chunk-index/chunk-index.js';
import type { Api4ConversationTable } from '../../db/tables/chat.js';
import type { DialogRow } from '../dialog/service.js';
import { dialogConfigOf } from '../dialog/service.js';
import { rfc1123 } from '../../util/time.js';

export function presentDataset(kb: KnowledgebaseTable) {
  return {
    id: kb.id,
    name: kb.name,
    avatar: kb.avatar,
    description: kb.description,
    language: kb.language,
    permission: kb.permission,
    tenant_id: kb.tenant_id,
    created_by: kb.created_by,
    embedding_model: kb.embd_id,
    chunk_method: kb.parser_id,
    parser_config: parseJson<Record<string, unknown>>(kb.parser_config, {}),
    chunk_count: Number(kb.chunk_num),
    document_count: Number(kb.doc_num),
    token_count: Number(kb.token_num),
    pagerank: kb.pagerank,
    similarity_threshold: kb.similarity_threshold,
    vector_similarity_weight: kb.vector_similarity_weight,
    status: kb.status,
    create_time: kb.create_time,
    create_date: rfc1123(kb.create_time),
    update_time: kb.update_time,
    update_date: rfc1123(kb.update_time),
  };
}

export function runWord(run: string): (typeof DOCUMENT_RUN_WORDS)[number] {
  return DOCUMENT_RUN_WORDS[Number(run)] ?? 'UNSTART';
}

export function presentPublicDocument(d: DocumentTable) {
  return {
    id: d.id,
    name: d.name,
    dataset_id: d.kb_id,
    chunk_method: d.parser_id,
    parser_config: parseJson<Record<string, unknown>>(d.parser_config, {}),
    run: runWord(d.run),
    size: Number(d.size),
    type: d.type,
    suffix: d.suffix,
    location: d.location,
    thumbnail: d.thumbnail,
    source_type: d.source_type,
    created_by: d.created_by,
    chunk_count: Number(d.chunk_num),
    token_count: Number(d.token_num),
    progress: d.progress,
    progress_msg: d.progress_msg,
    process_begin_at: d.process_begin_at,
    process_duration: d.process_duration,
    status: d.status,
    meta_fields: parseJson<Record<string, unknown>>(d.meta_fields, {}),
    create_time: d.create_time,
    create_date: rfc1123(d.create_time),
    update_time: d.update_time,
    update_date: rfc1123(d.update_time),
  };
}

export function presentPublicChunk(c: ChunkRecord) {
  return {
    id: c.id,
    content: c.content_with_weight,
    document_id: c.doc_id,
    dataset_id: c.kb_id,
    document_keyword: c.docnm_kwd,
    important_keywords: c.important_kwd ?? [],
    questions: c.question_kwd ?? [],
    image_id: c.img_id ?? '',
    positions: c.positions ?? [],
    available: Number(c.available_int) === 1,
  };
}

/** A retrieval hit of `/v1` (`presentHit`) renamed. */
export function presentRetrievalChunk(h: {
  chunk_id: string;
  content_with_weight: string;
  doc_id: string;
  docnm_kwd: string;
  kb_id: string;
  important_kwd: string[];
  similarity: number;
  vector_similarity: number;
  term_similarity: number;
  positions: unknown;
  image_id: string;
  highlight?: string;
}) {
  return {
    id: h.chunk_id,
    content: h.content_with_weight,
    document_id: h.doc_id,
    document_keyword: h.docnm_kwd,
    dataset_id: h.kb_id,
    important_keywords: h.important_kwd ?? [],
    similarity: h.similarity,
    vector_similarity: h.vector_similarity,
    term_similarity: h.term_similarity,
    positions: h.positions,
    image_id: h.image_id ?? '',
    ...(h.highlight !== undefined ? { highlight: h.highlight } : {}),
  };
}

export function presentChat(row: DialogRow) {
  const d = dialogConfigOf(row);
  const setting = d.llm_setting as Record<string, unknown>;
  return {
    id: row.id,
    name: row.name ?? '',
    description: row.description ?? null,
    avatar: row.icon ?? null,
    dataset_ids: d.kb_ids,
    llm: { model_name: d.llm_id, ...setting },
    prompt: {
      similarity_threshold: d.similarity_threshold,
      keywords_similarity_weight: 1 - d.vector_similarity_weight,
      top_n: d.top_n,
      top_k: d.top_k,
      rerank_model: d.rerank_id ?? '',
      variables: d.prompt_config.parameters ?? [],
      empty_response: d.prompt_config.empty_response ?? '',
      opener: d.prompt_config.prologue ?? '',
      show_quote: d.prompt_config.quote !== false,
      prompt: d.prompt_config.system ?? '',
    },
    tenant_id: row.tenant_id,
    status: row.status,
    create_time: row.create_time,
    update_time: row.update_time,
  };
}

type AgentSessionRow = Omit<Api4ConversationTable, 'message' | 'reference' | 'dsl'> & {
  message: unknown;
  reference: unknown;
  dsl: unknown;
};

/**
 * An agent session for outsiders (RAGFlow's SDK shape): `agent_id`, `messages`, each assistant
 * message with the chunks of its answer's reference bucket (`reference`, one per answered turn).
 */
export function presentAgentSession(s: AgentSessionRow, withDsl = true) {
  const messages = parseJson<Array<Record<string, unknown>>>(s.message, []);
  const references = parseJson<Array<{ chunks?: Record<string, unknown> } | null>>(s.reference, []);
  let answer = 0;
  const withReferences = messages.map((m) => {
    if (m.role !== 'assistant') return m;
    const bucket = references[answer++];
    return { ...m, reference: Object.values(bucket?.chunks ?? {}) };
  });
  return {
    id: s.id,
    agent_id: s.dialog_id,
    name: s.name ?? '',
    user_id: s.user_id,
    messages: withReferences,
    source: 'agent' as const,
    ...(withDsl ? { dsl: parseJson<Record<string, unknown>>(s.dsl, {}) } : {}),
    create_time: s.create_time,
    update_time: s.update_time,
  };
}
