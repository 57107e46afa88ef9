/**
 * Per-candidate scores of the hybrid formula (API.md §19.4), engine-neutral.
 */
import type { ChunkRecord } from '../chunk-index/chunk-index.js';

/** rank_fea = 10·cos(query tag vector, chunk tag_feas) + pagerank_fea. */
export function rankFeature(
  chunk: Pick<ChunkRecord, 'tag_feas' | 'pagerank_fea'>,
  tagWeights?: Record<string, number> | null,
): number {
  const pagerank = Number.isFinite(chunk.pagerank_fea) ? chunk.pagerank_fea : 0;
  if (!tagWeights) return pagerank;
  let qn = 0;
  for (const w of Object.values(tagWeights)) qn += w * w;
  if (qn === 0) return pagerank;
  let dot = 0;
  let cn = 0;
  for (const [t, v] of Object.entries(chunk.tag_feas ?? {})) {
    cn += v * v;
    const q = tagWeights[t];
    if (q !== undefined) dot += q * v;
  }
  if (cn === 0) return pagerank;
  return (10 * dot) / (Math.sqrt(cn) * Math.sqrt(qn)) + pagerank;
}

/** Cosine of two vectors (0 when either is empty or zero, or their lengths differ). */
export function cosine(
  a: ArrayLike<number> | null | undefined,
  b: ArrayLike<number> | null | undefined,
): number {
  if (!a || !b || a.length !== b.length || a.length === 0) return 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0;
}
