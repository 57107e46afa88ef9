/**
 * Gaussian mixture model with diagonal covariances, fitted by EM, and model selection by BIC — what
 * RAPTOR uses to cluster reduced chunk vectors (API.md §19.11). Written here because no maintained npm
 * package offers a seeded GMM with BIC; it follows scikit-learn's GaussianMixture so results read the
 * same way: k-means initialisation (k-means++ seeding, Lloyd iterations), EM until the mean
 * log-likelihood gains less than `tol` (1e-3) or `maxIter` (100) iterations, `regCovar` (1e-6) added to
 * every variance, BIC = −2·logL + p·ln n with p = 2·k·d + k − 1.
 *
 * Diagonal rather than full covariance: the inputs are at most 12 UMAP dimensions whose axes carry no
 * correlation worth modelling for clustering, and a diagonal E-step costs O(n·k·d) instead of O(n·k·d²),
 * which is what keeps the BIC sweep over k = 1…64 on 10,000 chunks within seconds.
 */
import { seededRandom } from './random.js';

export interface GmmOptions {
  seed?: number;
  maxIter?: number;
  tol?: number;
  regCovar?: number;
  /** Lloyd iterations of the k-means initialisation (default 20: EM refines the rest). */
  kmeansIter?: number;
}

export interface GaussianMixture {
  k: number;
  d: number;
  weights: Float64Array;
  /** k×d, row-major. */
  means: Float64Array;
  /** k×d diagonal variances, row-major. */
  variances: Float64Array;
  /** Mean log-likelihood per sample at the end of fitting. */
  meanLogLikelihood: number;
  iterations: number;
  converged: boolean;
}

const LOG_2PI = Math.log(2 * Math.PI);
/** Responsibilities below this change no parameter measurably; the M-step skips them. */
const NEGLIGIBLE = 1e-10;

/** Row-major n×d copy of the data. */
export function toMatrix(points: readonly ArrayLike<number>[]): { data: Float64Array; n: number; d: number } {
  const n = points.length;
  const d = n ? points[0].length : 0;
  const data = new Float64Array(n * d);
  for (let i = 0; i < n; i++) for (let j = 0; j < d; j++) data[i * d + j] = points[i][j];
  return { data, n, d };
}

/** Squared distance from point i of `x` to row m of `c`. */
function sqDist(x: Float64Array, i: number, c: Float64Array, m: number, d: number): number {
  let s = 0;
  for (let j = 0; j < d; j++) {
    const t = x[i * d + j] - c[m * d + j];
    s += t * t;
  }
  return s;
}

/**
 * Greedy k-means++ seeding (as scikit-learn: 2 + ln k candidate draws per center, keeping the one that
 * lowers the total squared distance most), then Lloyd iterations; returns a label per point.
 */
function kmeansLabels(
  x: Float64Array,
  n: number,
  d: number,
  k: number,
  random: () => number,
  iters: number,
): Int32Array {
  const centers = new Float64Array(k * d);
  const dist = new Float64Array(n);
  const trials = 2 + Math.floor(Math.log(k));
  const first = Math.floor(random() * n);
  centers.set(x.subarray(first * d, first * d + d), 0);
  let total = 0;
  for (let i = 0; i < n; i++) total += dist[i] = sqDist(x, i, centers, 0, d);
  const candidate = new Float64Array(d);
  const trialDist = new Float64Array(n);
  const bestDist = new Float64Array(n);
  for (let m = 1; m < k; m++) {
    let bestTotal = Infinity;
    let bestIndex = 0;
    for (let t = 0; t < trials; t++) {
      // A candidate drawn with probability ∝ squared distance to the nearest chosen center.
      let r = random() * total;
      let c = n - 1;
      for (let i = 0; i < n; i++) {
        r -= dist[i];
        if (r <= 0) {
          c = i;
          break;
        }
      }
      candidate.set(x.subarray(c * d, c * d + d));
      let sum = 0;
      for (let i = 0; i < n; i++) {
        const v = Math.min(dist[i], sqDist(x, i, candidate, 0, d));
        trialDist[i] = v;
        sum += v;
      }
      if (sum < bestTotal) {
        bestTotal = sum;
        bestIndex = c;
        bestDist.set(trialDist);
      }
    }
    centers.set(x.subarray(bestIndex * d, bestIndex * d + d), m * d);
    dist.set(bestDist);
    total = bestTotal;
  }
  const labels = new Int32Array(n);
  const counts = new Float64Array(k);
  for (let it = 0; it < iters; it++) {
    let changed = 0;
    for (let i = 0; i < n; i++) {
      let best = 0;
      let bestD = Infinity;
      for (let m = 0; m < k; m++) {
        const s = sqDist(x, i, centers, m, d);
        if (s < bestD) {
          bestD = s;
          best = m;
        }
      }
      if (labels[i] !== best || it === 0) changed++;
      labels[i] = best;
    }
    if (changed === 0) break;
    centers.fill(0);
    counts.fill(0);
    for (let i = 0; i < n; i++) {
      const m = labels[i];
      counts[m]++;
      for (let j = 0; j < d; j++) centers[m * d + j] += x[i * d + j];
    }
    for (let m = 0; m < k; m++) {
      // An empty cluster keeps a point far from its center as its new center.
      if (counts[m] === 0) {
        const i = Math.floor(random() * n);
        centers.set(x.subarray(i * d, i * d + d), m * d);
      } else for (let j = 0; j < d; j++) centers[m * d + j] /= counts[m];
    }
  }
  return labels;
}

