import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { makeDocx } from './fixtures/office';
import { POLL, launchBrowser, registerAndSignIn, startServer, type RunningServer } from './helpers';

/**
 * The file manager as a user meets it: drop a folder (with a sub-folder) onto the upload area and
 * watch every file reach "uploaded", move a file into another folder with the folder picker, link it
 * to a knowledge base with parse on creation, and see its document parsed in the knowledge base.
 * The drop is a real drag of a folder from disk (Chromium's drag input through the DevTools protocol),
 * so the folder walk of the upload area and the relative paths are exercised as a person's drop is.
 */

const email = `files.${Date.now()}@example.com`;
const password = 'files-password-123';
const PARSE_TIMEOUT = 60_000;

let server: RunningServer;
let browser: Browser;
let dropDir: string;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  dropDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-files-e2e-'));
  fs.mkdirSync(path.join(dropDir, 'reports', 'sub'), { recursive: true });
  fs.writeFileSync(
    path.join(dropDir, 'reports', 'q1.txt'),
    'Quarterly report. Solar revenue grew by twelve percent while battery storage sales doubled.\n',
  );
  fs.writeFileSync(
    path.join(dropDir, 'reports', 'sub', 'q2.md'),
    '# Second quarter\n\nWind output was steady.\n',
  );
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (dropDir) fs.rmSync(dropDir, { recursive: true, force: true });
});

const fileRow = (page: Page, name: string): Locator =>
  page.locator('tr.ant-table-row', { has: page.getByTestId('file-name').getByText(name, { exact: true }) });

