import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startOpenAIStandin, type Standin } from '../../apps/server/test/standins/index.js';
import { addStandinModels, toaster, watchPageErrors } from './chat-setup';
import { POLL, launchBrowser, startServer, type RunningServer } from './helpers';

/**
 * A new user's first minutes (issue 11, item 12, and the "shown once" keys of item 5), clicked as a
 * person does in a browser set to Berlin time: a too-long nickname is refused; sign-up signs in; the
 * account starts in the browser's time zone; with no chat or embedding model the home page says so
 * and leads to model setup, and stops saying it once they are chosen; the upload dialog parses on
 * creation by default; a wrong knowledge-base address says "not found"; a new API key is shown once,
 * the list has only its hint, the key works and the hint does not, and the key is deleted from the list;
 * a search app's share link is made in its dialog, shown once, listed by hint, and revoked from there.
 */

const email = `first.${Date.now()}@example.com`;
const password = 'first-run-123';
const nickname = 'Newbie';

let standin: Standin;
let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  standin = await startOpenAIStandin({ embeddingDim: 64, reply: () => 'Hello.', chunkDelayMs: 10 });
  server = await startServer();
  browser = await launchBrowser();
  context = await browser.newContext({
    reducedMotion: 'reduce',
    baseURL: server.url,
    viewport: { width: 1440, height: 960 },
    timezoneId: 'Europe/Berlin',
  });
  page = await context.newPage();
  watchPageErrors(page);
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
  await standin?.close();
});

const toast = (text: string) => toaster(page)(text);
const token = () => page.evaluate(() => localStorage.getItem('Authorization') ?? '');

