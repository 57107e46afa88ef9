import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { STORAGE_KEYS } from '@lectern/shared';
import { POLL, launchBrowser, registerAndSignIn, startServer, type RunningServer } from './helpers';
import { dropPaths, entryStates, historyByPath, uploadLog, watchUploads } from './upload-watch';

/**
 * Many files at once (issue 13 "Speed": the upload completes with every state shown), the short
 * version of bench/files-upload.ts: 20 files dropped from disk onto the upload dialog; one upload is
 * cut off on the wire (its first request is aborted), the person retries it. Every entry shows
 * "Waiting" or "Uploading" with its progress before "Uploaded", the cut one shows "Upload failed" and
 * then goes through again, and the server holds the 20 files under 20 distinct names.
 */

const FILES = 20;
const FAILING = 'note-007.txt';

let server: RunningServer;
let browser: Browser;
let dir: string;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-upload-many-'));
  for (let i = 0; i < FILES; i++)
    fs.writeFileSync(path.join(dir, `note-${String(i).padStart(3, '0')}.txt`), `Note ${i}. `.repeat(2000));
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('upload of many files', () => {
  it('shows every state of every entry, retries a failed one and stores all of them', async () => {
    const context = await browser.newContext({ reducedMotion: 'reduce', baseURL: server.url });
    context.setDefaultTimeout(30_000);
    const page = await context.newPage();
    await registerAndSignIn(page, {
      nickname: 'Una',
      email: `many.${Date.now()}@example.com`,
      password: 'many-files-123',
    });
    const token = (await page.evaluate(
      (key) => localStorage.getItem(key),
      STORAGE_KEYS.authorization,
    )) as string;

    // The first request carrying FAILING is cut off, as a dropped connection would.
    let cut = 0;
    await page.route('**/v1/file/upload', async (route) => {
      if (cut === 0 && (route.request().postDataBuffer()?.includes(`filename="${FAILING}"`) ?? false)) {
        cut++;
        return route.abort('connectionreset');
      }
      return route.continue();
    });

    await page.goto('/file');
    await page.getByRole('heading', { name: 'File manager' }).waitFor();
    await page.getByRole('button', { name: 'Upload' }).click();
    const dialog = page.getByRole('dialog', { name: 'Upload files' });
    await watchUploads(page);
    const names = fs.readdirSync(dir).sort();
    await dropPaths(
      context,
      page,
      dialog.getByText('Drop files or folders here'),
      names.map((n) => path.join(dir, n)),
    );

    await dialog
      .locator(`[data-testid="upload-entry"][data-state="failed"][data-path="${FAILING}"]`)
      .waitFor();
    await expect
      .poll(async () => Object.values(await entryStates(dialog)).filter((s) => s === 'uploaded').length, POLL)
      .toBe(FILES - 1);
    await dialog.getByRole('button', { name: `Retry ${FAILING}` }).click();
    await dialog.getByTestId('upload-summary').getByText(`${FILES} of ${FILES} uploaded, 0 failed`).waitFor();
    expect(cut).toBe(1);

    const history = historyByPath(await uploadLog(page));
    expect([...history.keys()].sort()).toEqual(names);
    for (const [name, h] of history) {
      // "Waiting" is shown while others upload (the first ones and a retried one may start in the same
      // frame, so it is left out of the comparison and counted below).
      const shown = h.states.filter((s) => s !== 'queued');
      const expected =
        name === FAILING ? ['uploading', 'failed', 'uploading', 'uploaded'] : ['uploading', 'uploaded'];
      expect(shown, name).toEqual(expected);
    }
    const waited = [...history.values()].filter((h) => h.states[0] === 'queued').length;
    expect(waited, 'entries shown waiting for their turn').toBeGreaterThanOrEqual(FILES - 3);
    const withProgress = [...history.values()].filter((h) => h.progress.length > 0).length;
    expect(withProgress, 'entries that showed a progress bar').toBe(FILES);

    // The server holds the 20 files, each once.
    const list = await fetch(`${server.url}/v1/file/list?page_size=100`, {
      headers: { Authorization: token },
    });
    const body = (await list.json()) as {
      code: number;
      data: { files: Array<{ name: string; type: string }> };
    };
    expect(body.code).toBe(0);
    const stored = body.data.files
      .filter((f) => f.type !== 'folder')
      .map((f) => f.name)
      .sort();
    expect(stored).toEqual(names);
    await context.close();
  });
});