async function rowAction(page: Page, name: string, action: string) {
  await page.getByRole('button', { name: `Actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: action }).click();
}

/** Drags the folder `dir` from disk onto `target`, as a person's drop from the file browser. */
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

describe('file manager in the browser', () => {
  it('uploads a dropped folder, moves a file, links it to a knowledge base and sees it parsed', async () => {
    const context = await browser.newContext({
      reducedMotion: 'reduce',
      baseURL: server.url,
      viewport: { width: 1400, height: 900 },
    });
    context.setDefaultTimeout(20_000);
    const page = await context.newPage();
    await registerAndSignIn(page, { nickname: 'Fay', email, password });

    // A knowledge base to link to.
    await page.goto('/knowledge');
    await page.getByRole('button', { name: 'Create knowledge base' }).first().click();
    await page.getByRole('dialog').getByLabel('Name').fill('Solar KB');
    await page.getByRole('dialog').getByLabel('Name').press('Enter');
    await page.waitForURL(/\/knowledge\/[0-9a-f]{32}\/dataset$/);
    const kbId = /\/knowledge\/([0-9a-f]{32})\//.exec(page.url())![1]!;

    // The file manager starts with only the read-only knowledge-base mirror.
    await page.locator('header nav').getByRole('link', { name: 'File manager' }).click();
    await page.waitForURL('**/file');
    await page.getByRole('heading', { name: 'File manager' }).waitFor();
    await fileRow(page, '.knowledgebase').waitFor();

    // New folder.
    await page.getByRole('button', { name: 'New folder' }).click();
    const nameDialog = page.getByRole('dialog', { name: 'New folder' });
    await nameDialog.getByLabel('Name').fill('Archive');
    await nameDialog.getByLabel('Name').press('Enter');
    await nameDialog.waitFor({ state: 'hidden' });
    await fileRow(page, 'Archive').waitFor();

    // Drop the folder `reports` (q1.txt and sub/q2.md) onto the upload area.
    await page.getByRole('button', { name: 'Upload' }).click();
    const upload = page.getByRole('dialog', { name: 'Upload files' });
    await dropFolder(
      context,
      page,
      upload.getByText('Drop files or folders here'),
      path.join(dropDir, 'reports'),
    );
    const entries = upload.getByTestId('upload-entry');
    await expect
      .poll(() => entries.evaluateAll((els) => els.map((e) => e.getAttribute('data-path')).sort()), POLL)
      .toEqual(['reports/q1.txt', 'reports/sub/q2.md']);
    await expect
      .poll(() => upload.locator('[data-testid="upload-entry"][data-state="uploaded"]').count(), POLL)
      .toBe(2);
    await upload.getByTestId('upload-summary').getByText('2 of 2 uploaded, 0 failed').waitFor();
    await upload.getByRole('button', { name: 'Close' }).last().click();
    await upload.waitFor({ state: 'hidden' });

    // The folders were recreated: reports/ holds q1.txt and sub/.
    await fileRow(page, 'reports').getByRole('link', { name: 'reports' }).click();
    await page.waitForURL(/\/file\?folder=/);
    await fileRow(page, 'q1.txt').waitFor();
    await fileRow(page, 'sub').waitFor();
    await expect
      .poll(() => page.getByRole('navigation', { name: 'Folder path' }).innerText(), POLL)
      .toContain('reports');

    // Move q1.txt into Archive with the folder picker.
    await rowAction(page, 'q1.txt', 'Move');
    const move = page.getByRole('dialog', { name: 'Move 1 item(s)' });
    await move.getByRole('treeitem', { name: 'Archive' }).click();
    await move.getByRole('button', { name: 'Move here' }).click();
    await move.waitFor({ state: 'hidden' });
    await fileRow(page, 'q1.txt').waitFor({ state: 'detached' });
    await page
      .getByRole('navigation', { name: 'Folder path' })
      .getByRole('link', { name: 'All files' })
      .click();
    await fileRow(page, 'Archive').getByRole('link', { name: 'Archive' }).click();
    await fileRow(page, 'q1.txt').waitFor();

    // Link it to the knowledge base, parsing on creation.
    await rowAction(page, 'q1.txt', 'Link to knowledge base');
    const link = page.getByRole('dialog', { name: 'Link 1 item(s) to knowledge bases' });
    await link.getByLabel('Knowledge bases').click();
    await page.locator('.ant-select-item-option', { hasText: 'Solar KB' }).click();
    await link.getByLabel('Knowledge bases').press('Escape');
    expect(await link.getByRole('switch', { name: 'Parse on creation' }).getAttribute('aria-checked')).toBe(
      'true',
    );
    await link.getByRole('button', { name: 'Link' }).click();
    await page.getByText('Linked!').waitFor();
    await link.waitFor({ state: 'hidden' });
    await fileRow(page, 'q1.txt').getByTestId('file-kbs').getByText('Solar KB').waitFor();

    // The knowledge base's Files tab lists it, and its document reaches success.
    await page.goto(`/knowledge/${kbId}/files`);
    const linked = page.locator('tr.ant-table-row', { hasText: 'q1.txt' });
    await linked.locator('[data-run="3"]').waitFor({ timeout: PARSE_TIMEOUT });
    await page.getByRole('tab', { name: 'Dataset' }).click();
    const doc = page.locator('tr.ant-table-row', { has: page.getByTestId('doc-name').getByText('q1.txt') });
    await doc.locator('[data-run="3"]').waitFor({ timeout: PARSE_TIMEOUT });
    await context.close();
  });

  it('previews a DOCX as its text in a sandboxed frame', async () => {
    const context = await browser.newContext({ reducedMotion: 'reduce', baseURL: server.url });
    context.setDefaultTimeout(20_000);
    const page = await context.newPage();
    await registerAndSignIn(page, { nickname: 'Dee', email: `docx.${Date.now()}@example.com`, password });
    await page.goto('/file');
    await page.getByRole('heading', { name: 'File manager' }).waitFor();

    await page.getByRole('button', { name: 'Upload' }).click();
    const upload = page.getByRole('dialog', { name: 'Upload files' });
    const buffer = await makeDocx([
      ['Heading1', 'Harbour report'],
      ['', 'The lighthouse keeper logged forty-two ships.'],
    ]);
    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser'),
      upload.locator('button', { hasText: 'Choose files' }).click(),
    ]);
    await chooser.setFiles({ name: 'harbour.docx', mimeType: 'application/octet-stream', buffer });
    await upload.getByTestId('upload-summary').getByText('1 of 1 uploaded, 0 failed').waitFor();
    await upload.getByRole('button', { name: 'Close' }).last().click();
    await upload.waitFor({ state: 'hidden' });

    await fileRow(page, 'harbour.docx').getByRole('button', { name: 'harbour.docx', exact: true }).click();
    const frame = page.getByTestId('docx-preview');
    await frame.waitFor();
    expect(await frame.getAttribute('sandbox')).toBe('');
    const inside = page.frameLocator('[data-testid="docx-preview"]');
    await inside.getByText('Harbour report', { exact: true }).waitFor();
    await inside.getByText('The lighthouse keeper logged forty-two ships.').waitFor();
    expect(await page.getByText('This file type cannot be shown here').count()).toBe(0);
    await context.close();
  });
});
