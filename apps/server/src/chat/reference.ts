/**
 * How references leave the server. Stored entries keep the raw chunk form (docnm_kwd, kb_id…);
 * the web API shows the reference-chunk format of API.md §9, the legacy chat API (§10) the raw form
 * with `docnm_kwd` renamed `doc_name`.
 */
import type { RefChunk, StoredReference } from './types.js';

export type ReferenceFormat = 'web' | 'legacy';

type RawChunk = Partial<RefChunk> & Record<string, unknown>;

export function toReferenceChunk(c: RawChunk) {
  return {
    id: c.chunk_id ?? (c.id as string | undefined) ?? '',
    content: c.content_with_weight ?? (c.content as string | undefined) ?? '',
    document_id: c.doc_id ?? (c.document_id as string | undefined) ?? '',
    document_name:
      c.docnm_kwd ?? (c.document_name as string | undefined) ?? (c.doc_name as string | undefined) ?? '',
    dataset_id: c.kb_id ?? (c.dataset_id as string | undefined) ?? '',
    image_id: c.image_id ?? (c.img_id as string | undefined) ?? '',
    positions: c.positions ?? [],
    url: c.url ?? null,
    similarity: c.similarity ?? 0,
    vector_similarity: c.vector_similarity ?? 0,
    term_similarity: c.term_similarity ?? 0,
    doc_type: c.doc_type_kwd ?? (c.doc_type as string | undefined) ?? '',
  };
}

export function toLegacyChunk(c: RawChunk) {
  const { docnm_kwd, tokens: _t, vector: _v, ...rest } = c;
  return { ...rest, doc_name: docnm_kwd ?? (c.doc_name as string | undefined) ?? '' };
}

/** A reference entry for the client; an empty or malformed entry stays as it is. */
export function presentReference(ref: unknown, format: ReferenceFormat) {
  if (!ref || typeof ref !== 'object' || Array.isArray(ref)) return ref;
  const r = ref as Partial<StoredReference> & Record<string, unknown>;
  const chunks = Array.isArray(r.chunks) ? (r.chunks as RawChunk[]) : [];
  return {
    ...r,
    chunks: format === 'web' ? chunks.map(toReferenceChunk) : chunks.map(toLegacyChunk),
    doc_aggs: Array.isArray(r.doc_aggs) ? r.doc_aggs : [],
  };
}
