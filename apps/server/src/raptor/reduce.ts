/**
 * UMAP reduction of chunk vectors before clustering (API.md §19.11): cosine metric, `n_neighbors =
 * max(2, (n−1)^0.8)`, at most 12 dimensions (and at most n−2). umap-js does the work; every random draw it
 * makes (random-projection trees, NN-descent, initial layout, negative sampling) comes from the seeded
 * generator, so the same vectors and seed give the same embedding.
 *
 * One bound the formula needs in JavaScript: the work of UMAP grows with n × n_neighbors × epochs, and
 * at 10,000 chunks the formula asks for 1,585 neighbours — a 16-million-entry fuzzy graph, beyond the
 * largest Map V8 can hold (umap-js keeps sparse matrices in Maps) and tens of minutes of optimisation.
 * So `n_neighbors` is the formula's value capped to a work budget (`WORK_BUDGET` = what 10,000 chunks ×
 * 15 neighbours × 200 epochs costs), never below UMAP's default of 15. Up to about 300 chunks the formula
 * applies as written; a large knowledge base gets UMAP's default neighbourhood.
 */
import { UMAP } from 'umap-js';
import { seededRandom } from './random.js';

export const MAX_COMPONENTS = 12;
export const WORK_BUDGET = 10_000 * 15 * 200;

/** umap-js's own epoch schedule (500 epochs up to 2,500 points … 200 above 7,500). */
export function umapEpochs(n: number): number {
  return n <= 2500 ? 500 : n <= 5000 ? 400 : n <= 7500 ? 300 : 200;
}

export function umapNeighbors(n: number): number {
  const formula = Math.max(2, Math.floor(Math.pow(n - 1, 0.8)));
  const affordable = Math.max(15, Math.floor(WORK_BUDGET / (n * umapEpochs(n))));
  return Math.min(formula, affordable, n - 1);
}

export function umapComponents(n: number): number {
  return Math.max(1, Math.min(MAX_COMPONENTS, n - 2));
}

/** Unit-length copies (zero vectors stay zero), so cosine distance is 1 − dot. */
export function normalizeRows(vectors: readonly ArrayLike<number>[]): number[][] {
  return vectors.map((v) => {
    let s = 0;
    for (let i = 0; i < v.length; i++) s += v[i] * v[i];
    const inv = s > 0 ? 1 / Math.sqrt(s) : 0;
    return Array.from(v, (x) => x * inv);
  });
}

function cosineDistanceOfUnit(a: number[], b: number[]): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i] * b[i];
  return dot >= 1 ? 0 : 1 - dot;
}

export interface ReduceOptions {
  seed: number;
  /** Overrides for tests and benchmarks; defaults follow the spec formula (see above). */
  nNeighbors?: number;
  nComponents?: number;
  nEpochs?: number;
}

/**
 * Reduces `vectors` (n ≥ 3) to `umapComponents(n)` dimensions. Synchronous and CPU-bound (seconds at
 * 10,000 chunks): run it off the main thread in a server.
 */
export function reduceDimensions(vectors: readonly ArrayLike<number>[], opts: ReduceOptions): number[][] {
  const n = vectors.length;
  if (n < 3) throw new Error('UMAP needs at least 3 vectors');
  const umap = new UMAP({
    nNeighbors: Math.min(opts.nNeighbors ?? umapNeighbors(n), n - 1),
    nComponents: opts.nComponents ?? umapComponents(n),
    nEpochs: opts.nEpochs ?? umapEpochs(n),
    distanceFn: cosineDistanceOfUnit,
    random: seededRandom(opts.seed),
  });
  const epochs = umap.initializeFit(normalizeRows(vectors));
  for (let e = 0; e < epochs; e++) umap.step();
  return umap.getEmbedding();
}
