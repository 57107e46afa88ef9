import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startOpenAIStandin, type Standin } from '../../apps/server/test/standins/index.js';
import { addStandinModels, clickUntilGone, toaster, watchPageErrors, whatIsShown } from './chat-setup';
import { POLL, launchBrowser, registerAndSignIn, startServer, type RunningServer } from './helpers';

/**
 * The rough edges a new user hits (issue 11, items 10–11), clicked as a person does: a double-click
 * on Create (knowledge base, conversation, API key) makes one thing; a double-click on Send asks
 * once and is not taken for Stop; a reload mid-answer still shows the question and the answer so
 * far; deleting a knowledge base names the assistant that uses it, and the assistant then shows the
 * deleted knowledge base and lets the user drop it. One server, one browser.
 */

const email = `rough.${Date.now()}@example.com`;
const password = 'rough-edges-123';
// Many pieces streamed 40 ms apart: long enough to reload in the middle.
const ANSWER = Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ') + ' END.';

let standin: Standin;
let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  standin = await startOpenAIStandin({ embeddingDim: 64, reply: () => ANSWER, chunkDelayMs: 40 });
  server = await startServer();
  browser = await launchBrowser();
  context = await browser.newContext({
    reducedMotion: 'reduce',
    baseURL: server.url,
    viewport: { width: 1440, height: 960 },
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

async function api<T>(route: string, body?: unknown): Promise<T> {
  const res = await fetch(`${server.url}/v1/${route}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { Authorization: await token(), 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const parsed = (await res.json()) as { code: number; message: string; data: T };
  expect(parsed.code, parsed.message).toBe(0);
  return parsed.data;
}

type Conv = { message: Array<{ role: string; content: string }> };

describe('rough edges in the browser', () => {
  it(
    'double-clicks create one thing, a reload mid-answer loses nothing, a deleted KB is named and dropped',
    { timeout: 120_000 },
    async () => {
      await registerAndSignIn(page, { nickname: 'Rue', email, password });
      await addStandinModels(page, 'Rue', standin.url);

      // Double-click on Create in the new knowledge base dialog: one knowledge base.
      await page.locator('header nav').getByRole('link', { name: 'Knowledge base' }).click();
      await page.getByRole('button', { name: 'Create knowledge base' }).first().click();
      const create = page.getByRole('dialog', { name: 'Create knowledge base' });
      await create.getByLabel('Name').fill('Manuals');
      await create.getByRole('button', { name: 'Create' }).dblclick();
      await page.waitForURL(/\/knowledge\/[0-9a-f]{32}\/dataset$/);
      const kbs = await api<{ kbs: Array<{ id: string; name: string }>; total: number }>('kb/list', {});
      expect(kbs.kbs.map((k) => k.name)).toEqual(['Manuals']);
      const manuals = kbs.kbs[0]!.id;
      const old = (await api<{ kb_id: string }>('kb/create', { name: 'Old notes' })).kb_id;
      // An assistant over both (empty) knowledge bases that lets the model answer anyway.
      await api('dialog/set', {
        name: 'Helper',
        kb_ids: [manuals, old],
        prompt_config: { system: 'Answer.\n{knowledge}', empty_response: '' },
      });

      // Double-click on "New conversation": one conversation.
      await page.locator('header nav').getByRole('link', { name: 'Chat' }).click();
      await page.getByRole('listitem', { name: 'Helper' }).click();
      await page.getByRole('button', { name: 'New conversation' }).dblclick();
      await page.waitForURL(/conversation=[0-9a-f]{32}/);
      const dialogId = new URL(page.url()).searchParams.get('dialog') as string;
      await expect
        .poll(async () => (await api<unknown[]>(`conversation/list?dialog_id=${dialogId}`)).length, POLL)
        .toBe(1);
      const conversationId = new URL(page.url()).searchParams.get('conversation') as string;
      const stored = () => api<Conv>(`conversation/get?conversation_id=${conversationId}`);

      // Double-click on Send: one question, answered to the end (the second click is not Stop).
      const box = page.getByLabel('Your question');
      await box.fill('What is in the manuals?');
      await page.getByRole('button', { name: /Send$/ }).dblclick();
      await expect
        .poll(() => page.getByTestId('answer').last().innerText(), { timeout: 20_000 })
        .toContain('END.');
      await page.getByRole('button', { name: /Send$/ }).waitFor();
      expect(await page.getByText('Stopped: the answer so far was saved.').count()).toBe(0);
      expect((await stored()).message.map((m) => m.role)).toEqual(['assistant', 'user', 'assistant']);

      // A reload mid-answer: the question and the answer streamed so far are still there.
      await box.fill('And what else?');
      await box.press('Enter');
      await expect.poll(() => page.getByTestId('answer').last().innerText(), POLL).toContain('word5');
      await page.reload();
      try {
        await page.getByTestId('question').filter({ hasText: 'And what else?' }).waitFor();
      } catch (error) {
        throw new Error(`question lost after reload: ${await whatIsShown(page)}`, { cause: error });
      }
      await expect.poll(() => page.getByTestId('answer').last().innerText(), POLL).toContain('word5');
      const after = await stored();
      expect(after.message.map((m) => m.role)).toEqual([
        'assistant',
        'user',
        'assistant',
        'user',
        'assistant',
      ]);
      expect(after.message[4]!.content.startsWith('word0 word1')).toBe(true);

      // Double-click on "Create API key" in the assistant's API panel: one key.
      await page.getByRole('button', { name: 'Actions for Helper' }).click();
      await page.getByRole('menuitem', { name: 'Chat API' }).click();
      const panel = page.getByRole('dialog', { name: 'Chat API of “Helper”' });
      await panel.getByRole('tab', { name: 'API keys' }).click();
      await panel.getByText('Please create API key first').waitFor();
      await panel.getByRole('button', { name: 'Create API key' }).dblclick();
      await toast('Created!');
      expect(await api<unknown[]>(`api/token_list?dialog_id=${dialogId}`)).toHaveLength(1);
      await clickUntilGone(page, panel.getByRole('button', { name: 'Close', exact: true }).first(), panel);

      // Deleting a knowledge base that the assistant uses: asked with the assistant named.
      await page.locator('header nav').getByRole('link', { name: 'Knowledge base' }).click();
      await page.getByRole('button', { name: 'Actions for Old notes' }).click();
      await page.getByRole('menuitem', { name: 'Delete' }).click();
      const confirm = page.getByRole('dialog', { name: 'Delete this knowledge base?' });
      await confirm.getByText('Used by 1 assistant(s): “Helper” They will no longer search it.').waitFor();
      await confirm.getByRole('button', { name: 'Delete' }).click();
      await toast('Deleted!');

      // The assistant shows the deleted knowledge base; Save says to drop it; dropped, it saves.
      await page.locator('header nav').getByRole('link', { name: 'Chat' }).click();
      await page.getByRole('button', { name: 'Actions for Helper' }).click();
      await page.getByRole('menuitem', { name: 'Edit' }).click();
      const edit = page.getByRole('dialog', { name: 'Edit assistant' });
      const deleted = edit.locator('.ant-select-selection-item', { hasText: 'Deleted knowledge base' });
      await deleted.waitFor();
      await edit.getByRole('button', { name: 'Save' }).click();
      await edit
        .getByText('A knowledge base of this assistant was deleted: remove it from the list to save.')
        .waitFor();
      await deleted.locator('.ant-select-selection-item-remove').click();
      await edit.getByRole('button', { name: 'Save' }).click();
      await toast('Updated!');
      const helper = await api<{ kb_ids: string[]; missing_kb_ids?: string[] }>(
        `dialog/get?dialog_id=${dialogId}`,
      );
      expect(helper.kb_ids).toEqual([manuals]);
      expect(helper.missing_kb_ids).toBeUndefined();
    },
  );
});
