/**
 * Graph tab rendering (issue 16: renders 10,000 nodes and pans smoothly). Bundles
 * apps/web/bench/graph-render.harness.ts (the tab's own graph-data.ts conversion + sigma with the tab's
 * settings) with esbuild, opens it in Chromium (/usr/bin/chromium, or CHROMIUM_PATH) and, per size,
 * reports: data → graphology (incl. communities and the seeded layout), sigma construction, time to
 * the first frame, and the frame intervals of a 90-frame camera pan with the edges kept visible
 * (the tab hides them while the user drags; this is the worse case). Headless Chromium draws WebGL in
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
  ): Promise<{
    nodes: number;
    edges: number;
    buildMs: number;
    constructMs: number;
    firstFrameMs: number;
    frameMs: number[];
    calibrationMs: number;
  }>;
  webglRenderer(): string;
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
      ([size, louvain]) => (globalThis as unknown as BenchWindow).runBench(size, !louvain),
      [n, LOUVAIN] as const,
    );
    const frames = summarize(r.frameMs);
    console.log(
      `${r.nodes} nodes, ${r.edges} edges: build ${r.buildMs.toFixed(0)} ms, sigma ${r.constructMs.toFixed(0)} ms, ` +
        `first frame ${r.firstFrameMs.toFixed(0)} ms after build; pan frames median ${frames.median.toFixed(1)} ms ` +
        `(${(1000 / frames.median).toFixed(0)} fps), p95 ${frames.p95.toFixed(1)} ms; ` +
        `calibration loop ${r.calibrationMs.toFixed(0)} ms, load ${os.loadavg()[0].toFixed(1)}`,
    );
  }
} finally {
  await browser.close();
}
