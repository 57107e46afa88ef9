/**
 * Upload of many files at once in the file manager (issue 13 "Speed": 100 files complete with every
 * state shown). Starts the built app (run `node scripts/build.mjs` first), signs a new user up in
 * Chromium (/usr/bin/chromium or CHROMIUM_PATH, the browser tests' flags) and, per run, drops onto the
 * upload dialog as a person's drop from the file browser (Chromium drag input):
 *   - flat: `files` loose files;
 *   - folder: one folder holding `files` files (the dialog groups its entries under the folder).
 * Each drop goes into a fresh folder of the file manager. A MutationObserver on the page records every
 * change of every entry (Waiting / Uploading with its progress / Uploaded / Upload failed) with its
 * time (tests/e2e/upload-watch.ts). Reported per drop: time from the drop until every entry shows
 * Uploaded, the per-file time from first shown to Uploaded and from Uploading to Uploaded (median,
 * p95), how many entries showed each state and a progress bar, and a check through the API that the
 * folder holds `files` files with distinct names. A last, untimed drop of 10 files cuts one upload
 * off on the wire and retries it from the dialog, and prints that entry's states. Load average
 * printed with every figure (the machine may be shared). Never asserts a time.
 *
 *   npm run bench -- files-upload [files=100] [runs=3]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { STORAGE_KEYS } from '@lectern/shared';
import { launchBrowser, registerAndSignIn, startServer } from '../tests/e2e/helpers.js';
import { dropPaths, entryStates, historyByPath, uploadLog, watchUploads } from '../tests/e2e/upload-watch.js';
import { machine, summarize } from './lib/stats.js';

const FILES = Number(process.argv[2] ?? 100);
const RUNS = Number(process.argv[3] ?? 3);
const TIMEOUT_MS = 300_000;

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** `n` small text files (1–4 KB) in `dir`. */
function writeFiles(dir: string, n: number): string[] {
  fs.mkdirSync(dir, { recursive: true });
  const names: string[] = [];
  for (let i = 0; i < n; i++) {
    const name = `note-${String(i).padStart(3, '0')}.txt`;
    fs.writeFileSync(path.join(dir, name), `Note ${i}. `.repeat(120 + (i % 7) * 60));
    names.push(name);
  }
  return names;
}

interface Api {
  token: string;
  url: string;
}

