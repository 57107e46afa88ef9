/**
 * How chunks leave the server (API.md §7): the list row, the stored chunk of `get`, and the result
 * chunk of retrieval_test. Vectors and token fields never leave.
 */
import { CHILD_IDS_FIELD } from '../../chunk-index/fields.js';
import type { ChunkRecord } from '../../chunk-index/chunk-index.js';
import type { RetrievalHit } from '../../search/retrieval.js';
import { sqlDateTime } from '../../util/time.js';

/** A `chunk/list` row; `content` replaces the stored text when it carries `<em>` highlights. */
export function presentListedChunk(c: ChunkRecord, content?: string) {
  return {
    chunk_id: c.id,
    content_with_weight: content ?? c.content_with_weight,
    doc_id: c.doc_id,
    docnm_kwd: c.docnm_kwd,
    important_kwd: c.important_kwd ?? [],
    question_kwd: c.question_kwd ?? [],
    image_id: c.img_id ?? '',
    available_int: Number(c.available_int),
    positions: c.positions ?? [],
    doc_type_kwd: c.doc_type_kwd ?? null,
    tag_kwd: c.tag_kwd ?? [],
    tag_feas: c.tag_feas ?? {},
  };
}

/** The stored chunk of `chunk/get`: every field except vectors and token fields; absent keys omitted. */
export function presentStoredChunk(c: ChunkRecord) {
  const positions = c.positions ?? [];
  const out: Record<string, unknown> = {
    id: c.id,
    doc_id: c.doc_id,
    kb_id: c.kb_id,
    docnm_kwd: c.docnm_kwd,
    content_with_weight: c.content_with_weight,
    important_kwd: c.important_kwd ?? [],
    question_kwd: c.question_kwd ?? [],
    tag_kwd: c.tag_kwd ?? [],
    tag_feas: c.tag_feas ?? {},
    img_id: c.img_id ?? '',
    position_int: positions,
    page_num_int: positions.map((p) => p[0]),
    top_int: positions.map((p) => p[3]),
    available_int: Number(c.available_int),
    create_time: sqlDateTime(c.create_time),
    create_timestamp_flt: c.create_time / 1000,
    doc_type_kwd: c.doc_type_kwd,
    mom_id: c.mom_id,
    pagerank_fea: c.pagerank_fea,
  };
  for (const [k, v] of Object.entries(c.extra ?? {})) {
    if (!(k in out) && k !== CHILD_IDS_FIELD && !/(_vec|_tks|_ltks)$|_sm_/.test(k)) out[k] = v;
  }
  for (const k of Object.keys(out)) if (out[k] === undefined || out[k] === null) delete out[k];
  return out;
}

/** A retrieval_test hit: the result chunk of API.md §7 (plus the `highlight` and `text_similarity` extras). */
export function presentHit(h: RetrievalHit) {
  return {
    chunk_id: h.chunk_id,
    content_ltks: h.content_ltks,
    content_with_weight: h.content_with_weight,
    doc_id: h.doc_id,
    docnm_kwd: h.docnm_kwd,
    kb_id: h.kb_id,
    important_kwd: h.important_kwd,
    question_kwd: h.question_kwd,
    image_id: h.image_id,
    similarity: h.similarity,
    vector_similarity: h.vector_similarity,
    term_similarity: h.term_similarity,
    text_similarity: h.text_similarity,
    positions: h.positions,
    doc_type_kwd: h.doc_type_kwd,
    mom_id: h.mom_id,
    ...(h.highlight !== undefined ? { highlight: h.highlight } : {}),
  };
}
