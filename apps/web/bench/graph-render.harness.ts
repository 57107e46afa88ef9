/**
 * Runs inside Chromium (bundled by the repository's bench/graph-render.ts): builds a synthetic knowledge graph of `n`
 * entities with the graph tab's own conversion (graph-data.ts), draws it with sigma as the tab does,
 * then pans the camera in a full circle over 90 frames, recording every frame interval. `keepForDrag` leaves the
 * renderer on the page so the bench can drag the view with the real mouse (sigma then hides the edges as the tab
 * does while the user pans) while `recordFrames` counts frames.
 */
import Sigma from 'sigma';
import type { GraphEdgeData, GraphNodeData } from '@lectern/shared';
import { buildGraph } from '../src/features/knowledge/graph/graph-data';
import { graphViewSettings } from '../src/features/knowledge/graph/sigma-settings';

export interface RenderResult {
  nodes: number;
  edges: number;
  buildMs: number;
  constructMs: number;
  firstFrameMs: number;
  frameMs: number[];
  /** A fixed 10⁷-step loop: ~10 ms on an idle modern core; scales the other figures for load. */
  calibrationMs: number;
}

/** Frames of the camera pan (one full circle). */
const FRAMES = 90;

function calibrate(): number {
  const t = performance.now();
  let x = 0;
  for (let i = 0; i < 1e7; i++) x += i % 7;
  if (x < 0) console.log(x);
  return performance.now() - t;
}

function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `n` entities in communities of about 100, three relations each mostly inside the community. */
function synthetic(n: number, withCommunities: boolean) {
  const random = rng(7);
  const size = 100;
  const nodes: GraphNodeData[] = Array.from({ length: n }, (_, i) => ({
    id: `ENTITY ${i}`,
    entity_type: ['PERSON', 'ORGANIZATION', 'LOCATION', 'EVENT'][i % 4],
    description: `Entity ${i} is described here in one or two sentences of synthetic text.`,
    source_id: [`chunk-${i % 997}`],
    pagerank: random() ** 3,
    ...(withCommunities ? { community: Math.floor(i / size) } : {}),
  }));
  const edges: GraphEdgeData[] = [];
  for (let i = 0; i < n; i++) {
    const base = Math.floor(i / size) * size;
    for (let k = 0; k < 3; k++) {
      const inside = random() < 0.9;
      const j = inside ? base + Math.floor(random() * Math.min(size, n - base)) : Math.floor(random() * n);
      if (j !== i)
        edges.push({
          source: `ENTITY ${i}`,
          target: `ENTITY ${j}`,
          weight: 1 + Math.floor(random() * 9),
          description: 'related',
          keywords: [],
        });
    }
  }
  return { nodes, edges };
}

let kept: { kill(): void } | null = null;

async function run(n: number, withCommunities: boolean, keepForDrag = false): Promise<RenderResult> {
  kept?.kill();
  kept = null;
  const data = synthetic(n, withCommunities);
  const t0 = performance.now();
  const graph = buildGraph(data);
  const t1 = performance.now();
  const container = document.getElementById('graph') as HTMLDivElement;
  const renderer = new Sigma(graph, container, graphViewSettings(graph.order));
  const t2 = performance.now();
  await new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
  const t3 = performance.now();
  const camera = renderer.getCamera();
  const frameMs: number[] = [];
  let last = performance.now();
  await new Promise<void>((resolve) => {
    const step = () => {
      const now = performance.now();
      frameMs.push(now - last);
      last = now;
      const turn = (frameMs.length / FRAMES) * 2 * Math.PI;
      camera.setState({ x: 0.5 + 0.3 * Math.cos(turn), y: 0.5 + 0.3 * Math.sin(turn), ratio: 0.6 });
      if (frameMs.length <= FRAMES) requestAnimationFrame(step);
      else resolve();
    };
    requestAnimationFrame(step);
  });
  if (keepForDrag) kept = renderer;
  else renderer.kill();
  return {
    nodes: graph.order,
    edges: graph.size,
    buildMs: t1 - t0,
    constructMs: t2 - t1,
    firstFrameMs: t3 - t1,
    frameMs: frameMs.slice(2),
    calibrationMs: calibrate(),
  };
}

/** Frame intervals over `ms` of wall time (the bench moves the mouse meanwhile). */
async function recordFrames(ms: number): Promise<number[]> {
  const frameMs: number[] = [];
  const start = performance.now();
  let last = start;
  await new Promise<void>((resolve) => {
    const step = () => {
      const now = performance.now();
      frameMs.push(now - last);
      last = now;
      if (now - start < ms) requestAnimationFrame(step);
      else resolve();
    };
    requestAnimationFrame(step);
  });
  kept?.kill();
  kept = null;
  return frameMs.slice(1);
}

/** What the page offers the bench script. */
export interface BenchWindow {
  runBench: typeof run;
  recordFrames: typeof recordFrames;
  webglRenderer: () => string;
}

const api: BenchWindow = {
  runBench: run,
  recordFrames,
  webglRenderer: () => {
    const gl = document.createElement('canvas').getContext('webgl2');
    return gl ? String(gl.getParameter(gl.RENDERER)) : 'no WebGL2';
  },
};
Object.assign(window, api);
