/**
 * One RAPTOR layer's clustering (API.md §19.11): UMAP-reduce the vectors, choose the number of clusters
 * 1…min(max_cluster, n−1) by the lowest GMM BIC, and put each chunk in the first cluster whose membership
 * probability exceeds `threshold` (the most probable one when none does). Pure and synchronous, with
 * structured-cloneable input and output, so a server can run it on a worker thread.
 *
 * The upper bound of k is also at most n/(d+1) for d reduced dimensions: BIC rewards components that sit
 * on one or two points (their variance collapses to the 1e-6 regularisation and the likelihood explodes),
 * and on a layer of 60 nodes it picks 59 clusters — the tree would hardly shrink. Requiring d+1 points
 * per component on average keeps the choice meaningful; at 10,000 chunks it is far above max_cluster.
 */
import { predictProba, selectByBic, toMatrix } from './gmm.js';
import { reduceDimensions } from './reduce.js';

export interface ClusterOptions {
  maxCluster: number;
  threshold: number;
  seed: number;
  /** Passed to UMAP (tests and benchmarks). */
  nEpochs?: number;
}

export interface LayerClustering {
  /** Cluster index per input vector, 0…k−1; clusters that received no member are dropped and renumbered. */
  labels: number[];
  /** Number of non-empty clusters. */
  clusters: number;
  /** Mixture size chosen by BIC (before dropping empty clusters). */
  chosenK: number;
  /** Milliseconds spent in UMAP and in the GMM sweep. */
  timings: { umapMs: number; gmmMs: number };
}

export function clusterLayer(vectors: readonly ArrayLike<number>[], opts: ClusterOptions): LayerClustering {
  const n = vectors.length;
  if (n <= 2)
    return { labels: Array(n).fill(0), clusters: n ? 1 : 0, chosenK: 1, timings: { umapMs: 0, gmmMs: 0 } };
  const t0 = performance.now();
  const reduced = reduceDimensions(vectors, { seed: opts.seed, nEpochs: opts.nEpochs });
  const t1 = performance.now();
  const { data, d } = toMatrix(reduced);
  const maxK = Math.max(1, Math.min(opts.maxCluster, n - 1, Math.floor(n / (d + 1))));
  const { best } = selectByBic(data, n, d, maxK, { seed: opts.seed });
  const raw = new Array<number>(n).fill(0);
  if (best.k > 1) {
    const proba = predictProba(best, data, n);
    for (let i = 0; i < n; i++) {
      let label = -1;
      let argmax = 0;
      for (let m = 0; m < best.k; m++) {
        const p = proba[i * best.k + m];
        if (label < 0 && p > opts.threshold) label = m;
        if (p > proba[i * best.k + argmax]) argmax = m;
      }
      raw[i] = label < 0 ? argmax : label;
    }
  }
  // Renumber so labels are dense and ordered by first appearance.
  const renumber = new Map<number, number>();
  const labels = raw.map((l) => {
    let v = renumber.get(l);
    if (v === undefined) {
      v = renumber.size;
      renumber.set(l, v);
    }
    return v;
  });
  return {
    labels,
    clusters: renumber.size,
    chosenK: best.k,
    timings: { umapMs: t1 - t0, gmmMs: performance.now() - t1 },
  };
}
