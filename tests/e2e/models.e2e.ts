import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { startOpenAIStandin, type Standin } from '../../apps/server/test/standins/index.js';
import { POLL, launchBrowser, registerAndSignIn, startServer, type RunningServer } from './helpers';

/**
 * Settings → Model providers as a new user meets it: register, find the OpenAI-API-Compatible provider
 * in the catalogue, add a chat and an embedding model served by a stand-in OpenAI server on 127.0.0.1
 * (the server checks each with a real call, MODEL_VERIFY stays on), choose them as system default
 * models, reload and find them kept, and delete one after confirming.
 */

const email = `lin.${Date.now()}@example.com`;
const password = 'models-password-1';
const FACTORY = 'OpenAI-API-Compatible';

let standin: Standin;
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  standin = await startOpenAIStandin({ embeddingDim: 64 });
  server = await startServer({ MODEL_VERIFY: 'true', MODEL_VERIFY_TIMEOUT_MS: '5000' });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await standin?.close();
});

const token = (page: Page) => page.evaluate(() => localStorage.getItem('Authorization') ?? '');

async function apiGet<T>(page: Page, route: string): Promise<T> {
  const res = await fetch(`${server.url}/v1/${route}`, { headers: { Authorization: await token(page) } });
  const body = (await res.json()) as { code: number; data: T };
  expect(body.code).toBe(0);
  return body.data;
}

/** Picks an option of a searchable antd select with the keyboard: type to filter, Enter to choose. */
async function choose(select: Locator, option: string) {
  await select.click();
  await select.fill(option);
  await select.press('Enter');
  await select
    .locator('xpath=ancestor::div[contains(@class,"ant-select ")][1]')
    .getByText(option, { exact: true })
    .waitFor();
}

/** Clicks one choice of the catalogue's model-type filter. */
async function filter(page: Page, label: string) {
  await page
    .getByRole('radiogroup', { name: 'Filter by model type' })
    .locator('label', { hasText: new RegExp(`^${label}$`) })
    .click();
}

/** Waits for a toast, then for it to go, so the next toast of the same text is a new one. */
async function toast(page: Page, text: string) {
  const node = page.locator('.ant-message').getByText(text, { exact: true });
  await node.first().waitFor();
  await node.first().waitFor({ state: 'hidden', timeout: 15_000 });
}