async function apiAs<T>(credential: string, route: string, body?: unknown) {
  const res = await fetch(`${server.url}/v1/${route}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { Authorization: credential, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { code: number; message: string; data: T } };
}

describe('first run', () => {
  it(
    'signs up into the browser time zone, is led to model setup, and meets keys shown once',
    { timeout: 240_000 },
    async () => {
      // Sign-up: a nickname over 100 characters is refused in the form, nothing is sent.
      await page.goto('/login');
      await page.getByRole('button', { name: 'Sign up' }).click();
      await page.getByLabel('Nickname').fill('n'.repeat(101));
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password', { exact: true }).fill(password);
      await page.getByLabel('Confirm password').fill(password);
      await page.getByLabel('Confirm password').press('Enter');
      await page.getByText('The nickname is too long: at most 100 characters.').waitFor();
      // The server refuses it too (a client that skips the form).
      const direct = await apiAs('', 'user/register', { nickname: 'n'.repeat(101), email, password });
      expect(direct.body.message).toBe('`nickname` is too long (at most 100 characters).');

      // A fitting nickname: signed in at once, on the home page.
      await page.getByLabel('Nickname').fill(nickname);
      await page.getByLabel('Confirm password').press('Enter');
      await page.getByText('Registered!').waitFor();
      await page.waitForURL((url) => url.pathname === '/');
      expect(await token()).toBeTruthy();
      await page.getByRole('button', { name: `Account menu for ${nickname}` }).waitFor();

      // The account's time zone is the browser's (Berlin), not the server default.
      await expect
        .poll(
          async () => (await apiAs<{ timezone: string }>(await token(), 'user/info')).body.data.timezone,
          POLL,
        )
        .toBe('UTC+1\tEurope/Berlin');

      // No chat or embedding model yet: the home page says so and leads to model setup.
      const hint = page.getByRole('status').filter({ hasText: 'First, set up your models' });
      await hint.waitFor();
      await hint.getByRole('button', { name: 'Set up models' }).click();
      await page.waitForURL('**/user-setting/model');
      await page.getByRole('heading', { name: 'Model providers' }).first().waitFor();
      await addStandinModels(page, nickname, standin.url);
      await page.locator('header nav').getByRole('link', { name: 'Home' }).click();
      await page.waitForURL((url) => url.pathname === '/');
      await page
        .getByRole('heading', { name: `Welcome, ${nickname}`, exact: false })
        .first()
        .waitFor();
      await expect.poll(() => hint.count(), POLL).toBe(0);

      // Upload: "Parse on creation" is on by default.
      await page.locator('header nav').getByRole('link', { name: 'Knowledge base' }).click();
      await page.getByRole('button', { name: 'Create knowledge base' }).first().click();
      await page.getByRole('dialog').getByLabel('Name').fill('First notes');
      await page.getByRole('dialog').getByLabel('Name').press('Enter');
      await page.waitForURL(/\/knowledge\/[0-9a-f]{32}\/dataset$/);
      await page.getByRole('button', { name: 'Upload files' }).click();
      const upload = page.getByRole('dialog', { name: 'Upload files' });
      expect(await upload.getByLabel('Parse on creation').isChecked()).toBe(true);
      await page.keyboard.press('Escape');

      // A wrong knowledge-base address says "not found".
      await page.goto('/knowledge/0123456789abcdef0123456789abcdef/dataset');
      await page.getByText('This knowledge base cannot be opened').waitFor();
      await page.getByText('Knowledge base not found', { exact: false }).waitFor();

      // API keys: a new key is shown once with the warning; the list has only its hint.
      await page.goto('/user-setting/api');
      await page.getByRole('button', { name: 'Create new key' }).dblclick();
      await toast('Created!');
      const shown = (await page.getByTestId('new-api-key').innerText()).trim();
      expect(shown).toMatch(/^lectern-[A-Za-z0-9_-]{43}$/);
      await page.getByText('Copy it now: you will not see it again.', { exact: false }).waitFor();
      const hintText = `${shown.slice(0, 12)}****${shown.slice(-4)}`;
      const cell = page.getByRole('cell', { name: hintText });
      await cell.waitFor();
      // The double-click made one key.
      expect(await page.locator('tr.ant-table-row').count()).toBe(1);
      expect((await apiAs(`Bearer ${shown}`, 'kb/list', {})).body.code).toBe(0);
      expect((await apiAs(`Bearer ${hintText}`, 'kb/list', {})).status).toBe(401);
      // After a reload the key itself is gone from the page: only the hint is left.
      await page.reload();
      await cell.waitFor();
      expect(await page.getByText(shown).count()).toBe(0);
      // Deleted from the list (by its hint): the key stops working.
      await page.getByRole('button', { name: 'Delete key' }).click();
      await page.getByRole('tooltip').getByRole('button', { name: 'Delete' }).click();
      await toast('Deleted!');
      await expect.poll(() => cell.count(), POLL).toBe(0);
      expect((await apiAs(`Bearer ${shown}`, 'kb/list', {})).status).toBe(401);

      // A search app's share link: made in the dialog and shown once; the list has its hint; it opens
      // the public page; deleted from the list, it no longer does.
      await page.goto('/search');
      await page.getByTestId('create-search-app').click();
      const create = page.getByRole('dialog', { name: 'New search app' });
      await create.getByLabel('Name').fill('First search');
      await create.getByRole('button', { name: 'Save' }).click();
      await create.waitFor({ state: 'detached' });
      await page.getByTestId('search-app-First search').waitFor();
      await page.getByLabel('Share').first().click();
      const share = page.getByRole('dialog', { name: 'Share link' });
      await share.getByText('No share links yet.').waitFor();
      await share.getByRole('button', { name: 'Create share link' }).click();
      const link = new URL((await share.getByTestId('search-share-link').innerText()).trim());
      await share.getByText('Copy it now: you will not see it again.', { exact: false }).waitFor();
      const beta = link.searchParams.get('auth') as string;
      expect(beta).toMatch(/^[A-Za-z0-9_-]{32}$/);
      const betaHint = `${beta.slice(0, 4)}****${beta.slice(-4)}`;
      await share.getByTestId('share-link-hint').filter({ hasText: betaHint }).waitFor();
      const visitor = await browser.newPage({ baseURL: server.url });
      await visitor.goto(`${link.pathname}${link.search}`);
      await visitor.getByText('First search').first().waitFor();
      // The hint is no credential.
      const byHint = await fetch(
        `${server.url}/api/v1/searchbots/detail?search_id=${link.searchParams.get('shared_id')}`,
        {
          headers: { Authorization: `Bearer ${betaHint}` },
        },
      );
      expect(((await byHint.json()) as { code: number }).code).not.toBe(0);
      await share.getByRole('button', { name: 'Delete share key' }).click();
      await page.getByRole('tooltip').getByRole('button', { name: 'Delete' }).click();
      await toast('Deleted!');
      await share.getByText('No share links yet.').waitFor();
      await visitor.reload();
      await visitor.getByText('This search app is not available.').waitFor();
      const gone = await fetch(
        `${server.url}/api/v1/searchbots/detail?search_id=${link.searchParams.get('shared_id')}`,
        {
          headers: { Authorization: `Bearer ${beta}` },
        },
      );
      expect(((await gone.json()) as { code: number }).code).not.toBe(0);
      await visitor.close();
    },
  );
});
