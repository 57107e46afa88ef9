import type { Locator, Page } from 'playwright-core';

/**
 * Set-up steps of the chat browser test, done through the UI as a new user would: sign up and in,
 * add the OpenAI-compatible stand-in's chat and embedding models as system defaults, and build a
 * knowledge base from one parsed Markdown document.
 */

const FACTORY = 'OpenAI-API-Compatible';

/** The document the knowledge base is built from. */
export const DOC = [
  '# Heat pumps',
  '',
  'A heat pump moves heat from the outside air into the house, even in winter.',
  '',
  '## Efficiency',
  '',
  'Modern air-source heat pumps keep working down to minus twenty degrees Celsius.',
  '',
  '## Maintenance',
  '',
  'Clean the outdoor unit and check the refrigerant pressure once a year.',
].join('\n');

/** Picks an option of a searchable antd select: type to filter, Enter to choose. */
export async function choose(select: Locator, option: string) {
  await select.click();
  await select.fill(option);
  await select.press('Enter');
}

/** Waits for a toast, then for it to go, so the next toast of the same text is a new one. */
export function toaster(page: Page) {
  return async (text: string) => {
    const node = page.locator('.ant-message').getByText(text, { exact: true });
    try {
      await node.first().waitFor();
    } catch (error) {
      throw new Error(`no toast "${text}": ${await whatIsShown(page)}`, { cause: error });
    }
    await node.first().waitFor({ state: 'hidden', timeout: 15_000 });
  };
}

const pageErrors = new WeakMap<Page, string[]>();

/** Keeps the page's uncaught errors and console errors, so a failure can tell what went wrong inside. */
export function watchPageErrors(page: Page): void {
  const errors: string[] = [];
  pageErrors.set(page, errors);
  page.on('pageerror', (error) => errors.push(String(error)));
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
}

/** What the page shows instead (toasts, open dialogs), for a readable failure; saves a screenshot too. */
export async function whatIsShown(page: Page): Promise<string> {
  const texts = async (selector: string) =>
    (
      await page
        .locator(selector)
        .allInnerTexts()
        .catch(() => [])
    ).map((t) => t.replace(/\s+/g, ' ').trim());
  await page.screenshot({ path: `.tmp/test-results/e2e-failure-${Date.now()}.png` }).catch(() => undefined);
  return JSON.stringify({
    url: page.url(),
    toasts: await texts('.ant-message-notice'),
    dialogs: await texts('.ant-modal'),
    errors: pageErrors.get(page) ?? [],
  });
}

/**
 * Clicks `button` and waits for `gone` (a dialog or drawer) to close. Under CPU starvation Chromium
 * now and then drops a click on a dialog that is still settling (CI saw it twice, a person would
 * click again), so a click with no effect after 5 s is repeated, at most twice; a third miss fails
 * with what the page shows.
 */
export async function clickUntilGone(page: Page, button: Locator, gone: Locator): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    if (await gone.isHidden()) return;
    await button.click({ timeout: 10_000 }).catch(() => undefined);
    try {
      await gone.waitFor({ state: 'hidden', timeout: 5_000 });
      return;
    } catch (error) {
      if (attempt >= 3)
        throw new Error(`still open after ${attempt} clicks: ${await whatIsShown(page)}`, { cause: error });
    }
  }
}

/** Settings → Model providers: the stand-in's chat and embedding models, chosen as system defaults. */
export async function addStandinModels(page: Page, nickname: string, standinUrl: string) {
  const toast = toaster(page);
  await page.getByRole('button', { name: `Account menu for ${nickname}` }).click();
  await page.getByRole('menuitem', { name: 'User settings' }).click();
  await page.getByRole('link', { name: 'Model providers' }).click();
  await page.getByLabel('Search providers').fill('compatible');
  const catalogue = page.getByRole('list', { name: 'Models to be added' });
  await catalogue
    .getByRole('listitem', { name: FACTORY, exact: true })
    .getByRole('button', { name: `Add a ${FACTORY} model` })
    .click();
  const dialog = page.getByRole('dialog', { name: `Add a ${FACTORY} model` });
  await dialog.getByLabel('Model name').fill('standin-chat');
  await dialog.getByLabel('Base URL').fill(standinUrl);
  await dialog.getByLabel('Base URL').press('Enter');
  await toast('Created!');
  const added = page.getByRole('region', { name: FACTORY });
  await added.getByRole('button', { name: 'Add the model' }).click();
  await dialog.waitFor();
  await choose(dialog.getByLabel('Model type'), 'Embedding');
  await dialog.getByLabel('Model name').fill('standin-embed');
  await dialog.getByLabel('Base URL').fill(standinUrl);
  await dialog.getByLabel('Base URL').press('Enter');
  await toast('Created!');
  await page.getByRole('button', { name: 'System default models' }).click();
  const defaults = page.getByRole('dialog', { name: 'System default models' });
  await choose(defaults.getByLabel('Chat model'), 'standin-chat');
  await choose(defaults.getByLabel('Embedding model'), 'standin-embed');
  await defaults.getByRole('button', { name: 'Save' }).click();
  await toast('Updated!');
}

/** Knowledge base `name` → upload the Markdown file with "parse on creation" (on by default) → wait for success. */
export async function buildKnowledgeBase(page: Page, name: string) {
  await page.locator('header nav').getByRole('link', { name: 'Knowledge base' }).click();
  await page.getByRole('button', { name: 'Create knowledge base' }).first().click();
  await page.getByRole('dialog').getByLabel('Name').fill(name);
  await page.getByRole('dialog').getByLabel('Name').press('Enter');
  await page.waitForURL(/\/knowledge\/[0-9a-f]{32}\/dataset$/);
  await page.getByRole('button', { name: 'Upload files' }).click();
  const upload = page.getByRole('dialog', { name: 'Upload files' });
  await upload
    .locator('input[type=file]')
    .setInputFiles([{ name: 'heat-pumps.md', mimeType: 'text/markdown', buffer: Buffer.from(DOC) }]);
  await upload.getByLabel('Parse on creation').check(); // on by default
  await upload.getByRole('button', { name: 'Upload (1)' }).click();
  await page.getByText('Uploaded!').waitFor();
  await upload.getByRole('button', { name: 'Close' }).last().click();
  const row = page.locator('tr.ant-table-row', { hasText: 'heat-pumps.md' });
  await row.locator('[data-run="3"]').waitFor({ timeout: 90_000 });
}
