import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { STORAGE_KEYS } from '@lectern/shared';
import { startOpenAIStandin, type Standin } from '../../apps/server/test/standins/index.js';
import { POLL, launchBrowser, registerAndSignIn, startServer, type RunningServer } from './helpers';

/**
 * The Chat API statistics (issue 11 item 12: "statistics tiles and charts agree"): sessions made now
 * through the legacy chat API (a real API key, `new_conversation` per end user) are counted on
 * today's UTC date by the server; in a browser far west of UTC (local date still yesterday for half
 * the day) and one far east, the default range includes that day, and each overview tile equals the
 * sum (users: the daily maximum) of its chart over the same range.
 */

const SESSIONS: Array<string> = ['ann', 'bob', 'ann', 'cy', 'bob'];

let server: RunningServer;
let standin: Standin;
let browser: Browser;

beforeAll(async () => {
  standin = await startOpenAIStandin({ reply: () => 'Fine.' });
  server = await startServer();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await standin?.close();
});

async function api<T>(token: string, route: string, body?: unknown, bearer = false): Promise<T> {
  const res = await fetch(`${server.url}${route}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      Authorization: bearer ? `Bearer ${token}` : token,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as { code: number; message: string; data: T };
  if (json.code !== 0) throw new Error(`${route}: ${json.code} ${json.message}`);
  return json.data;
}

/** Chart values (the charts' accessible tables) of the chart titled `title`. */
async function chartValues(panel: Locator, title: string): Promise<number[]> {
  const table = panel
    .locator('figure', { has: panel.page().getByText(title, { exact: true }) })
    .locator('table');
  return (await table.getByTestId('stat-value').allInnerTexts()).map(Number);
}

async function tile(panel: Locator, title: string): Promise<number> {
  const card = panel.getByRole('region', { name: 'Overview' }).locator('.ant-statistic', {
    has: panel
      .page()
      .locator('.ant-statistic-title', { hasText: new RegExp(`^${title.replace(/[()]/g, '\\$&')}$`) }),
  });
  return Number((await card.locator('.ant-statistic-content').innerText()).replace(/[^\d.]/g, ''));
}

async function seed(page: Page, nickname: string) {
  const token = (await page.evaluate(
    (key) => localStorage.getItem(key),
    STORAGE_KEYS.authorization,
  )) as string;
  const me = await api<{ id: string }>(token, '/v1/user/info');
  for (const [name, type] of [
    ['standin-chat', 'chat'],
    ['standin-embd', 'embedding'],
  ])
    await api(token, '/v1/llm/add_llm', {
      llm_factory: 'OpenAI-API-Compatible',
      llm_name: name,
      model_type: type,
      api_base: standin.url,
      api_key: 'sk-test',
      verify: false,
    });
  await api(token, '/v1/user/set_tenant_info', {
    tenant_id: me.id,
    llm_id: 'standin-chat@OpenAI-API-Compatible',
    embd_id: 'standin-embd@OpenAI-API-Compatible',
    asr_id: '',
    img2txt_id: '',
  });
  const dialog = await api<{ id: string }>(token, '/v1/dialog/set', {
    name: `${nickname}'s helper`,
    prompt_config: { system: 'Hello.' },
  });
  const key = await api<{ token: string }>(token, '/v1/api/new_token', { dialog_id: dialog.id });
  for (const user of SESSIONS)
    await api(key.token, `/v1/api/new_conversation?user_id=${user}`, undefined, true);
  return `${nickname}'s helper`;
}

describe('Chat API statistics', () => {
  for (const timezoneId of ['Etc/GMT+12', 'Pacific/Kiritimati']) {
    it(`tiles equal the charts' sums, today's sessions included (browser in ${timezoneId})`, async () => {
      const context = await browser.newContext({ reducedMotion: 'reduce', baseURL: server.url, timezoneId });
      context.setDefaultTimeout(20_000);
      const page = await context.newPage();
      const nickname = `Stat${timezoneId.length}`;
      await registerAndSignIn(page, {
        nickname,
        email: `stats.${Date.now()}.${timezoneId.length}@example.com`,
        password: 'stats-password-1',
      });
      const assistant = await seed(page, nickname);

      await page.goto('/chat');
      await page.getByRole('button', { name: `Actions for ${assistant}` }).click();
      await page.getByRole('menuitem', { name: 'Chat API' }).click();
      const panel = page.getByRole('dialog', { name: `Chat API of “${assistant}”` });
      await expect.poll(() => tile(panel, 'Messages'), POLL).toBe(SESSIONS.length);

      const messages = await chartValues(panel, 'Messages');
      expect(messages).toHaveLength(7);
      // Today's UTC date is the last day of the range, wherever the browser is.
      expect(messages.at(-1)).toBe(SESSIONS.length);
      expect(messages.reduce((a, b) => a + b, 0)).toBe(await tile(panel, 'Messages'));
      const users = await chartValues(panel, 'Active users');
      expect(users.at(-1)).toBe(new Set(SESSIONS).size);
      expect(Math.max(...users)).toBe(await tile(panel, 'Active users'));
      for (const title of ['Tokens consumed (thousands)', 'Satisfaction (thumbs up)']) {
        const values = await chartValues(panel, title);
        expect(values, title).toHaveLength(7);
        expect(
          values.reduce((a, b) => a + b, 0),
          title,
        ).toBeCloseTo(await tile(panel, title), 2);
      }
      await context.close();
    });
  }
});
