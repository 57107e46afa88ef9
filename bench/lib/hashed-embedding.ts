/**
 * A deterministic embedding STAND-IN, NOT SEMANTIC: a random projection of the text's bag of words
 * (Lectern's tokens, weight 1 + log tf) to `dim` dimensions, each token hashed to 8 signed coordinates.
 * Two texts are close only when they share words. It exercises the vector path of hybrid retrieval
 * (storage, cosine, top-K, hybrid formula) without a model.
 */
import { tokenize } from '../../apps/server/src/chunk-index/tokenizer.js';

function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function hashedEmbedding(text: string, dim = 384): number[] {
  const tf = new Map<string, number>();
  for (const t of tokenize(text)) tf.set(t, (tf.get(t) ?? 0) + 1);
  const v = new Array<number>(dim).fill(0);
  for (const [t, n] of tf) {
    const w = 1 + Math.log(n);
    const rnd = mulberry32(fnv1a(t));
    for (let k = 0; k < 8; k++) {
      const i = Math.floor(rnd() * dim);
      v[i] += rnd() < 0.5 ? -w : w;
    }
  }
  let norm = 0;
  for (const x of v) norm += x * x;
  norm = Math.sqrt(norm) || 1;
  return v.map((x) => x / norm);
}
