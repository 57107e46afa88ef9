import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  POLL,
  isDarkColor,
  launchBrowser,
  makePng,
  pngSize,
  startServer,
  type RunningServer,
} from './helpers';

/**
 * The Foundation issue as a person uses it: register, sign in, look around, switch the language,
 * edit the profile, change the password, log out, and sign in again — clicks and typing only.
 */

const email = `ada.${Date.now()}@example.com`;
const oldPassword = 'first-password-1';
const newPassword = 'second-password-2';

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

async function newPage(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    reducedMotion: 'reduce',
    baseURL: server.url,
    viewport: { width: 1280, height: 900 },
  });
  const page = await context.newPage();
  return { context, page };
}

const storage = (page: Page, key: string) => page.evaluate((k) => localStorage.getItem(k), key);
const bodyBackground = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);

async function signIn(page: Page, password: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByLabel('Password').press('Enter');
}

describe('foundation in the browser', () => {
  it('registers, signs in, switches language, edits profile and password, logs out and signs in again', async () => {
    const { context, page } = await newPage();

    // A protected page without a credential lands on the sign-in page.
    await page.goto('/knowledge');
    await page.waitForURL('**/login');

    // Sign up with the keyboard: Enter submits.
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByLabel('Nickname').fill('Ada');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(oldPassword);
    await page.getByLabel('Confirm password').fill(oldPassword);
    await page.getByLabel('Confirm password').press('Enter');
    await page.getByText('Registered!').waitFor();

    // Sign-up signs in: the home page, with the session kept.
    await page.waitForURL((url) => url.pathname === '/');
    expect(await storage(page, 'Authorization')).toBeTruthy();
    expect(await storage(page, 'Token')).toBe(await storage(page, 'Authorization'));
    expect(JSON.parse((await storage(page, 'userInfo')) ?? '{}').email).toBe(email);

    // The header navigation (found by place, not by its label: the label is translated too).
    await page.getByRole('navigation', { name: 'Main navigation' }).waitFor();
    const nav = page.locator('header nav');
    for (const label of ['Home', 'Knowledge base', 'Chat', 'File manager', 'Agent', 'Search']) {
      await nav.getByRole('link', { name: label, exact: true }).waitFor();
    }
    await page.getByRole('button', { name: 'Account menu for Ada' }).waitFor();
    await nav.getByRole('link', { name: 'Knowledge base' }).click();
    await page.waitForURL('**/knowledge');
    await nav.getByRole('link', { name: 'File manager' }).click();
    await page.waitForURL('**/file');
    await page.getByRole('heading', { name: 'File manager', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'New folder' }).waitFor();

    // Switch to Chinese: the header labels change; and back to English.
    await page.getByRole('button', { name: 'Language' }).click();
    await page.getByRole('menuitem', { name: '简体中文' }).click();
    await nav.getByRole('link', { name: '知识库' }).waitFor();
    await nav.getByRole('link', { name: '首页' }).waitFor();
    expect(await storage(page, 'lng')).toBe('zh');
    // Back with the keyboard only: Enter opens the menu with focus on the current language (简体中文),
    // the arrow keys move through it, Enter chooses.
    await page.getByRole('button', { name: '语言' }).focus();
    await page.keyboard.press('Enter');
    const focusIsOn = (label: string) =>
      page.waitForFunction(
        (text) =>
          document.activeElement?.getAttribute('role') === 'menuitem' &&
          document.activeElement.textContent === text,
        label,
        { timeout: 5_000 },
      );
    await focusIsOn('简体中文');
    await page.keyboard.press('ArrowUp');
    await focusIsOn('English');
    await page.keyboard.press('Enter');
    await nav.getByRole('link', { name: 'Knowledge base' }).waitFor();
    expect(await storage(page, 'lng')).toBe('en');

    // Profile: nickname, avatar (a 240×160 PNG), dark colour scheme.
    await page.getByRole('button', { name: 'Account menu for Ada' }).click();
    await page.getByRole('menuitem', { name: 'User settings' }).click();
    await page.waitForURL('**/user-setting/profile');
    await page.getByLabel('Username').fill('Ada Lovelace');
    await page
      .locator('input[type=file]')
      .setInputFiles({ name: 'avatar.png', mimeType: 'image/png', buffer: makePng(240, 160) });
    await page.waitForFunction(() =>
      document
        .querySelector('[data-testid="profile-avatar"] img')
        ?.getAttribute('src')
        ?.startsWith('data:image/png'),
    );
    expect(isDarkColor(await bodyBackground(page))).toBe(false);
    await page.locator('label', { hasText: /^Dark$/ }).click();
    await expect.poll(() => page.getByRole('radio', { name: 'Dark' }).isChecked(), POLL).toBe(true);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Modified!').waitFor();
    await page.getByRole('button', { name: 'Account menu for Ada Lovelace' }).waitFor();
    await page.waitForFunction(() => {
      const [r, g, b] = (getComputedStyle(document.body).backgroundColor.match(/\d+/g) ?? []).map(Number);
      return (r + g + b) / 3 < 128;
    });

    // The server kept a thumbnail of at most 100 px.
    const token = (await storage(page, 'Authorization')) ?? '';
    const info = (await (
      await fetch(`${server.url}/v1/user/info`, { headers: { Authorization: token } })
    ).json()) as {
      data: { nickname: string; avatar: string; color_schema: string };
    };
    expect(info.data.nickname).toBe('Ada Lovelace');
    expect(info.data.color_schema).toBe('Dark');
    const thumb = pngSize(Buffer.from(info.data.avatar.replace(/^data:image\/png;base64,/, ''), 'base64'));
    expect(Math.max(thumb.width, thumb.height)).toBe(100);
    expect(thumb).toEqual({ width: 100, height: 67 });

    // Password: a mismatch is refused on the page, then the change goes through.
    await page.getByText('Modified!').waitFor({ state: 'hidden' }); // the profile's toast, before the next one
    await page.getByRole('link', { name: 'Password' }).click();
    await page.waitForURL('**/user-setting/password');
    await page.getByLabel('Current password').fill(oldPassword);
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    await page.getByLabel('Confirm new password').fill(`${newPassword}x`);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('The new passwords that you entered do not match!').waitFor();
    await page.getByLabel('Confirm new password').fill(newPassword);
    await page.getByRole('button', { name: 'Save' }).click();
    // A new password ends every session, this one too: the sign-in page says why.
    await page.waitForURL('**/login');
    await page.getByText('Password changed. Sign in with your new password.').waitFor();
    expect(await storage(page, 'Authorization')).toBeNull();
    await signIn(page, newPassword);
    await page.getByText('Logged in!').waitFor();
    await page.waitForURL((url) => url.pathname === '/');

    // Log out: a full page load to /login with the credentials gone (the language stays).
    await page.getByRole('button', { name: 'Account menu for Ada Lovelace' }).click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await page.waitForURL('**/login');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await storage(page, 'Authorization')).toBeNull();
    expect(await storage(page, 'Token')).toBeNull();
    expect(await storage(page, 'userInfo')).toBeNull();
    expect(await storage(page, 'lng')).toBe('en');

    // The old password no longer works; the new one does, and the dark scheme comes back at load.
    await signIn(page, oldPassword);
    await page.getByRole('alert').getByText('Email and password do not match!').waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    await signIn(page, newPassword);
    await page.getByText('Logged in!').waitFor();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('heading', { name: 'Welcome, Ada Lovelace' }).waitFor();
    await page.waitForFunction(() => {
      const [r, g, b] = (getComputedStyle(document.body).backgroundColor.match(/\d+/g) ?? []).map(Number);
      return (r + g + b) / 3 < 128;
    });
    await context.close();
  });

  it('takes the credential from an `auth` address parameter and strips it from the URL', async () => {
    const register = await fetch(`${server.url}/v1/user/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        nickname: 'Grace',
        email: `grace.${Date.now()}@example.com`,
        password: oldPassword,
      }),
    });
    expect(((await register.json()) as { code: number }).code).toBe(0);
    const token = register.headers.get('Authorization') ?? '';
    expect(token.length).toBeGreaterThan(32);
    const { context, page } = await newPage();
    await page.goto(`/user-setting/api?auth=${encodeURIComponent(token)}`);
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    expect(new URL(page.url()).search).toBe('');
    expect(await storage(page, 'Authorization')).toBe(token);

    // API keys: create (the key shown once), see it listed by its hint, delete it after confirming.
    await page.getByRole('button', { name: 'Create new key' }).click();
    await page.getByText('Created!').waitFor();
    const shown = (await page.getByTestId('new-api-key').innerText()).trim();
    expect(shown).toMatch(/^lectern-/);
    await page.getByRole('cell', { name: `${shown.slice(0, 12)}****${shown.slice(-4)}` }).waitFor();
    await page.getByRole('button', { name: 'Delete key' }).click();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByText('Deleted!').waitFor();
    await page.getByText('No API keys yet. Create one to call the API.').waitFor();
    await context.close();
  });
});

describe('registration switched off', () => {
  let closed: RunningServer;
  beforeAll(async () => {
    closed = await startServer({ REGISTER_ENABLED: '0' });
  });
  afterAll(async () => {
    await closed?.stop();
  });

  it("shows 'User registration is disabled' instead of the sign-up form", async () => {
    const context = await browser.newContext({ reducedMotion: 'reduce', baseURL: closed.url });
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByText('User registration is disabled').waitFor();
    await expect.poll(() => page.getByRole('button', { name: 'Sign up' }).count(), POLL).toBe(0);
    await expect.poll(() => page.getByLabel('Nickname').count(), POLL).toBe(0);
    await context.close();
  });
});