async function api<T>(a: Api, route: string, body?: unknown): Promise<T> {
  const res = await fetch(`${a.url}${route}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      Authorization: a.token,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as { code: number; message: string; data: T };
  if (json.code !== 0) throw new Error(`${route}: ${json.code} ${json.message}`);
  return json.data;
}

type FileRow = { id: string; name: string; type: string };

async function listFolder(a: Api, folderId: string): Promise<FileRow[]> {
  const data = await api<{ files: FileRow[] }>(a, `/v1/file/list?parent_id=${folderId}&page_size=1000`);
  return data.files;
}

async function newFolder(a: Api, name: string): Promise<string> {
  const root = await api<{ root_folder: { id: string } }>(a, '/v1/file/root_folder');
  const made = await api<{ id: string }>(a, '/v1/file/create', {
    name,
    parent_id: root.root_folder.id,
    type: 'folder',
  });
  return made.id;
}

/** Opens the upload dialog in `folderId`, drops `paths`, waits until every entry is finished. */
async function dropAndWait(
  context: BrowserContext,
  page: Page,
  folderId: string,
  paths: string[],
  expected: number,
) {
  await page.goto(`/file?folder=${folderId}`);
  await page.getByRole('heading', { name: 'File manager' }).waitFor();
  await page.getByRole('button', { name: 'Upload' }).click();
  const dialog = page.getByRole('dialog', { name: 'Upload files' });
  await watchUploads(page);
  const t0 = (await page.evaluate('performance.now()')) as number;
  await dropPaths(context, page, dialog.getByText('Drop files or folders here'), paths);
  await dialog
    .getByTestId('upload-summary')
    .getByText(new RegExp(`^\\d+ of ${expected} uploaded`))
    .waitFor({ timeout: 30_000 });
  for (;;) {
    const states = Object.values(await entryStates(dialog));
    if (states.length === expected && states.every((s) => s === 'uploaded' || s === 'failed')) break;
    if (((await page.evaluate('performance.now()')) as number) - t0 > TIMEOUT_MS)
      throw new Error(`the upload did not finish in ${TIMEOUT_MS / 1000} s`);
    await page.waitForTimeout(100);
  }
  return { dialog, t0 };
}

async function timedDrop(
  context: BrowserContext,
  page: Page,
  a: Api,
  tmp: string,
  kind: 'flat' | 'folder',
  run: number,
) {
  const src = path.join(tmp, `${kind}-${run}`, kind === 'folder' ? 'batch' : '');
  const names = writeFiles(src, FILES);
  const folderId = await newFolder(a, `upload-bench-${kind}-${run}-${Date.now()}`);
  const paths = kind === 'folder' ? [src] : names.map((n) => path.join(src, n));
  const { dialog, t0 } = await dropAndWait(context, page, folderId, paths, FILES);
  const history = historyByPath(await uploadLog(page));
  const finishedAt = Math.max(...[...history.values()].map((h) => h.uploadedAt ?? Infinity));
  const total = finishedAt - t0;
  const shownToDone = [...history.values()].map((h) => (h.uploadedAt ?? NaN) - (h.queuedAt ?? NaN));
  const uploadingToDone = [...history.values()].map((h) => (h.uploadedAt ?? NaN) - (h.uploadingAt ?? NaN));
  const seen = { queued: 0, uploading: 0, uploaded: 0, failed: 0, progressBar: 0 };
  for (const h of history.values()) {
    for (const s of new Set(h.states)) seen[s as keyof typeof seen] += 1;
    if (h.progress.length > 0) seen.progressBar += 1;
  }
  const summary = (await dialog.getByTestId('upload-summary').innerText()).trim();

  // What the server holds: `files` files under distinct names, where the drop put them.
  const where = kind === 'folder' ? (await listFolder(a, folderId)).find((f) => f.name === 'batch') : null;
  const stored = (await listFolder(a, where ? where.id : folderId)).filter((f) => f.type !== 'folder');
  const distinct = new Set(stored.map((f) => f.name)).size;
  const same = stored.length === names.length && names.every((n) => stored.some((f) => f.name === n));

  const s1 = summarize(shownToDone);
  const s2 = summarize(uploadingToDone);
  console.log(
    `${kind} run ${run + 1}: ${history.size} entries, all uploaded ${(total / 1000).toFixed(2)} s after the drop; ` +
      `per file shown→uploaded median ${s1.median.toFixed(0)} ms p95 ${s1.p95.toFixed(0)} ms; ` +
      `uploading→uploaded median ${s2.median.toFixed(0)} ms p95 ${s2.p95.toFixed(0)} ms (load ${load()})`,
  );
  console.log(
    `  entries that showed: waiting ${seen.queued}, uploading ${seen.uploading} (progress bar ${seen.progressBar}), ` +
      `uploaded ${seen.uploaded}, failed ${seen.failed}; summary "${summary}"; ` +
      `API: ${stored.length} files, ${distinct} distinct names${same ? ', the dropped names' : ', NOT the dropped names'}`,
  );
  await dialog.getByRole('button', { name: 'Close' }).last().click();
  await dialog.waitFor({ state: 'hidden' });
  return total;
}

/** 10 files, the first request of one cut off on the wire, then retried from the dialog (untimed). */
async function failureAndRetry(context: BrowserContext, page: Page, a: Api, tmp: string) {
  const src = path.join(tmp, 'retry');
  const names = writeFiles(src, 10);
  const failing = names[4]!;
  let cut = 0;
  await page.route('**/v1/file/upload', async (route) => {
    if (cut === 0 && (route.request().postDataBuffer()?.includes(`filename="${failing}"`) ?? false)) {
      cut++;
      return route.abort('connectionreset');
    }
    return route.continue();
  });
  const folderId = await newFolder(a, `upload-bench-retry-${Date.now()}`);
  const { dialog } = await dropAndWait(
    context,
    page,
    folderId,
    names.map((n) => path.join(src, n)),
    names.length,
  );
  await dialog.getByRole('button', { name: `Retry ${failing}` }).click();
  await dialog
    .getByTestId('upload-summary')
    .getByText(`${names.length} of ${names.length} uploaded, 0 failed`)
    .waitFor();
  const h = historyByPath(await uploadLog(page)).get(failing);
  const stored = (await listFolder(a, folderId)).filter((f) => f.type !== 'folder');
  console.log(
    `retry: ${failing} cut off ${cut}×, states shown ${h?.states.join(' → ')}; ` +
      `API: ${stored.length} files, ${new Set(stored.map((f) => f.name)).size} distinct names`,
  );
  await page.unroute('**/v1/file/upload');
}

async function main() {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-upload-bench-'));
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1400, height: 900 } });
    context.setDefaultTimeout(60_000);
    const page = await context.newPage();
    await registerAndSignIn(page, {
      nickname: 'Bench',
      email: `upload.${Date.now()}@example.com`,
      password: 'upload-bench-123',
    });
    const token = (await page.evaluate(
      (key) =>
        (
          globalThis as unknown as { localStorage: { getItem(k: string): string | null } }
        ).localStorage.getItem(key),
      STORAGE_KEYS.authorization,
    )) as string;
    const a: Api = { token, url: server.url };
    console.log(`files-upload — ${FILES} files per drop, ${RUNS} runs each, ${machine()}; load ${load()}`);
    const totals: Record<'flat' | 'folder', number[]> = { flat: [], folder: [] };
    for (let run = 0; run < RUNS; run++)
      for (const kind of ['flat', 'folder'] as const)
        totals[kind].push(await timedDrop(context, page, a, tmp, kind, run));
    for (const kind of RUNS > 0 ? (['flat', 'folder'] as const) : []) {
      const s = summarize(totals[kind]);
      console.log(
        `${kind}: ${FILES} files, ${RUNS} runs: total median ${(s.median / 1000).toFixed(2)} s, max ${(s.max / 1000).toFixed(2)} s`,
      );
    }
    await failureAndRetry(context, page, a, tmp).catch(async (err: unknown) => {
      const shot = path.join(os.tmpdir(), 'files-upload-retry-failure.png');
      await page.screenshot({ path: shot });
      throw Object.assign(err as Error, { message: `${(err as Error).message} (screenshot ${shot})` });
    });
    console.log(`load average after ${load()}`);
  } finally {
    await browser.close();
    await server.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
