import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { makeDocx, makeXlsx } from './fixtures/office';
import { makePdf } from './fixtures/pdf';
import { POLL, launchBrowser, registerAndSignIn, startServer, type RunningServer } from './helpers';

/**
 * The knowledge-base issue as a new user meets it: register, create a knowledge base, upload a PDF, a
 * DOCX and an XLSX (generated here), parse them and watch them reach success, change one's chunk method
 * and re-parse it (answering the clear-chunks question), disable one, delete one, edit the settings and
 * finally delete the knowledge base. Parsing is real (keyword-only: the built-in embedding model is not
 * available offline).
 */

const email = `kb.${Date.now()}@example.com`;
const password = 'kb-password-123';
const PARSE_TIMEOUT = 90_000;

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const row = (page: Page, name: string): Locator =>
  page.locator('tr.ant-table-row', { has: page.getByTestId('doc-name').getByText(name, { exact: true }) });

const runOf = (page: Page, name: string) => row(page, name).locator('[data-run]').getAttribute('data-run');

async function waitForRun(page: Page, name: string, run: string) {
  await row(page, name).locator(`[data-run="${run}"]`).waitFor({ timeout: PARSE_TIMEOUT });
}

const WORDS = (
  'solar panel inverter battery grid voltage current storage charge cycle sunlight roof angle shade ' +
  'cable meter tariff export import season winter summer output peak load demand efficiency cell module'
).split(' ');

/** Deterministic, page-specific sentences (no line repeats across pages, so none is taken for a running header). */
function proseLines(page: number, count: number): string[] {
  let seed = page * 7919 + 17;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
  return Array.from({ length: count }, (_, line) => {
    const words = Array.from({ length: 9 }, () => WORDS[next() % WORDS.length]);
    return `${page + 1}.${line + 1} The ${words.join(' ')}.`;
  });
}