/** M-step from responsibilities `resp` (n×k). */
function mStep(
  x: Float64Array,
  n: number,
  d: number,
  k: number,
  resp: Float64Array,
  reg: number,
  g: GaussianMixture,
): void {
  const nk = new Float64Array(k);
  g.means.fill(0);
  g.variances.fill(0);
  for (let i = 0; i < n; i++) {
    for (let m = 0; m < k; m++) {
      const r = resp[i * k + m];
      if (r < NEGLIGIBLE) continue;
      nk[m] += r;
      for (let j = 0; j < d; j++) g.means[m * d + j] += r * x[i * d + j];
    }
  }
  for (let m = 0; m < k; m++) {
    const w = nk[m] + 10 * Number.EPSILON;
    for (let j = 0; j < d; j++) g.means[m * d + j] /= w;
  }
  for (let i = 0; i < n; i++) {
    for (let m = 0; m < k; m++) {
      const r = resp[i * k + m];
      if (r < NEGLIGIBLE) continue;
      for (let j = 0; j < d; j++) {
        const t = x[i * d + j] - g.means[m * d + j];
        g.variances[m * d + j] += r * t * t;
      }
    }
  }
  for (let m = 0; m < k; m++) {
    const w = nk[m] + 10 * Number.EPSILON;
    g.weights[m] = w / n;
    for (let j = 0; j < d; j++) g.variances[m * d + j] = g.variances[m * d + j] / w + reg;
  }
}

/** E-step: fills `resp` with posterior probabilities; returns the mean log-likelihood. */
function eStep(x: Float64Array, n: number, d: number, g: GaussianMixture, resp: Float64Array): number {
  const k = g.k;
  const prec = new Float64Array(k * d);
  const logNorm = new Float64Array(k);
  for (let m = 0; m < k; m++) {
    let logDet = 0;
    for (let j = 0; j < d; j++) {
      prec[m * d + j] = 1 / g.variances[m * d + j];
      logDet += Math.log(g.variances[m * d + j]);
    }
    logNorm[m] = Math.log(g.weights[m]) - 0.5 * (d * LOG_2PI + logDet);
  }
  let total = 0;
  for (let i = 0; i < n; i++) {
    let max = -Infinity;
    const xo = i * d;
    const ro = i * k;
    for (let m = 0; m < k; m++) {
      const mo = m * d;
      let s = 0;
      for (let j = 0; j < d; j++) {
        const t = x[xo + j] - g.means[mo + j];
        s += t * t * prec[mo + j];
      }
      const lp = logNorm[m] - 0.5 * s;
      resp[ro + m] = lp;
      if (lp > max) max = lp;
    }
    let sum = 0;
    // exp(−40) is far below the M-step's cut-off: skip computing it.
    for (let m = 0; m < k; m++) {
      const t = resp[ro + m] - max;
      const e = t < -40 ? 0 : Math.exp(t);
      resp[ro + m] = e;
      sum += e;
    }
    total += max + Math.log(sum);
    const inv = 1 / sum;
    for (let m = 0; m < k; m++) resp[ro + m] *= inv;
  }
  return total / n;
}

