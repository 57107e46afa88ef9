/**
 * Graph tab rendering (issue 16: renders 10,000 nodes and pans smoothly). Bundles
 * apps/web/bench/graph-render.harness.ts (the tab's own graph-data.ts conversion + sigma with the tab's
 * settings) with esbuild, opens it in Chromium (/usr/bin/chromium, or CHROMIUM_PATH) and, per size,
 * reports: data → graphology (incl. communities and the seeded layout), sigma construction, time to
 * the first frame, and the frame intervals of a 90-frame camera pan with the edges kept visible
 * (the tab hides them while the user drags; this is the worse case), then — as a user pans — a 2 s drag of the
 * view with the mouse (sigma hides edges and labels above 2,000 nodes, as in the tab), counting every frame the page
 * draws meanwhile (frames per second over the drag, frame interval median/p95). Headless Chromium draws WebGL in
 * software (SwiftShader), so the frame times are an upper bound for a machine with a GPU. Prints
 * median/p95 and the machine; never asserts a time.
 *
 *   npx tsx bench/graph-render.ts [--nodes 1000,10000,20000] [--louvain]
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { machine, summarize } from './lib/stats.js';

/** What the harness page offers (apps/web/bench/graph-render.harness.ts; a DOM file, so not imported here). */
interface BenchWindow {
  runBench(
    n: number,
    withCommunities: boolean,
    keepForDrag?: boolean,
  ): Promise<{
    nodes: number;
    edges: number;
    buildMs: number;
    constructMs: number;
    firstFrameMs: number;
    frameMs: number[];
    calibrationMs: number;
  }>;
  recordFrames(ms: number): Promise<number[]>;
  webglRenderer(): string;
}

/** Drags the view with the mouse for `ms` (a move every 16 ms) while the page records its frames. */
async function dragFrames(page: import('playwright-core').Page, ms: number) {
  const recording = page.evaluate((d) => (globalThis as unknown as BenchWindow).recordFrames(d), ms);
  await page.mouse.move(500, 300);
  await page.mouse.down();
  const start = Date.now();
  for (let i = 0; Date.now() - start < ms; i++) {
    const turn = (i / 60) * 2 * Math.PI;
    await page.mouse.move(500 + 200 * Math.cos(turn), 300 + 120 * Math.sin(turn));
    await new Promise((r) => setTimeout(r, 16));
  }
  await page.mouse.up();
  return recording;
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
}
const SIZES = arg('nodes', '1000,10000,20000').split(',').map(Number);
// Without server communities the tab runs Louvain itself; --louvain measures that path.
const LOUVAIN = process.argv.includes('--louvain');

const bundle = await build({
  entryPoints: [path.join(root, 'apps/web/bench/graph-render.harness.ts')],
  bundle: true,
  write: false,
  format: 'iife',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  nodePaths: [path.join(root, 'apps/web/node_modules'), path.join(root, 'node_modules')],
  logLevel: 'warning',
});

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.setContent('<div id="graph" style="width:1000px;height:600px"></div>');
  await page.addScriptTag({ content: bundle.outputFiles[0].text });
  const renderer = await page.evaluate(() => (globalThis as unknown as BenchWindow).webglRenderer());
  console.log(`graph-render — ${machine()} — Chromium ${browser.version()} (${renderer})`);
  console.log(`communities: ${LOUVAIN ? 'Louvain in the browser' : 'from the server'}\n`);
  for (const n of SIZES) {
    const r = await page.evaluate(
      ([size, louvain]) => (globalThis as unknown as BenchWindow).runBench(size, !louvain, true),
      [n, LOUVAIN] as const,
    );
    const frames = summarize(r.frameMs);
    console.log(
      `${r.nodes} nodes, ${r.edges} edges: build ${r.buildMs.toFixed(0)} ms, sigma ${r.constructMs.toFixed(0)} ms, ` +
        `first frame ${r.firstFrameMs.toFixed(0)} ms after build; pan frames median ${frames.median.toFixed(1)} ms ` +
        `(${(1000 / frames.median).toFixed(0)} fps), p95 ${frames.p95.toFixed(1)} ms; ` +
        `calibration loop ${r.calibrationMs.toFixed(0)} ms, load ${os.loadavg()[0].toFixed(1)}`,
    );
    const drag = await dragFrames(page, 2000);
    const dragged = summarize(drag);
    const fps = (drag.length * 1000) / drag.reduce((a, b) => a + b, 0);
    console.log(
      `  mouse drag 2 s (edges and labels hidden while moving above 2,000 nodes): ${fps.toFixed(1)} fps, frame median ` +
        `${dragged.median.toFixed(1)} ms, p95 ${dragged.p95.toFixed(1)} ms, load ${os.loadavg()[0].toFixed(1)}`,
    );
  }
} finally {
  await browser.close();
}
