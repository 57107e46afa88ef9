import { parseJson } from '../../db/json.js';
import { rfc1123 } from '../../util/time.js';
import type { DocumentTable } from '../../db/tables/knowledge.js';

/** Stored thumbnails are served by the public image route; inline data URLs stay as they are. */
export function thumbnailUrl(doc: Pick<DocumentTable, 'kb_id' | 'thumbnail'>): string | null {
  if (!doc.thumbnail) return doc.thumbnail;
  if (doc.thumbnail.startsWith('data:')) return doc.thumbnail;
  return `/v1/document/image/${doc.kb_id}-${doc.thumbnail}`;
}

/** The document object of API.md §6. */
export function presentDocument(row: DocumentTable) {
  return {
    id: row.id,
    kb_id: row.kb_id,
    name: row.name,
    type: row.type,
    suffix: row.suffix,
    size: row.size,
    location: row.location,
    thumbnail: thumbnailUrl(row),
    parser_id: row.parser_id,
    pipeline_id: row.pipeline_id,
    parser_config: parseJson<Record<string, unknown>>(row.parser_config, {}),
    source_type: row.source_type,
    created_by: row.created_by,
    token_num: row.token_num,
    chunk_num: row.chunk_num,
    progress: row.progress,
    progress_msg: row.progress_msg,
    process_begin_at: rfc1123(row.process_begin_at),
    process_duration: row.process_duration,
    run: row.run,
    status: row.status,
    meta_fields: parseJson<Record<string, unknown>>(row.meta_fields, {}),
    create_time: row.create_time,
    create_date: rfc1123(row.create_time),
    update_time: row.update_time,
    update_date: rfc1123(row.update_time),
  };
}

/** A `document/list` entry: the document plus pipeline name and the creator's nickname. */
export function presentListedDocument(row: DocumentTable & { nickname: string | null }) {
  return { ...presentDocument(row), pipeline_name: null, nickname: row.nickname };
}