/** Fits a k-component diagonal GMM to row-major `x` (n×d). */
export function fitGmm(
  x: Float64Array,
  n: number,
  d: number,
  k: number,
  opts: GmmOptions = {},
): GaussianMixture {
  if (k < 1 || k > n) throw new Error(`Cannot fit ${k} components to ${n} points`);
  const random = seededRandom(opts.seed ?? 0);
  const g: GaussianMixture = {
    k,
    d,
    weights: new Float64Array(k),
    means: new Float64Array(k * d),
    variances: new Float64Array(k * d),
    meanLogLikelihood: -Infinity,
    iterations: 0,
    converged: false,
  };
  const reg = opts.regCovar ?? 1e-6;
  const resp = new Float64Array(n * k);
  const labels = kmeansLabels(x, n, d, k, random, opts.kmeansIter ?? 20);
  for (let i = 0; i < n; i++) resp[i * k + labels[i]] = 1;
  mStep(x, n, d, k, resp, reg, g);
  const tol = opts.tol ?? 1e-3;
  const maxIter = opts.maxIter ?? 100;
  let prev = -Infinity;
  for (let it = 1; it <= maxIter; it++) {
    const ll = eStep(x, n, d, g, resp);
    mStep(x, n, d, k, resp, reg, g);
    g.iterations = it;
    if (Math.abs(ll - prev) < tol) {
      g.converged = true;
      break;
    }
    prev = ll;
  }
  g.meanLogLikelihood = eStep(x, n, d, g, resp);
  return g;
}

/** Posterior membership probabilities, n×k row-major. */
export function predictProba(g: GaussianMixture, x: Float64Array, n: number): Float64Array {
  const resp = new Float64Array(n * g.k);
  eStep(x, n, g.d, g, resp);
  return resp;
}

export function parameterCount(k: number, d: number): number {
  return 2 * k * d + k - 1;
}

/** Bayesian information criterion (lower is better). */
export function bic(g: GaussianMixture, n: number): number {
  return -2 * g.meanLogLikelihood * n + parameterCount(g.k, g.d) * Math.log(n);
}

/** Mean log-likelihood of all of `x` under `g` (one E-step, no refit). */
export function meanLogLikelihood(g: GaussianMixture, x: Float64Array, n: number): number {
  return eStep(x, n, g.d, g, new Float64Array(n * g.k));
}

/** A seeded sample of `size` row indexes out of `n` (partial Fisher–Yates), in increasing order. */
function sampleRows(n: number, size: number, seed: number): Int32Array {
  const idx = Int32Array.from({ length: n }, (_, i) => i);
  const random = seededRandom(seed ^ 0x5bd1e995);
  for (let i = 0; i < size; i++) {
    const j = i + Math.floor(random() * (n - i));
    const t = idx[i];
    idx[i] = idx[j];
    idx[j] = t;
  }
  return idx.slice(0, size).sort();
}

export interface SelectOptions extends GmmOptions {
  /**
   * Above this many points the k sweep fits each candidate on a seeded sample of this size; the BIC of
   * each candidate is still computed over all points (likelihood of every point under the fitted
   * mixture, penalty with the full n), and the chosen k is then fitted on all points. Default 2,000.
   */
  sampleSize?: number;
}

/**
 * Fits k = 1…maxK and keeps the lowest BIC (the first on ties). Every fit uses the same seed, so the
 * choice is deterministic.
 */
export function selectByBic(
  x: Float64Array,
  n: number,
  d: number,
  maxK: number,
  opts: SelectOptions = {},
): { best: GaussianMixture; bics: number[] } {
  const sampleSize = opts.sampleSize ?? 2000;
  const sampled = n > sampleSize;
  let fitX = x;
  let fitN = n;
  if (sampled) {
    const rows = sampleRows(n, sampleSize, opts.seed ?? 0);
    fitX = new Float64Array(sampleSize * d);
    rows.forEach((r, i) => fitX.set(x.subarray(r * d, r * d + d), i * d));
    fitN = sampleSize;
  }
  const upper = Math.max(1, Math.min(maxK, fitN));
  let bestK = 1;
  let best: GaussianMixture | null = null;
  let bestBic = Infinity;
  const bics: number[] = [];
  for (let k = 1; k <= upper; k++) {
    const g = fitGmm(fitX, fitN, d, k, opts);
    const ll = sampled ? meanLogLikelihood(g, x, n) : g.meanLogLikelihood;
    const b = -2 * ll * n + parameterCount(k, d) * Math.log(n);
    bics.push(b);
    if (b < bestBic) {
      bestBic = b;
      bestK = k;
      best = g;
    }
  }
  return { best: sampled ? fitGmm(x, n, d, bestK, opts) : (best as GaussianMixture), bics };
}
