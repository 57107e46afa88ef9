/**
 * Retrieved chunks → the run's reference bucket (§7.2) and the prompt text tools return (§10.1
 * `kb_prompt`): each chunk is keyed by `sha1(chunk_id) % 500`, the `ID:` the model cites.
 */
import type { DocAggregate, RetrievedChunk } from '../ports.js';
import { hashToInt } from '../util/hash.js';
import type { ReferenceBucket, ReferenceChunk } from './events.js';

export function toReferenceChunk(c: RetrievedChunk): ReferenceChunk {
  return {
    id: c.chunk_id,
    content: c.content_with_weight,
    document_id: c.doc_id,
    document_name: c.docnm_kwd,
    dataset_id: c.kb_id,
    image_id: c.image_id ?? '',
    positions: c.positions ?? [],
    url: c.url ?? null,
    similarity: c.similarity,
    vector_similarity: c.vector_similarity ?? 0,
    term_similarity: c.term_similarity ?? 0,
    doc_type: c.doc_type_kwd ?? '',
  };
}

export function chunkKey(chunkId: string): number {
  return hashToInt(chunkId, 500);
}

export async function addToBucket(
  bucket: ReferenceBucket,
  chunks: RetrievedChunk[],
  docAggs: DocAggregate[],
) {
  for (const c of chunks) bucket.chunks[String(chunkKey(c.chunk_id))] = toReferenceChunk(c);
  for (const d of docAggs) {
    const prev = bucket.doc_aggs[d.doc_name];
    bucket.doc_aggs[d.doc_name] = prev ? { ...prev, count: prev.count + d.count } : { ...d };
  }
}

/** Prompt budget of the formatted text: ~97 % of 200 000 tokens (§10.1). */
const BUDGET_TOKENS = 200_000 * 0.97;

/** Rough token count: CJK characters count one each, other text one per four characters. */
export function estimateTokens(text: string): number {
  const cjk = (text.match(/[\u3000-\u9fff\uac00-\ud7af\uf900-\ufaff]/g) ?? []).length;
  return cjk + Math.ceil((text.length - cjk) / 4);
}

/** `kb_prompt`: one block per chunk, each starting with a newline, joined by `\n`. */
export async function formatChunks(chunks: RetrievedChunk[]): Promise<string> {
  const blocks: string[] = [];
  let used = 0;
  for (const c of chunks) {
    const lines = [`\nID: ${chunkKey(c.chunk_id)}`, `├── Title: ${c.docnm_kwd}`];
    if (c.url) lines.push(`├── URL: ${c.url}`);
    for (const [k, v] of Object.entries(c.meta ?? {}))
      lines.push(`├── ${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`);
    lines.push('└── Content:', c.content_with_weight);
    const block = lines.join('\n');
    used += estimateTokens(block);
    if (used > BUDGET_TOKENS) break;
    blocks.push(block);
  }
  return blocks.join('\n');
}

/** Whether a text cites chunks (`[ID:n]`), which puts the reference on `message_end`. */
export function citesChunks(text: string): boolean {
  return /\[ID:\s*\d+\]/.test(text);
}
