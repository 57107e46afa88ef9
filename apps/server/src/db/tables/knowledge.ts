/**
 * Table types of the knowledge-base area (API.md §18 knowledgebase, document, file2document).
 * Listed in db/types.ts `Database`. Times are epoch ms; `*_at` columns too (presenters format them).
 */
import type { TimeColumns } from './time.js';

export interface KnowledgebaseTable extends TimeColumns {
  id: string;
  tenant_id: string;
  created_by: string;
  name: string;
  avatar: string | null;
  language: string;
  description: string | null;
  embd_id: string;
  permission: string;
  doc_num: number;
  token_num: number;
  chunk_num: number;
  similarity_threshold: number;
  vector_similarity_weight: number;
  parser_id: string;
  pipeline_id: string | null;
  /** JSON (write with toJson, read with parseJson). */
  parser_config: unknown;
  pagerank: number;
  graphrag_task_id: string | null;
  graphrag_task_finish_at: number | null;
  raptor_task_id: string | null;
  raptor_task_finish_at: number | null;
  mindmap_task_id: string | null;
  mindmap_task_finish_at: number | null;
  status: string;
}

export interface DocumentTable extends TimeColumns {
  id: string;
  kb_id: string;
  created_by: string;
  name: string;
  type: string;
  suffix: string;
  location: string;
  /** The blob holding the content (shared with the file it was created from); null = none. */
  blob_key: string | null;
  size: number;
  thumbnail: string | null;
  parser_id: string;
  pipeline_id: string | null;
  /** JSON (write with toJson, read with parseJson). */
  parser_config: unknown;
  source_type: string;
  token_num: number;
  chunk_num: number;
  progress: number;
  progress_msg: string;
  process_begin_at: number | null;
  process_duration: number;
  run: string;
  status: string;
  /** JSON flat map (write with toJson, read with parseJson). */
  meta_fields: unknown;
}

export interface File2DocumentTable extends TimeColumns {
  id: string;
  file_id: string;
  document_id: string;
}

/** One KB's knowledge graph (migration 0007): JSON columns written with toJson, read with parseJson. */
export interface KbGraphTable extends TimeColumns {
  kb_id: string;
  /** graphology export of the KB graph, contributions included; null when there is none. */
  graph: unknown;
  /** Community reports of the last run. */
  reports: unknown;
  /** `{TYPE: [[name, pagerank], …]}`, at most 256 names per type. */
  type_index: unknown;
  /** The KB's mind map `{id, children[]}`, or null. */
  mind_map: unknown;
  entity_num: number;
  relation_num: number;
  community_num: number;
}

/** A document whose extraction is part of the KB graph (and its own mind map, when built). */
export interface KbGraphDocTable extends TimeColumns {
  kb_id: string;
  doc_id: string;
  chunk_num: number;
  /** Hash of the extracted chunk ids. */
  digest: string;
  mind_map: unknown;
}
