import { describe, expect, it } from 'vitest';
import { clusterLayer } from './cluster.js';
import { gaussian, seededRandom } from './random.js';
import { reduceDimensions, umapComponents, umapNeighbors } from './reduce.js';

/** `topics` directions in 384 dimensions; each chunk is its topic's direction plus noise. */
function topicVectors(
  topics: number,
  per: number,
  seed: number,
  noise = 0.35,
): { vectors: number[][]; truth: number[] } {
  const random = seededRandom(seed);
  const centers = Array.from({ length: topics }, () => Array.from({ length: 384 }, () => gaussian(random)));
  const vectors: number[][] = [];
  const truth: number[] = [];
  for (let i = 0; i < per; i++) {
    for (let t = 0; t < topics; t++) {
      vectors.push(centers[t].map((c) => c + gaussian(random) * noise * 2));
      truth.push(t);
    }
  }
  return { vectors, truth };
}

/** Whether two labelings are the same partition (label names may differ). */
function samePartition(a: number[], b: number[]): boolean {
  const map = new Map<number, number>();
  const back = new Map<number, number>();
  return a.every((x, i) => {
    if ((map.has(x) && map.get(x) !== b[i]) || (back.has(b[i]) && back.get(b[i]) !== x)) return false;
    map.set(x, b[i]);
    back.set(b[i], x);
    return true;
  });
}

describe('UMAP parameters (API.md §19.11)', () => {
  it('follows n_neighbors = max(2, (n−1)^0.8) and ≤ 12 components, within the work bound', () => {
    expect(umapNeighbors(3)).toBe(2);
    expect(umapNeighbors(100)).toBe(39);
    expect(umapNeighbors(300)).toBe(95);
    expect(umapNeighbors(10_000)).toBe(15);
    expect(umapComponents(3)).toBe(1);
    expect(umapComponents(10)).toBe(8);
    expect(umapComponents(1000)).toBe(12);
  });
});

describe('clusterLayer (UMAP + GMM/BIC)', () => {
  it('same seed → same reduction and same clusters; the clusters are the topics', () => {
    const { vectors, truth } = topicVectors(4, 25, 11);
    const a = clusterLayer(vectors, { maxCluster: 64, threshold: 0.1, seed: 7 });
    const b = clusterLayer(vectors, { maxCluster: 64, threshold: 0.1, seed: 7 });
    expect(a.labels).toEqual(b.labels);
    expect(a.chosenK).toBe(b.chosenK);
    expect(reduceDimensions(vectors.slice(0, 30), { seed: 3 })).toEqual(
      reduceDimensions(vectors.slice(0, 30), { seed: 3 }),
    );
    // Well-separated topics come back exactly as the partition.
    expect(a.clusters).toBe(4);
    expect(samePartition(a.labels, truth)).toBe(true);
  });

  it('a different seed changes the embedding but not well-separated topics', () => {
    const { vectors, truth } = topicVectors(3, 20, 5);
    const x = reduceDimensions(vectors, { seed: 1 });
    const y = reduceDimensions(vectors, { seed: 2 });
    expect(x).not.toEqual(y);
    expect(
      samePartition(clusterLayer(vectors, { maxCluster: 64, threshold: 0.1, seed: 2 }).labels, truth),
    ).toBe(true);
  });

  it('respects max_cluster and handles tiny layers', () => {
    const { vectors } = topicVectors(5, 8, 3);
    const capped = clusterLayer(vectors, { maxCluster: 2, threshold: 0.1, seed: 0 });
    expect(capped.chosenK).toBeLessThanOrEqual(2);
    expect(new Set(capped.labels).size).toBe(capped.clusters);
    expect(clusterLayer(vectors.slice(0, 2), { maxCluster: 64, threshold: 0.1, seed: 0 })).toMatchObject({
      labels: [0, 0],
      clusters: 1,
    });
    const three = clusterLayer(vectors.slice(0, 3), { maxCluster: 64, threshold: 0.1, seed: 0 });
    expect(three.labels).toHaveLength(3);
    expect(three).toMatchObject({ labels: [0, 0, 0], chosenK: 1 });
  });
});