describe('model providers in the browser', () => {
  it('adds an OpenAI-compatible chat and embedding model, sets them as defaults, keeps them and deletes one', async () => {
    const context = await browser.newContext({
      reducedMotion: 'reduce',
      baseURL: server.url,
      viewport: { width: 1280, height: 900 },
    });
    const page = await context.newPage();

    // Register and sign in, keyboard first.
    await registerAndSignIn(page, { nickname: 'Lin', email, password });

    // Settings → Model providers: nothing configured yet.
    await page.getByRole('button', { name: 'Account menu for Lin' }).click();
    await page.getByRole('menuitem', { name: 'User settings' }).click();
    await page.getByRole('link', { name: 'Model providers' }).click();
    await page.waitForURL('**/user-setting/model');
    await page.getByRole('heading', { name: 'Model providers' }).waitFor();
    await page.getByText('No model providers yet. Add one from the list below.').waitFor();

    // The catalogue: search box and model-type filter.
    const catalogue = page.getByRole('list', { name: 'Models to be added' });
    const card = (name: string) => catalogue.getByRole('listitem', { name, exact: true });
    await card('OpenAI').waitFor();
    await expect.poll(() => catalogue.getByRole('listitem').count(), POLL).toBeGreaterThanOrEqual(30);
    await filter(page, 'Rerank');
    await card('Jina').waitFor();
    await card('Anthropic').waitFor({ state: 'detached' });
    await filter(page, 'All');
    await page.getByLabel('Search providers').fill('compatible');
    await card(FACTORY).waitFor();
    await card('OpenAI').waitFor({ state: 'detached' });
    await page.getByLabel('Search providers').fill('no such provider');
    await page.getByText('No provider matches your search.').waitFor();
    await page.getByLabel('Search providers').fill('compatible');

    // Add the chat model. Empty form: the SPEC §5 checks show on the page.
    await card(FACTORY)
      .getByRole('button', { name: `Add a ${FACTORY} model` })
      .click();
    const dialog = page.getByRole('dialog', { name: `Add a ${FACTORY} model` });
    await dialog.waitFor();
    await dialog.getByLabel('Model name').press('Enter');
    await dialog.getByText('Model name is required.').waitFor();
    await dialog.getByText('Base URL is required.').waitFor();
    await expect.poll(() => dialog.getByText('API key is required.').count(), POLL).toBe(0); // optional for local providers

    // A base url nothing listens on: the server's probe fails and its code-102 message shows here.
    await dialog.getByLabel('Model name').fill('standin-chat');
    await dialog.getByLabel('Base URL').fill('http://127.0.0.1:9/v1');
    await dialog.getByLabel('Base URL').press('Enter');
    await dialog
      .getByRole('alert')
      .getByText(`Fail to access model(${FACTORY}/standin-chat)`, { exact: false })
      .waitFor();
    await expect.poll(() => page.getByRole('dialog').count(), POLL).toBe(1);

    // The stand-in: Verify shows the probe result, Enter saves.
    await dialog.getByLabel('Base URL').fill(standin.url);
    await dialog.getByRole('button', { name: 'Verify' }).click();
    await dialog.getByText('It works: the provider answered.').waitFor();
    await dialog.getByLabel('Model name').press('Enter');
    await toast(page, 'Created!');
    await dialog.waitFor({ state: 'detached' });

    const added = page.getByRole('region', { name: FACTORY });
    await added.getByText('standin-chat', { exact: true }).waitFor();

    // The embedding model, from the provider's own card.
    await added.getByRole('button', { name: 'Add the model' }).click();
    await dialog.waitFor();
    await choose(dialog.getByLabel('Model type'), 'Embedding');
    await dialog.getByLabel('Model name').fill('standin-embed');
    await dialog.getByLabel('Base URL').fill(standin.url);
    await dialog.getByLabel('Base URL').press('Enter');
    await toast(page, 'Created!');
    await added.getByText('standin-embed', { exact: true }).waitFor();
    const embedRow = added.getByRole('row', { name: /standin-embed/ });
    await embedRow.getByText('Embedding', { exact: true }).waitFor();
    await added
      .getByRole('row', { name: /standin-chat/ })
      .getByText('Chat', { exact: true })
      .waitFor();

    // Both checks really reached the stand-in.
    const paths = standin.modelCalls().map((r) => r.path);
    expect(paths.some((p) => p.endsWith('/chat/completions'))).toBe(true);
    expect(paths.some((p) => p.endsWith('/embeddings'))).toBe(true);

    // System default models: choose the two, save.
    await page.getByRole('button', { name: 'System default models' }).click();
    const defaults = page.getByRole('dialog', { name: 'System default models' });
    await defaults.waitFor();
    await choose(defaults.getByLabel('Chat model'), 'standin-chat');
    await choose(defaults.getByLabel('Embedding model'), 'standin-embed');
    await defaults.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Updated!');
    await defaults.waitFor({ state: 'detached' });
    const info = await apiGet<{ llm_id: string; embd_id: string }>(page, 'user/tenant_info');
    expect(info.llm_id).toBe(`standin-chat___OpenAI-API@${FACTORY}`);
    expect(info.embd_id).toBe(`standin-embed___OpenAI-API@${FACTORY}`);

    // Reload: the choices are kept; Esc closes the dialog.
    await page.reload();
    await page.getByRole('button', { name: 'System default models' }).click();
    await defaults.waitFor();
    const shown = (label: string) =>
      defaults
        .locator('.ant-form-item', { has: page.getByText(label, { exact: true }) })
        .locator('.ant-select');
    await shown('Chat model').getByText('standin-chat', { exact: true }).waitFor();
    await shown('Embedding model').getByText('standin-embed', { exact: true }).waitFor();
    await page.keyboard.press('Escape');
    await defaults.waitFor({ state: 'detached' });

    // Delete the embedding model after confirming.
    await added.getByRole('button', { name: 'Delete standin-embed' }).click();
    const confirm = page.locator('.ant-popconfirm:visible');
    await confirm.getByText('Delete the model standin-embed?').waitFor();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await toast(page, 'Deleted!');
    await added.getByText('standin-embed', { exact: true }).waitFor({ state: 'detached' });
    await added.getByText('standin-chat', { exact: true }).waitFor();
    const mine = await apiGet<Record<string, { llm: Array<{ name: string }> }>>(page, 'llm/my_llms');
    expect(mine[FACTORY].llm.map((m) => m.name)).toEqual(['standin-chat___OpenAI-API']);

    await context.close();
  });
});
