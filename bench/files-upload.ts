/**
 * File manager upload of many files at once (issue 13 "Speed": 100 files complete with every state
 * shown). Starts the built app (run `node scripts/build.mjs` first), signs a new user up in Chromium
 * (the browser tests' flags), opens the upload dialog and drops a folder of `files` small text files
 * onto it as a person's drop from the file browser (Chromium's drag input). Reports the time from the
 * drop until every entry shows "uploaded", how many entries were seen in each state along the way
 * (waiting / uploading / uploaded / failed, sampled every 50 ms), the summary line and the load
 * average (the machine may be shared). Repeats `runs` times. Never asserts a time.
 *
 *   npm run bench -- files-upload [files=100] [runs=3]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { launchBrowser, registerAndSignIn, startServer } from '../tests/e2e/helpers.js';
import { machine, summarize } from './lib/stats.js';

const FILES = Number(process.argv[2] ?? 100);
const RUNS = Number(process.argv[3] ?? 3);

/** Drags the folder `dir` from disk onto `target` (the same drop as tests/e2e/files.e2e.ts). */
async function dropFolder(context: BrowserContext, page: Page, target: Locator, dir: string) {
  const box = await target.boundingBox();
  if (!box) throw new Error('the drop target is not visible');
  const cdp = await context.newCDPSession(page);
  const at = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  const data = { items: [], files: [dir], dragOperationsMask: 1 };
  for (const type of ['dragEnter', 'dragOver', 'drop'] as const)
    await cdp.send('Input.dispatchDragEvent', { type, ...at, data });
  await cdp.detach();
}

function makeFolder(root: string, name: string, n: number): string {
  const dir = path.join(root, name);
  fs.mkdirSync(dir, { recursive: true });
  for (let i = 0; i < n; i++)
    fs.writeFileSync(
      path.join(dir, `note-${String(i).padStart(3, '0')}.txt`),
      `Note ${i}. `.repeat(50 + (i % 7) * 20),
    );
  return dir;
}

async function main() {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-upload-bench-'));
  const server = await startServer();
  const browser = await launchBrowser();
  const times: number[] = [];
  try {
    const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1400, height: 900 } });
    context.setDefaultTimeout(120_000);
    const page = await context.newPage();
    await registerAndSignIn(page, {
      nickname: 'Bench',
      email: `upload.${Date.now()}@example.com`,
      password: 'upload-bench-123',
    });
    console.log(
      `${machine()}; load average before ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
    for (let run = 0; run < RUNS; run++) {
      const dir = makeFolder(tmp, `batch-${run}`, FILES);
      await page.goto('/file');
      await page.getByRole('button', { name: 'Upload' }).click();
      const dialog = page.getByRole('dialog', { name: 'Upload files' });
      const seen = { waiting: 0, uploading: 0, uploaded: 0, failed: 0 } as Record<string, number>;
      const started = performance.now();
      await dropFolder(context, page, dialog.getByText('Drop files or folders here'), dir);
      for (;;) {
        const states = await dialog
          .getByTestId('upload-entry')
          .evaluateAll((els) => els.map((e) => e.getAttribute('data-state') ?? ''));
        for (const s of new Set(states))
          seen[s] = Math.max(seen[s] ?? 0, states.filter((x) => x === s).length);
        if (states.length === FILES && states.every((s) => s === 'uploaded' || s === 'failed')) break;
        if (performance.now() - started > 120_000) throw new Error('the upload did not finish in 120 s');
        await page.waitForTimeout(50);
      }
      const ms = performance.now() - started;
      times.push(ms);
      const summary = await dialog.getByTestId('upload-summary').innerText();
      console.log(
        `run ${run + 1}: ${FILES} files in ${(ms / 1000).toFixed(2)} s; most entries seen per state ${JSON.stringify(seen)}; summary "${summary.trim()}"`,
      );
      await dialog.getByRole('button', { name: 'Close' }).last().click();
      await dialog.waitFor({ state: 'hidden' });
    }
    const s = summarize(times);
    console.log(
      `upload of ${FILES} files, ${RUNS} runs: median ${(s.median / 1000).toFixed(2)} s, p95 ${(s.p95 / 1000).toFixed(2)} s`,
    );
    console.log(
      `load average after ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    await browser.close();
    await server.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