describe('knowledge bases in the browser', () => {
  it('creates a knowledge base, uploads and parses three documents, manages them and deletes it', async () => {
    const context = await browser.newContext({
      reducedMotion: 'reduce',
      baseURL: server.url,
      viewport: { width: 1400, height: 900 },
    });
    const page = await context.newPage();
    await registerAndSignIn(page, { nickname: 'Kim', email, password });

    // The list starts empty.
    await page.locator('header nav').getByRole('link', { name: 'Knowledge base' }).click();
    await page.waitForURL('**/knowledge');
    await page.getByText('No knowledge base yet. Create one to upload and parse your documents.').waitFor();

    // Create: the name is required and limited to 128 bytes; Enter submits and opens the new KB.
    await page.getByRole('button', { name: 'Create knowledge base' }).first().click();
    const nameBox = page.getByRole('dialog').getByLabel('Name');
    await nameBox.press('Enter');
    await page.getByText('Please input name!').waitFor();
    await nameBox.fill('知'.repeat(43)); // 43 characters, 129 bytes
    await nameBox.press('Enter');
    await page.getByText('The name must be at most 128 bytes (UTF-8).').waitFor();
    await nameBox.fill('Energy notes');
    await nameBox.press('Enter');
    await page.waitForURL(/\/knowledge\/[0-9a-f]{32}\/dataset$/);
    await page.getByRole('heading', { name: 'Energy notes' }).waitFor();
    await page.getByText('No documents yet. Upload files to build this knowledge base.').waitFor();
    const tabs = ['Dataset', 'Retrieval testing', 'Files', 'Configuration', 'Knowledge graph'];
    for (const tab of tabs) await page.getByRole('tab', { name: tab }).waitFor();

    // Upload three generated files (and one the client refuses), parsing them on creation.
    // 150 pages of varied prose, so that parsing takes long enough to be watched.
    const pdf = makePdf(Array.from({ length: 150 }, (_, i) => proseLines(i, 8)));
    const docx = await makeDocx([
      ['Heading1', 'Wind turbines'],
      ['', 'Wind turbines turn moving air into electric power.'],
      ['Heading1', 'Siting'],
      ['', 'Turbines are placed on ridges where the wind is steady.'],
    ]);
    const xlsx = await makeXlsx('Plants', [
      ['Plant', 'Source', 'Capacity (MW)'],
      ['Alpha', 'Solar', 120],
      ['Beta', 'Wind', 80],
      ['Gamma', 'Hydro', 300],
    ]);
    await page.getByRole('button', { name: 'Upload files' }).click();
    const dialog = page.getByRole('dialog', { name: 'Upload files' });
    await dialog.locator('input[type=file]').setInputFiles([
      { name: 'solar.pdf', mimeType: 'application/pdf', buffer: pdf },
      {
        name: 'wind.docx',
        mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        buffer: docx,
      },
      {
        name: 'plants.xlsx',
        mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        buffer: xlsx,
      },
      { name: 'setup.exe', mimeType: 'application/octet-stream', buffer: Buffer.from('MZ') },
    ]);
    await dialog.getByText('The file type .exe is not supported.').waitFor();
    await expect
      .poll(() => dialog.locator('[data-testid="upload-entry"][data-state="ready"]').count(), POLL)
      .toBe(3);
    await dialog.getByLabel('Parse on creation').check(); // on by default

    // Record every parsing status the table shows from now on, to see the live progress.
    await page.evaluate(() => {
      const seen = new Set<string>();
      (window as unknown as { seenRuns: Set<string> }).seenRuns = seen;
      const record = () =>
        document.querySelectorAll('[data-run]').forEach((n) => seen.add(n.getAttribute('data-run') ?? ''));
      new MutationObserver(record).observe(document.body, {
        subtree: true,
        childList: true,
        attributes: true,
        attributeFilter: ['data-run'],
      });
    });
    await dialog.getByRole('button', { name: 'Upload (3)' }).click();
    await page.getByText('Uploaded!').waitFor();
    await expect
      .poll(() => dialog.locator('[data-testid="upload-entry"][data-state="uploaded"]').count(), POLL)
      .toBe(3);
    await expect
      .poll(() => dialog.locator('[data-testid="upload-entry"][data-state="failed"]').count(), POLL)
      .toBe(1);
    await dialog.getByText('Upload failed').waitFor();
    await dialog.locator('.ant-modal-footer').getByRole('button', { name: 'Close' }).click();

    // All three parse to success.
    for (const name of ['solar.pdf', 'wind.docx', 'plants.xlsx']) await waitForRun(page, name, '3');
    const seen = await page.evaluate(() => [...(window as unknown as { seenRuns: Set<string> }).seenRuns]);
    expect(seen).toContain('1'); // "Parsing n%" was on screen before "Success"
    for (const name of ['solar.pdf', 'wind.docx', 'plants.xlsx']) {
      const chunks = Number(await row(page, name).locator('td').nth(3).innerText());
      expect(chunks, `${name} chunks`).toBeGreaterThan(0);
    }
    await row(page, 'solar.pdf').getByText('Success').waitFor();
    // The progress message: a timestamped log ending with "Task done".
    await row(page, 'solar.pdf').getByRole('button', { name: 'Parsing log of solar.pdf' }).click();
    const log = page.getByRole('list', { name: 'Parsing log' });
    await log
      .getByText(/Task done/)
      .last()
      .waitFor();
    await expect.poll(() => log.locator('li').first().innerText(), POLL).toMatch(/^\d{1,2}:\d{2}:\d{2} /);
    await page.keyboard.press('Escape');

    // Change the PDF's chunk method to "One" on pages 1–100, with the page-range rules on the way.
    await row(page, 'solar.pdf').getByRole('button', { name: 'More actions for solar.pdf' }).click();
    await page.getByRole('menuitem', { name: 'Chunk method' }).click();
    const parser = page.getByRole('dialog', { name: 'Chunk method of solar.pdf' });
    await parser.getByLabel('Chunk method').click();
    await page.keyboard.type('One');
    await page.keyboard.press('Enter');
    await parser.getByText('The whole document becomes a single chunk.').waitFor();
    await parser.getByRole('button', { name: 'Add page range' }).click();
    await parser.getByRole('button', { name: 'Save' }).click();
    await parser.getByText('Please enter the start page.').waitFor();
    await parser.getByText('Please enter the end page.').waitFor();
    await parser.getByLabel('Start page of range 1').fill('2');
    await parser.getByLabel('End page of range 1').fill('1');
    await parser.getByRole('button', { name: 'Save' }).click();
    await parser.getByText('The end page must be greater than the start page.').waitFor();
    await parser.getByLabel('Start page of range 1').fill('1');
    await parser.getByLabel('End page of range 1').fill('100');
    await parser.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Modified!').waitFor();
    await parser.waitFor({ state: 'hidden' });
    await waitForRun(page, 'solar.pdf', '0');
    await row(page, 'solar.pdf').getByText('One', { exact: true }).waitFor();

    // Parse it with the new method: one chunk.
    await row(page, 'solar.pdf').getByRole('button', { name: 'Parse solar.pdf' }).click();
    await waitForRun(page, 'solar.pdf', '3');
    await expect.poll(() => row(page, 'solar.pdf').locator('td').nth(3).innerText(), POLL).toBe('1');

    // Re-parse: the clear-chunks question is asked and answered.
    await row(page, 'solar.pdf').getByRole('button', { name: 'Re-parse solar.pdf' }).click();
    const question = page.getByRole('dialog', { name: 'Re-parse 1 document(s)' });
    await question
      .getByText('These documents were parsed before. Clear the existing chunks first?')
      .waitFor();
    await question.getByLabel('Yes, clear the existing chunks, then parse').check();
    await page.evaluate(() => (window as unknown as { seenRuns: Set<string> }).seenRuns.clear());
    await question.getByRole('button', { name: 'Re-parse' }).click();
    await page.getByText('Operated!').last().waitFor();
    // Running again first, then success again.
    await page.waitForFunction(() => (window as unknown as { seenRuns: Set<string> }).seenRuns.has('1'));
    await waitForRun(page, 'solar.pdf', '3');
    await expect.poll(() => row(page, 'solar.pdf').locator('td').nth(3).innerText(), POLL).toBe('1');

    // Disable the DOCX; the switch stays off after a reload.
    await row(page, 'wind.docx').getByRole('switch', { name: 'Enable wind.docx' }).click();
    await page.getByText('Modified!').first().waitFor();
    await page.reload();
    await row(page, 'wind.docx').waitFor();
    await expect
      .poll(() => row(page, 'wind.docx').getByRole('switch', { name: 'Enable wind.docx' }).isChecked(), POLL)
      .toBe(false);
    await expect
      .poll(() => row(page, 'solar.pdf').getByRole('switch', { name: 'Enable solar.pdf' }).isChecked(), POLL)
      .toBe(true);

    // Delete the XLSX after confirming.
    await row(page, 'plants.xlsx').getByRole('button', { name: 'More actions for plants.xlsx' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByText('“plants.xlsx” and its chunks will be deleted. This cannot be undone.').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Deleted!').waitFor();
    await row(page, 'plants.xlsx').waitFor({ state: 'detached' });
    await page.getByText('Total: 2').waitFor();
    expect(await runOf(page, 'wind.docx')).toBe('3');

    // Keyword search and the status filter.
    const search = page.getByLabel('Search documents');
    await search.fill('WIND');
    await search.press('Enter');
    await row(page, 'solar.pdf').waitFor({ state: 'detached' });
    await row(page, 'wind.docx').waitFor();
    await search.fill('');
    await search.press('Enter');
    await row(page, 'solar.pdf').waitFor();
    await page.getByLabel('Parsing status').click();
    const failedOption = page.locator('.ant-select-item-option', { hasText: 'Failed' });
    await failedOption.click();
    await page.getByText('No document matches the search or filter.').waitFor();
    await failedOption.click();
    await page.keyboard.press('Escape');
    await row(page, 'solar.pdf').waitFor();

    // Rename: the extension stays; a name is required.
    await row(page, 'wind.docx').getByRole('button', { name: 'More actions for wind.docx' }).click();
    await page.getByRole('menuitem', { name: 'Rename' }).click();
    const rename = page.getByRole('dialog', { name: 'Rename document' });
    await rename.getByText('The extension .docx cannot be changed.').waitFor();
    await rename.getByLabel('Document name').fill(' ');
    await rename.getByLabel('Document name').press('Enter');
    await rename.getByText('Please enter a name.').waitFor();
    await rename.getByLabel('Document name').fill('turbines');
    await rename.getByLabel('Document name').press('Enter');
    await page.getByText('Renamed!').waitFor();
    await row(page, 'turbines.docx').waitFor();

    // Metadata: only a JSON object is accepted.
    await row(page, 'turbines.docx').getByRole('button', { name: 'More actions for turbines.docx' }).click();
    await page.getByRole('menuitem', { name: 'Set metadata' }).click();
    const meta = page.getByRole('dialog', { name: 'Metadata of turbines.docx' });
    const metaBox = meta.getByLabel('Metadata (JSON)');
    await metaBox.fill('{"author": ');
    await meta.getByRole('button', { name: 'Save' }).click();
    await meta.getByText(/^This is not valid JSON: /).waitFor();
    await metaBox.fill('["a"]');
    await meta.getByRole('button', { name: 'Save' }).click();
    await meta.getByText('The metadata must be a JSON object, e.g. {"author": "Ada"}.').waitFor();
    await metaBox.fill('{"author": "Kim", "year": 2024}');
    await meta.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Modified!').first().waitFor();
    await meta.waitFor({ state: 'hidden' });

    // A file whose content contradicts its extension: the server refuses the batch, nothing is stored.
    await page.getByRole('button', { name: 'Upload files' }).click();
    const again = page.getByRole('dialog', { name: 'Upload files' });
    await again.locator('input[type=file]').setInputFiles([
      {
        name: 'broken.docx',
        mimeType: 'application/octet-stream',
        buffer: Buffer.from('this is not a zip archive'),
      },
    ]);
    await again.getByRole('button', { name: 'Upload (1)' }).click();
    await again.locator('[data-testid="upload-entry"][data-state="failed"]').waitFor();
    await again
      .getByText(/There seems to be an issue with your file format/)
      .first()
      .waitFor();
    await again.locator('.ant-modal-footer').getByRole('button', { name: 'Close' }).click();
    await page.getByText('Total: 2').waitFor();

    // Configuration: the embedding model is locked now that chunks exist; validation, then a save.
    await page.getByRole('tab', { name: 'Configuration' }).click();
    await page.waitForURL(/\/configuration$/);
    await page.getByText(/the embedding model can only change after all chunks are deleted/).waitFor();
    const tokens = page.getByLabel('Recommended chunk size (tokens)');
    await tokens.fill('');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Please enter the chunk token number.').waitFor();
    await tokens.fill('4096');
    await page.getByText('Enter a number from 1 to 2048.').waitFor();
    await tokens.fill('256');
    await page.getByLabel('Description').fill('Notes about renewable energy');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Updated!').waitFor();
    await page.getByText('Notes about renewable energy').first().waitFor();

    // Back to the list: the card with its counts, the end marker, then delete the KB from its menu.
    await page.getByRole('link', { name: 'Knowledge base', exact: true }).first().click();
    await page.waitForURL('**/knowledge');
    const card = page.getByRole('listitem').filter({ hasText: 'Energy notes' });
    await card.getByText('Documents: 2').waitFor();
    await card.getByText('Notes about renewable energy').waitFor();
    await page.getByText('No more data').waitFor();
    await card.getByRole('button', { name: 'Actions for Energy notes' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Deleted!').waitFor();
    await page.getByText('No knowledge base yet. Create one to upload and parse your documents.').waitFor();
    await context.close();
  });

  it('loads the list page by page while scrolling, searches it, and ends with "No more data"', async () => {
    const register = await fetch(`${server.url}/v1/user/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ nickname: 'Lee', email: `lee.${Date.now()}@example.com`, password }),
    });
    const token = register.headers.get('Authorization') ?? '';
    for (let i = 1; i <= 35; i++) {
      const res = await fetch(`${server.url}/v1/kb/create`, {
        method: 'POST',
        headers: { Authorization: token, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: `Shelf ${String(i).padStart(2, '0')}` }),
      });
      expect(((await res.json()) as { code: number }).code).toBe(0);
    }
    const context = await browser.newContext({
      reducedMotion: 'reduce',
      baseURL: server.url,
      viewport: { width: 1400, height: 900 },
    });
    const page = await context.newPage();
    await page.goto(`/knowledge?auth=${encodeURIComponent(token)}`);
    const cards = page.getByRole('list', { name: 'Knowledge bases' }).getByRole('listitem');
    await cards.first().waitFor();
    await expect.poll(() => cards.count(), POLL).toBe(30); // the first page
    await page.mouse.wheel(0, 20_000);
    await page.getByText('No more data').waitFor();
    await expect.poll(() => cards.count(), POLL).toBe(35);
    await page.getByText('Shelf 01', { exact: true }).waitFor(); // the oldest, on page two

    const search = page.getByLabel('Search knowledge bases');
    await search.fill('shelf 3');
    await search.press('Enter');
    await page.waitForFunction(() => document.querySelectorAll('[role="listitem"]').length === 6);
    await search.fill('nothing like this');
    await search.press('Enter');
    await page.getByText('No knowledge base matches “nothing like this”.').waitFor();
    await context.close();
  });
});
