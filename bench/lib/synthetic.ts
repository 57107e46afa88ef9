/**
 * Deterministic synthetic corpus for speed benchmarks: pseudo-words drawn from a Zipf–Mandelbrot
 * distribution (p(r) ∝ 1/(r+20)^1.1 over 50,000 words: a flattened head, as content words are once stop
 * words are gone), chunks of ~150 words, random unit vectors, and questions of 5 words taken from one
 * chunk with a query vector near that chunk's vector.
 */
import type { ChunkRecord } from '../../apps/server/src/chunk-index/chunk-index.js';

export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const CONSONANTS = 'bdfgklmnprstvzchjwxy';
const VOWELS = 'aeiou';

export class SyntheticCorpus {
  readonly words: string[] = [];
  private readonly cdf: Float64Array;
  private readonly rnd: () => number;

  constructor(
    readonly vocabulary = 50_000,
    readonly wordsPerChunk = 150,
    readonly dim = 384,
    seed = 42,
  ) {
    this.rnd = prng(seed);
    const seen = new Set<string>();
    while (this.words.length < vocabulary) {
      const syllables = 2 + Math.floor(this.rnd() * 3);
      let w = '';
      for (let s = 0; s < syllables; s++) {
        w +=
          CONSONANTS[Math.floor(this.rnd() * CONSONANTS.length)] +
          VOWELS[Math.floor(this.rnd() * VOWELS.length)];
      }
      if (!seen.has(w)) {
        seen.add(w);
        this.words.push(w);
      }
    }
    this.cdf = new Float64Array(vocabulary);
    let acc = 0;
    for (let r = 0; r < vocabulary; r++) {
      acc += 1 / Math.pow(r + 1 + 20, 1.1);
      this.cdf[r] = acc;
    }
    for (let r = 0; r < vocabulary; r++) this.cdf[r] /= acc;
  }

  word(): string {
    const x = this.rnd();
    let lo = 0;
    let hi = this.cdf.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.cdf[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return this.words[lo];
  }

  text(): string {
    const out: string[] = [];
    for (let i = 0; i < this.wordsPerChunk; i++) out.push(this.word());
    // Sentences of ~15 words.
    for (let i = 15; i < out.length; i += 15) out[i - 1] += '.';
    return out.join(' ');
  }

  vector(): number[] {
    const v = new Array<number>(this.dim);
    let n = 0;
    for (let i = 0; i < this.dim; i++) {
      v[i] = this.rnd() * 2 - 1;
      n += v[i] * v[i];
    }
    n = Math.sqrt(n);
    return v.map((x) => x / n);
  }

  /** Chunk number `i` of a KB (documents of 50 chunks). */
  chunk(i: number, kbId: string, withVector: boolean): ChunkRecord {
    const doc = Math.floor(i / 50);
    return {
      id: `${kbId.slice(0, 4)}${i.toString(16).padStart(12, '0')}`,
      doc_id: `doc${doc}`,
      kb_id: kbId,
      tenant_id: 'bench',
      docnm_kwd: `document ${this.word()} ${this.word()} ${doc}.pdf`,
      content_with_weight: this.text(),
      important_kwd: [],
      question_kwd: [],
      tag_kwd: [],
      tag_feas: {},
      img_id: '',
      positions: [[1 + (i % 50), 50, 500, 100, 200]],
      available_int: 1,
      create_time: 1_700_000_000_000 + i,
      doc_type_kwd: null,
      mom_id: null,
      pagerank_fea: 0,
      token_num: this.wordsPerChunk,
      vector: withVector ? this.vector() : null,
    };
  }

  /** A question of `n` words of the given text (none of the `skipCommon` most frequent words), vector near `near`. */
  question(
    text: string,
    near: number[] | null,
    n = 5,
    skipCommon = 0,
  ): { question: string; vector: number[] | null } {
    const common = new Set(this.words.slice(0, skipCommon));
    let words = text.replace(/\./g, '').split(' ');
    if (skipCommon > 0 && words.some((w) => !common.has(w))) words = words.filter((w) => !common.has(w));
    const picked: string[] = [];
    for (let k = 0; k < n; k++) picked.push(words[Math.floor(this.rnd() * words.length)]);
    let vector: number[] | null = null;
    if (near) {
      const noise = this.vector();
      vector = near.map((x, i) => x + 0.5 * noise[i]);
    }
    return { question: picked.join(' '), vector };
  }
}
