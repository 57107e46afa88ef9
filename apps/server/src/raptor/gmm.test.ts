import { describe, expect, it } from 'vitest';
import { bic, fitGmm, predictProba, selectByBic, toMatrix } from './gmm.js';
import { gaussian, seededRandom } from './random.js';

/** `k` well-separated spherical blobs in `d` dimensions, `per` points each, in interleaved order. */
function blobs(
  k: number,
  per: number,
  d: number,
  seed: number,
  spread = 12,
): { points: number[][]; truth: number[] } {
  const random = seededRandom(seed);
  // Centers at least 10 standard deviations apart, so the blobs are unambiguous.
  const centers: number[][] = [];
  for (let tries = 0; centers.length < k; tries++) {
    const c = Array.from({ length: d }, () => (random() - 0.5) * 2 * spread);
    if (tries > 10_000 || centers.every((o) => Math.hypot(...o.map((x, j) => x - c[j])) >= 10))
      centers.push(c);
  }
  const points: number[][] = [];
  const truth: number[] = [];
  for (let i = 0; i < per; i++) {
    for (let c = 0; c < k; c++) {
      points.push(centers[c].map((x) => x + gaussian(random)));
      truth.push(c);
    }
  }
  return { points, truth };
}

/** Fraction of points whose predicted cluster's majority true label is their own. */
function purity(labels: number[], truth: number[]): number {
  const byLabel = new Map<number, number[]>();
  labels.forEach((l, i) => byLabel.set(l, [...(byLabel.get(l) ?? []), truth[i]]));
  let agree = 0;
  for (const members of byLabel.values()) {
    const counts = new Map<number, number>();
    for (const t of members) counts.set(t, (counts.get(t) ?? 0) + 1);
    agree += Math.max(...counts.values());
  }
  return agree / labels.length;
}

function argmaxLabels(proba: Float64Array, n: number, k: number): number[] {
  return Array.from({ length: n }, (_, i) => {
    let best = 0;
    for (let m = 1; m < k; m++) if (proba[i * k + m] > proba[i * k + best]) best = m;
    return best;
  });
}

describe('Gaussian mixture (diagonal, EM)', () => {
  it('recovers well-separated blobs; probabilities sum to 1', () => {
    const { points, truth } = blobs(4, 50, 3, 1);
    const { data, n, d } = toMatrix(points);
    const g = fitGmm(data, n, d, 4, { seed: 0 });
    expect(g.converged).toBe(true);
    const proba = predictProba(g, data, n);
    for (let i = 0; i < n; i++) {
      let s = 0;
      for (let m = 0; m < 4; m++) s += proba[i * 4 + m];
      expect(s).toBeCloseTo(1, 9);
    }
    expect(purity(argmaxLabels(proba, n, 4), truth)).toBe(1);
    expect([...g.weights].reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9);
  });

  it('BIC picks the true number of clusters on well-separated blobs', () => {
    for (const [k, d, seed] of [
      [1, 2, 3],
      [3, 2, 4],
      [5, 4, 5],
      [8, 12, 6],
    ] as const) {
      const { points } = blobs(k, 40, d, seed);
      const { data, n } = toMatrix(points);
      const { best, bics } = selectByBic(data, n, d, 12, { seed: 0 });
      expect(best.k).toBe(k);
      expect(bics).toHaveLength(12);
      expect(bic(best, n)).toBeCloseTo(Math.min(...bics), 6);
    }
  });

  it('BIC on a sample (large n) still picks the true k, scored over all points', () => {
    const { points, truth } = blobs(6, 500, 5, 9);
    const { data, n, d } = toMatrix(points);
    const { best } = selectByBic(data, n, d, 10, { seed: 0, sampleSize: 600 });
    expect(best.k).toBe(6);
    expect(purity(argmaxLabels(predictProba(best, data, n), n, 6), truth)).toBe(1);
  });

  it('is deterministic for a seed', () => {
    const { points } = blobs(5, 30, 4, 2);
    const { data, n, d } = toMatrix(points);
    const a = fitGmm(data, n, d, 5, { seed: 42 });
    const b = fitGmm(data, n, d, 5, { seed: 42 });
    expect([...a.means]).toEqual([...b.means]);
    expect([...a.variances]).toEqual([...b.variances]);
    expect(a.meanLogLikelihood).toBe(b.meanLogLikelihood);
  });
});
