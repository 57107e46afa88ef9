import { RetCode, type AnswerEventData, type Reference, type ReferenceChunk } from '@lectern/shared';
import type { SseEnvelope } from '../../../api/sse';

/**
 * An answer as it streams in (API.md §9): deltas carry only new text, reasoning models send
 * `start_to_think` / `end_to_think` markers (turned into `<think>` / `</think>`), the final event
 * carries the reference (and the whole answer when it is the empty response), an error event ends it.
 */
export interface StreamedAnswer {
  /** Message id the server answers for. */
  id: string | null;
  /** Text so far, `<think>…</think>` included when the model reasons. */
  content: string;
  reference: Reference;
  final: boolean;
  error: string | null;
}

export const EMPTY_REFERENCE: Reference = { chunks: [], doc_aggs: [] };

export function startAnswer(id: string | null = null): StreamedAnswer {
  return { id, content: '', reference: EMPTY_REFERENCE, final: false, error: null };
}

const str = (...values: unknown[]): string => {
  for (const v of values) if (typeof v === 'string') return v;
  return '';
};
const num = (v: unknown): number => (typeof v === 'number' ? v : 0);

/**
 * A reference chunk in the web format (API.md §9). The legacy chat API (used by the shared page)
 * sends the raw form (`chunk_id`, `content_with_weight`, `doc_id`, `doc_name`…): both are accepted.
 */
export function toReferenceChunk(value: unknown): ReferenceChunk {
  const c = (value && typeof value === 'object' ? value : {}) as Record<string, unknown>;
  return {
    id: str(c.id, c.chunk_id),
    content: str(c.content, c.content_with_weight),
    document_id: str(c.document_id, c.doc_id),
    document_name: str(c.document_name, c.doc_name, c.docnm_kwd),
    dataset_id: str(c.dataset_id, c.kb_id),
    image_id: str(c.image_id, c.img_id),
    positions: Array.isArray(c.positions) ? (c.positions as number[][]) : [],
    url: typeof c.url === 'string' ? c.url : null,
    similarity: num(c.similarity),
    vector_similarity: num(c.vector_similarity),
    term_similarity: num(c.term_similarity),
    doc_type: str(c.doc_type, c.doc_type_kwd),
  };
}

/** A reference as the final event or a stored entry gives it; anything malformed counts as none. */
export function toReference(value: unknown): Reference {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return EMPTY_REFERENCE;
  const r = value as Partial<Reference>;
  return {
    ...(typeof r.total === 'number' ? { total: r.total } : {}),
    chunks: Array.isArray(r.chunks) ? r.chunks.map(toReferenceChunk) : [],
    doc_aggs: Array.isArray(r.doc_aggs) ? r.doc_aggs : [],
  };
}

/** The answer after one event (pure; the terminator is handled by the reader and never arrives here). */
export function applyAnswerEvent(state: StreamedAnswer, event: SseEnvelope): StreamedAnswer {
  if (event.code !== RetCode.SUCCESS) {
    const data = event.data as Partial<AnswerEventData> | null;
    const message = event.message || (typeof data?.answer === 'string' ? data.answer : '') || 'error';
    return { ...state, error: message, final: true };
  }
  const data = event.data as AnswerEventData | null;
  if (!data || typeof data !== 'object') return state;
  let content = state.content;
  if (data.start_to_think) content += '<think>';
  if (typeof data.answer === 'string') content += data.answer;
  if (data.end_to_think) content += '</think>';
  return {
    id: data.id ?? state.id,
    content,
    reference: data.final ? toReference(data.reference) : state.reference,
    final: state.final || data.final === true,
    error: state.error,
  };
}
