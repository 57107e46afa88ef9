/**
 * RAPTOR clustering cost (issue 16: < 60 s for 10,000 chunks of 384-dim vectors, model time excluded).
 * Builds the whole summary tree over synthetic chunks — `--topics` directions in 384 dimensions, each
 * chunk its topic plus noise — with an instant summarizer and an embedder that returns the normalized
 * mean of the summarized vectors, so all time measured is UMAP, the GMM/BIC sweep and the tree
 * bookkeeping. Prints wall and CPU time per layer (the machine is shared: CPU time is the steadier
 * figure), median/p95 over `--runs`, and the machine. Never asserts a time.
 *
 *   npx tsx bench/raptor.ts [--chunks 10000] [--topics 50] [--runs 1] [--seed 0]
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import type { ChatTurn, GraphEmbedder } from '../apps/server/src/graph/ports.js';
import { ScriptedModel } from '../apps/server/src/graph/test-fixtures.js';
import {
  clusterLayer,
  type ClusterOptions,
  type LayerClustering,
} from '../apps/server/src/raptor/cluster.js';
import { gaussian, seededRandom } from '../apps/server/src/raptor/random.js';
import { buildRaptorTree, type RaptorChunk } from '../apps/server/src/raptor/raptor.js';
import { umapEpochs, umapNeighbors } from '../apps/server/src/raptor/reduce.js';
import { machine, summarize } from './lib/stats.js';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

const CHUNKS = arg('chunks', 10_000);
const TOPICS = arg('topics', 50);
const RUNS = arg('runs', 1);
const SEED = arg('seed', 0);
const DIM = 384;

function corpus(): RaptorChunk[] {
  const random = seededRandom(42);
  const centers = Array.from({ length: TOPICS }, () => Array.from({ length: DIM }, () => gaussian(random)));
  return Array.from({ length: CHUNKS }, (_, i) => ({
    id: `c${i}`,
    text: `chunk ${i}`,
    vector: centers[i % TOPICS].map((c) => c + gaussian(random) * 0.9),
  }));
}

function mean(vectors: number[][]): number[] {
  const out = new Array<number>(vectors[0].length).fill(0);
  for (const v of vectors) for (let j = 0; j < v.length; j++) out[j] += v[j];
  const norm = Math.hypot(...out) || 1;
  return out.map((x) => x / norm);
}

const cpuMs = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;

async function run(chunks: RaptorChunk[]) {
  const byText = new Map(chunks.map((c) => [c.text, c.vector]));
  // The summary of a cluster is a new name whose vector is the normalized mean of its members' vectors
  // (one member text per line of {cluster_content}); the embedder looks it up. No model time.
  let next = 0;
  const model = new ScriptedModel((messages: ChatTurn[]) => {
    const members = messages[1].content.replace(/^Summarize:\n/, '').split('\n');
    const name = `summary#${next++}`;
    byText.set(name, mean(members.map((m) => byText.get(m) ?? []).filter((v) => v.length)));
    return name;
  });
  const embedder: GraphEmbedder = {
    async embed(texts) {
      return { vectors: texts.map((t) => byText.get(t) ?? []) };
    },
  };
  const layers: Array<{
    n: number;
    k: number;
    clusters: number;
    wall: number;
    cpu: number;
    umap: number;
    gmm: number;
  }> = [];
  const cluster = (vectors: number[][], opts: ClusterOptions): LayerClustering => {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const r = clusterLayer(vectors, opts);
    layers.push({
      n: vectors.length,
      k: r.chosenK,
      clusters: r.clusters,
      wall: performance.now() - t0,
      cpu: cpuMs(process.cpuUsage(c0)),
      umap: r.timings.umapMs,
      gmm: r.timings.gmmMs,
    });
    return r;
  };
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const res = await buildRaptorTree(
    chunks,
    {
      prompt: 'Summarize:\n{cluster_content}',
      max_token: 256,
      threshold: 0.1,
      max_cluster: 64,
      random_seed: SEED,
    },
    { model, embedder, concurrency: 8, contextTokens: 8192, cluster },
  );
  return { wall: performance.now() - t0, cpu: cpuMs(process.cpuUsage(c0)), res, layers };
}

const chunks = corpus();
console.log(
  `RAPTOR clustering on ${CHUNKS} chunks × ${DIM} dims (${TOPICS} topics), seed ${SEED}, model time excluded`,
);
console.log(
  `UMAP: n_neighbors ${umapNeighbors(CHUNKS)}, ${umapEpochs(CHUNKS)} epochs, 12 components; GMM: diagonal, k ≤ 64 by BIC`,
);
const walls: number[] = [];
const cpus: number[] = [];
for (let r = 0; r < RUNS; r++) {
  const { wall, cpu, res, layers } = await run(chunks);
  walls.push(wall);
  cpus.push(cpu);
  console.log(
    `run ${r + 1}: ${(wall / 1000).toFixed(1)} s wall, ${(cpu / 1000).toFixed(1)} s CPU; layers ${res.layerSizes.join(' → ')}`,
  );
  for (const l of layers) {
    console.log(
      `  layer of ${l.n}: k=${l.k} (${l.clusters} non-empty), ${(l.wall / 1000).toFixed(2)} s wall / ${(l.cpu / 1000).toFixed(2)} s CPU (UMAP ${(l.umap / 1000).toFixed(2)} s, GMM sweep ${(l.gmm / 1000).toFixed(2)} s)`,
    );
  }
}
const w = summarize(walls);
const c = summarize(cpus);
console.log(
  `whole tree: median ${(w.median / 1000).toFixed(1)} s, p95 ${(w.p95 / 1000).toFixed(1)} s wall; median ${(c.median / 1000).toFixed(1)} s, p95 ${(c.p95 / 1000).toFixed(1)} s CPU (${RUNS} runs)`,
);
console.log(
  `machine: ${machine()}; load average ${os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
