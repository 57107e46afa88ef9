/**
 * Agent editor smoothness (issue 14 "Speed": drag at 60 fps with 200 nodes). Starts the built app
 * (apps/server/dist + apps/web/dist: run `node scripts/build.mjs` first), signs a new user up in
 * Chromium (/usr/bin/chromium or CHROMIUM_PATH, the browser tests' flags), saves an agent of 200
 * connected nodes laid out on a grid (a chain Begin → 197 StringTransforms → LLM → Message) and opens
 * it in the editor (fit to view: every node is drawn). Then it drags one node with the mouse for
 * `seconds` (default 2 s, one move per 16 ms) while a requestAnimationFrame loop on the page records
 * frame times. Reports frames per second over the drag and the per-frame rate (1000 / interval)
 * median and p95-worst, plus the load average (the machine is shared). Headless Chromium composites
 * in software; a desktop with a GPU does better. Never asserts a time.
 *
 *   npm run bench -- editor-drag [nodes=200] [seconds=2]
 */
import os from 'node:os';
import type { Page } from 'playwright-core';
import { launchBrowser, registerAndSignIn, startServer } from '../tests/e2e/helpers.js';
import { chainFlow } from '../apps/server/src/modules/canvas/test-support.js';
import { STORAGE_KEYS } from '@lectern/shared';
import { machine, summarize } from './lib/stats.js';

const NODES = Number(process.argv[2] ?? 200);
const SECONDS = Number(process.argv[3] ?? 2);
const COLUMNS = 20;

/** The chain flow with its nodes on a grid (20 per row), as a person would lay out a large agent. */
function gridDsl(n: number) {
  const dsl = chainFlow('stand-in-model@OpenAI-API-Compatible', n);
  dsl.graph.nodes.forEach((node, i) => {
    node.position = { x: (i % COLUMNS) * 260, y: Math.floor(i / COLUMNS) * 160 };
  });
  return dsl;
}

/** What the page functions below use of the browser (this file is type-checked without the DOM library). */
interface PageGlobals {
  __frames: number[];
  __recording: boolean;
  localStorage: { getItem(key: string): string | null };
}

/** Frame timestamps (ms) recorded by requestAnimationFrame while `during` runs. */
async function recordFrames(page: Page, during: () => Promise<void>): Promise<number[]> {
  // A string, not a function: the bench's TypeScript loader would wrap a named function in a helper
  // (`__name`) that does not exist on the page.
  await page.evaluate(`(() => {
    globalThis.__frames = [];
    globalThis.__recording = true;
    const tick = (t) => {
      if (!globalThis.__recording) return;
      globalThis.__frames.push(t);
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  })()`);
  await during();
  return page.evaluate(() => {
    const w = globalThis as unknown as PageGlobals;
    w.__recording = false;
    return w.__frames;
  });
}

async function main() {
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ viewport: { width: 1600, height: 960 }, baseURL: server.url });
    const page = await context.newPage();
    const stamp = Date.now();
    await registerAndSignIn(page, {
      nickname: 'Bench',
      email: `drag.${stamp}@example.com`,
      password: 'bench-password-123',
    });
    const token = await page.evaluate(
      (key) => (globalThis as unknown as PageGlobals).localStorage.getItem(key),
      STORAGE_KEYS.authorization,
    );
    const saved = await fetch(`${server.url}/v1/canvas/set`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: token ?? '' },
      body: JSON.stringify({ title: `Drag bench ${stamp}`, dsl: gridDsl(NODES) }),
    });
    const body = (await saved.json()) as { code: number; message: string; data: { id: string } };
    if (body.code !== 0) throw new Error(`saving the agent failed: ${body.code} ${body.message}`);

    await page.goto(`/agent/${body.data.id}`);
    const nodes = page.locator('.react-flow__node');
    await nodes.nth(NODES - 1).waitFor();
    const drawn = await nodes.count();
    await page.waitForTimeout(1000); // fit-to-view animation and first layout settle

    const handle = page.getByTestId('node-Step 50');
    const box = (await handle.boundingBox())!;
    const from = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    const steps = Math.round((SECONDS * 1000) / 16);
    const frames = await recordFrames(page, async () => {
      await page.mouse.move(from.x, from.y);
      await page.mouse.down();
      const t0 = Date.now();
      for (let i = 1; i <= steps; i++) {
        // a slow half circle, so the node keeps moving for the whole drag
        const angle = (i / steps) * Math.PI;
        await page.mouse.move(from.x + Math.sin(angle) * 200, from.y + (1 - Math.cos(angle)) * 120);
        const wait = t0 + i * 16 - Date.now();
        if (wait > 0) await page.waitForTimeout(wait);
      }
      await page.mouse.up();
    });
    const moved = await handle.boundingBox();

    const intervals = frames.slice(1).map((t, i) => t - frames[i]!);
    const spanMs = frames.at(-1)! - frames[0]!;
    const perFrameFps = summarize(intervals.map((ms) => 1000 / ms));
    const interval = summarize(intervals);
    console.log(`editor-drag — ${drawn} nodes drawn (${NODES} in the agent), ${machine()}`);
    console.log(
      `load average: ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
    console.log(
      `drag of ${(spanMs / 1000).toFixed(2)} s: ${frames.length} frames → ${((frames.length - 1) / (spanMs / 1000)).toFixed(1)} fps`,
    );
    console.log(
      `  frame interval: median ${interval.median.toFixed(1)} ms, p95 ${interval.p95.toFixed(1)} ms, max ${interval.max.toFixed(1)} ms`,
    );
    // the p95-worst rate is the rate of the p95 interval (the slow frames), not the p95 of the rates
    console.log(
      `  per-frame rate: median ${perFrameFps.median.toFixed(1)} fps, p95-worst ${(1000 / interval.p95).toFixed(1)} fps`,
    );
    console.log(
      `  node moved: ${moved ? `${Math.round(moved.x - box.x)}, ${Math.round(moved.y - box.y)} px from its start` : 'not found'}`,
    );
  } finally {
    await browser.close();
    await server.stop();
  }
}

await main();
