import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import {
  defaultReply,
  startOpenAIStandin,
  type OpenAIChatBody,
  type Standin,
} from '../../apps/server/test/standins/index.js';
import {
  addStandinModels,
  buildKnowledgeBase,
  choose,
  clickUntilGone,
  toaster,
  watchPageErrors,
} from './chat-setup';
import { POLL, launchBrowser, registerAndSignIn, startServer, type RunningServer } from './helpers';

/**
 * Chat as a new user meets it: register, add an OpenAI-compatible stand-in (chat + embeddings on
 * 127.0.0.1) as the default models, build a knowledge base from an uploaded Markdown file, create an
 * assistant over it, ask, watch the answer stream with a citation, open the cited chunk and its
 * document, regenerate, thumbs up, and see the API panel's statistics change. Then the embed dialog
 * and the shared page it points to, and the search page.
 */

const email = `chat.${Date.now()}@example.com`;
const password = 'chat-password-123';

let standin: Standin;
let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let answers = 0;

/** The knowledge ID the prompt gave the piece containing `needle` (API.md §19.13 prompt format). */
function idOf(system: string, needle: string): number | null {
  const block = system.split('\nID: ').find((b) => b.toLowerCase().includes(needle));
  return block ? Number(block.match(/^\d+/)?.[0]) : null;
}

/** The stand-in model: answers from the knowledge in the prompt with a citation, and the search tasks. */
function reply(body: OpenAIChatBody) {
  const system = String(body.messages.find((m) => m.role === 'system')?.content ?? '');
  if (system.includes('suggest search terms'))
    return '1. Heat pump efficiency\n2. Heat pump maintenance\n3. Air-source heat pumps';
  if (system.includes('mind map'))
    return '# Heat pumps\n## Efficiency\n- Works down to minus twenty degrees\n## Maintenance\n- Clean the outdoor unit';
  const id = idOf(system, 'minus twenty');
  if (id === null) return defaultReply(body);
  answers += 1;
  const take = answers > 1 ? ` (answer ${answers})` : '';
  return `Air-source heat pumps keep working down to **minus twenty degrees** Celsius [ID:${id}]. Clean the outdoor unit once a year${take}.`;
}

beforeAll(async () => {
  standin = await startOpenAIStandin({ embeddingDim: 64, reply, chunkDelayMs: 60 });
  server = await startServer();
  browser = await launchBrowser();
  context = await browser.newContext({
    reducedMotion: 'reduce',
    baseURL: server.url,
    viewport: { width: 1440, height: 960 },
  });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
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

async function apiGet<T>(route: string): Promise<T> {
  const res = await fetch(`${server.url}/v1/${route}`, { headers: { Authorization: await token() } });
  const body = (await res.json()) as { code: number; message: string; data: T };
  expect(body.code, body.message).toBe(0);
  return body.data;
}

const overviewValue = (panel: Locator, label: string) =>
  panel.locator('.ant-statistic', { hasText: label }).locator('.ant-statistic-content-value').innerText();

async function openApiPanel(name: string): Promise<Locator> {
  await page.getByRole('button', { name: `Actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Chat API' }).click();
  const panel = page.getByRole('dialog', { name: `Chat API of “${name}”` });
  await panel.waitFor();
  return panel;
}

describe('chat in the browser', () => {
  it(
    'creates an assistant, streams a cited answer, regenerates, rates it and sees the statistics change',
    { timeout: 240_000 },
    async () => {
      await registerAndSignIn(page, { nickname: 'Ada', email, password });
      await addStandinModels(page, 'Ada', standin.url);
      await buildKnowledgeBase(page, 'Home energy');

      // Chat: empty at first.
      await page.locator('header nav').getByRole('link', { name: 'Chat' }).click();
      await page.waitForURL('**/chat');
      await page.getByText('Create an assistant over your knowledge bases to start chatting.').waitFor();

      // Create an assistant: the name is required; the three tabs are there.
      await page.getByRole('button', { name: 'Create assistant' }).first().click();
      const config = page.getByRole('dialog', { name: 'Create assistant' });
      for (const tab of ['Assistant setting', 'Prompt engine', 'Model setting'])
        await config.getByRole('tab', { name: tab }).waitFor();
      await config.getByRole('button', { name: 'Save' }).click();
      await config.getByText('Please input the assistant name!').waitFor();
      await config
        .getByText('Please choose at least one knowledge base (or give a Tavily API key for web search).')
        .waitFor();
      // The empty response is disabled while no knowledge base is chosen.
      await expect.poll(() => config.getByLabel('Empty response').isDisabled(), POLL).toBe(true);
      await config.getByLabel('Assistant name').fill('Energy helper');
      await choose(config.getByLabel('Knowledge bases'), 'Home energy');
      await page.keyboard.press('Escape'); // close the dropdown, not the dialog
      await expect.poll(() => config.getByLabel('Empty response').isDisabled(), POLL).toBe(false);
      await expect
        .poll(() => config.getByLabel('Empty response').inputValue(), POLL)
        .toBe('Sorry! No relevant content was found in the knowledge base!');
      // Prompt engine: {knowledge} is required while knowledge bases are used; threshold 0.2, keyword weight 0.7.
      await config.getByRole('tab', { name: 'Prompt engine' }).click();
      const system = config.getByLabel('System prompt');
      await expect.poll(() => system.inputValue(), POLL).toContain('{knowledge}');
      await system.fill('Answer from the knowledge only.');
      await config.getByRole('button', { name: 'Save' }).click();
      await config
        .getByText('The system prompt must contain {knowledge}, where the retrieved chunks are placed.')
        .waitFor();
      await system.fill('Answer from the knowledge only.\n{knowledge}');
      await expect
        .poll(() => config.getByRole('spinbutton', { name: 'Similarity threshold' }).inputValue(), POLL)
        .toBe('0.20');
      await expect
        .poll(() => config.getByRole('spinbutton', { name: 'Keyword similarity weight' }).inputValue(), POLL)
        .toBe('0.70');
      await config.getByText('Vector similarity weight: 0.30').waitFor();
      // Model setting: the default chat model, precise preset, max tokens 512.
      await config.getByRole('tab', { name: 'Model setting' }).click();
      await config.locator('.ant-select', { hasText: 'standin-chat' }).first().waitFor();
      await config.locator('.ant-select', { hasText: 'Precise' }).waitFor();
      await expect
        .poll(() => config.getByRole('spinbutton', { name: 'Max tokens' }).inputValue(), POLL)
        .toBe('512');
      await config.getByRole('button', { name: 'Save' }).click();
      await toast('Created!');
      await config.waitFor({ state: 'detached' });
      const assistant = page.getByRole('listitem', { name: 'Energy helper' });
      await assistant.waitFor();
      const dialogs = await apiGet<
        Array<{
          id: string;
          prompt_config: { system: string; empty_response: string };
          llm_setting: Record<string, number>;
        }>
      >('dialog/list');
      expect(dialogs).toHaveLength(1);
      expect(dialogs[0].prompt_config.system).toBe('Answer from the knowledge only.\n{knowledge}');
      expect(dialogs[0].prompt_config.empty_response).toBe(
        'Sorry! No relevant content was found in the knowledge base!',
      );
      expect(dialogs[0].llm_setting).toEqual({
        temperature: 0.2,
        top_p: 0.75,
        presence_penalty: 0.5,
        frequency_penalty: 0.5,
        max_tokens: 512,
      });
      const dialogId = dialogs[0].id;

      // Edit: the dialog opens with the stored values; a change is saved.
      await page.getByRole('button', { name: 'Actions for Energy helper' }).click();
      await page.getByRole('menuitem', { name: 'Edit' }).click();
      const edit = page.getByRole('dialog', { name: 'Edit assistant' });
      await expect.poll(() => edit.getByLabel('Assistant name').inputValue(), POLL).toBe('Energy helper');
      await edit.getByLabel('Description').fill('Answers about heat pumps');
      await edit.getByRole('button', { name: 'Save' }).click();
      await toast('Updated!');
      await assistant.getByText('Answers about heat pumps').waitFor();

      // The API panel before any conversation: nothing counted yet.
      let panel = await openApiPanel('Energy helper');
      await panel.getByText('Figures cover all assistants of your team.').waitFor();
      expect(await overviewValue(panel, 'Messages')).toBe('0');
      expect(await overviewValue(panel, 'Satisfaction (thumbs up)')).toBe('0');
      await clickUntilGone(page, panel.getByRole('button', { name: 'Close', exact: true }).first(), panel);

      // The greeting, then a question: Enter sends, the answer streams in.
      await page.getByText("Hi! I'm your assistant. What can I do for you?").waitFor();
      const box = page.getByLabel('Your question');
      await box.fill('How cold can it get before a heat pump stops?');
      await box.press('Shift+Enter');
      await expect.poll(() => box.inputValue(), POLL).toBe('How cold can it get before a heat pump stops?\n');
      await box.press('Enter');
      const answer = page.getByTestId('answer').last();
      await answer.locator('.streaming-cursor').waitFor(); // streaming…
      await page.getByRole('button', { name: /Stop$/ }).waitFor();
      const partial = await answer.innerText();
      await answer.getByRole('button', { name: 'Citation 1' }).waitFor({ timeout: 30_000 });
      await answer.locator('.streaming-cursor').waitFor({ state: 'detached' });
      const full = await answer.innerText();
      expect(full.length).toBeGreaterThan(partial.length);
      expect(full).toContain('minus twenty degrees');
      await answer.locator('strong', { hasText: 'minus twenty degrees' }).waitFor(); // markdown rendered
      await page.waitForURL(/conversation=[0-9a-f]{32}/);
      // The new conversation is named after its question.
      await page
        .getByRole('list', { name: 'Conversations' })
        .getByText('How cold can it get before a heat pump stops?')
        .waitFor();

      // The citation's popover shows the chunk and its document, which opens in a drawer.
      await answer.getByRole('button', { name: 'Citation 1' }).click();
      const chunk = page.getByTestId('citation-chunk');
      await chunk.getByText('minus twenty degrees Celsius', { exact: false }).waitFor();
      await chunk.getByRole('button', { name: 'heat-pumps.md' }).click();
      const drawer = page.getByRole('dialog', { name: 'heat-pumps.md' });
      await drawer
        .getByTestId('document-text')
        .getByText('Clean the outdoor unit', { exact: false })
        .waitFor();
      await page.keyboard.press('Escape');
      await drawer.waitFor({ state: 'hidden' });
      // The source list under the answer names the document.
      await answer
        .getByRole('list', { name: 'Sources' })
        .getByRole('button', { name: 'heat-pumps.md' })
        .waitFor();

      // Copy puts the plain answer (no citation markers) on the clipboard.
      await answer.getByRole('button', { name: 'Copy' }).click();
      await toast('Copied!');
      const copied = await page.evaluate(() => navigator.clipboard.readText());
      expect(copied).toContain('minus twenty degrees');
      expect(copied).not.toContain('[ID:');

      // Regenerate: the same question is answered again, replacing the answer.
      await answer.getByRole('button', { name: 'Regenerate' }).click();
      await page.getByText('(answer 2)', { exact: false }).waitFor({ timeout: 30_000 });
      await page.getByTestId('answer').last().getByRole('button', { name: 'Citation 1' }).waitFor();
      // Once stored, the answer is shown from the conversation again, with its actions.
      await page.getByTestId('answer').last().getByRole('button', { name: 'Regenerate' }).waitFor();
      await expect.poll(() => page.getByTestId('answer').last().innerText(), POLL).toContain('(answer 2)');
      await expect.poll(() => page.getByTestId('question').count(), POLL).toBe(1);
      const conversationId = new URL(page.url()).searchParams.get('conversation') as string;
      type Conv = {
        message: Array<{ role: string; content: string; id?: string; thumbup?: boolean }>;
        reference: Array<{ chunks: unknown[] }>;
      };
      let conv = await apiGet<Conv>(`conversation/get?conversation_id=${conversationId}`);
      expect(conv.message.map((m) => m.role)).toEqual(['assistant', 'user', 'assistant']);
      expect(conv.message[2].content).toMatch(/\[ID:\d+\].*\(answer 2\)/);
      expect(conv.message[2].id).toBe(conv.message[1].id);
      expect(conv.reference).toHaveLength(1);

      // Thumbs down asks what was wrong; thumbs up then replaces it.
      await page.getByTestId('answer').last().getByRole('button', { name: 'Bad answer' }).click();
      const feedback = page.getByRole('dialog', { name: 'What was wrong with this answer?' });
      await feedback.getByLabel('Feedback').fill('It should mention the noise too.');
      const thanks = toast('Thank you for your feedback!');
      thanks.catch(() => undefined); // awaited below; a failed click reports first
      await clickUntilGone(page, feedback.getByRole('button', { name: 'Send' }), feedback);
      await thanks;
      await page
        .getByTestId('answer')
        .last()
        .getByRole('button', { name: 'Bad answer', pressed: true })
        .waitFor();
      conv = await apiGet<Conv>(`conversation/get?conversation_id=${conversationId}`);
      expect(conv.message[2]).toMatchObject({ thumbup: false, feedback: 'It should mention the noise too.' });
      await page.getByTestId('answer').last().getByRole('button', { name: 'Good answer' }).click();
      await page
        .getByTestId('answer')
        .last()
        .getByRole('button', { name: 'Good answer', pressed: true })
        .waitFor();
      conv = await apiGet<Conv>(`conversation/get?conversation_id=${conversationId}`);
      expect(conv.message[2].thumbup).toBe(true);

      // The API panel now counts the conversation and the thumbs up.
      panel = await openApiPanel('Energy helper');
      await expect.poll(() => overviewValue(panel, 'Messages')).toBe('1');
      expect(await overviewValue(panel, 'Active users')).toBe('1');
      expect(await overviewValue(panel, 'Satisfaction (thumbs up)')).toBe('1');
      expect(Number(await overviewValue(panel, 'Rounds'))).toBeGreaterThanOrEqual(1);
      const today = new Date().toISOString().slice(0, 10);
      await panel
        .getByRole('table', { name: 'Messages' })
        .getByRole('row', { name: new RegExp(`${today} 1`) })
        .waitFor({ state: 'attached' });
      // Keys and docs: the endpoint, a key created and deleted after confirming.
      await panel.getByRole('tab', { name: 'API keys' }).click();
      await panel.getByTestId('service-endpoint').getByText(`${server.url}/v1/api`).waitFor();
      await panel.getByText('Please create API key first').waitFor();
      await panel.getByRole('button', { name: 'Create API key' }).click();
      await toast('Created!');
      // The new key is shown once, to copy; the list has its hint only; the key works, the hint does not.
      const shownKey = await panel.getByTestId('new-api-key').innerText();
      expect(shownKey.trim()).toMatch(/^lectern-[A-Za-z0-9_-]{43}$/);
      await panel.getByText('Copy it now: you will not see it again.', { exact: false }).waitFor();
      const keys = await apiGet<Array<{ token: string }>>(`api/token_list?dialog_id=${dialogId}`);
      expect(keys).toHaveLength(1);
      const keyHint = `${shownKey.trim().slice(0, 12)}****${shownKey.trim().slice(-4)}`;
      expect(keys[0].token).toBe(keyHint);
      await panel.getByRole('cell', { name: keyHint }).waitFor();
      const asKey = (credential: string) =>
        fetch(`${server.url}/v1/api/new_conversation?user_id=probe`, {
          headers: { Authorization: `Bearer ${credential}` },
        }).then((r) => r.json() as Promise<{ code: number }>);
      expect((await asKey(shownKey.trim())).code).toBe(0);
      expect((await asKey(keyHint)).code).toBe(109);
      await panel.getByRole('tab', { name: 'Documentation' }).click();
      await panel.getByText('POST /v1/api/completion').waitFor();
      await panel.getByText('data:{"code":0,"message":"","data":true}', { exact: false }).first().waitFor();
      await clickUntilGone(page, panel.getByRole('button', { name: 'Close', exact: true }).first(), panel);

      // Embed: the snippet points at the shared page with the beta token; the page shows the assistant.
      await page.getByRole('button', { name: 'Actions for Energy helper' }).click();
      await page.getByRole('menuitem', { name: 'Embed into webpage' }).click();
      const embed = page.getByRole('dialog', { name: 'Embed “Energy helper” into a webpage' });
      // Links are made here and shown once; the list has the hints of the links made so far.
      await embed.getByRole('button', { name: 'Create share link' }).click();
      await embed.getByText('Copy the snippet or the link now: this link is shown only once.').waitFor();
      const snippet = await embed.getByTestId('embed-snippet').innerText();
      const [, src] = /src="([^"]+)"/.exec(snippet) ?? [];
      const shared = new URL(src.replace(/&amp;/g, '&'));
      expect(shared.pathname).toBe('/chat/share');
      expect(shared.searchParams.get('shared_id')).toBe(dialogId);
      const beta = shared.searchParams.get('auth') as string;
      const betaHint = `${beta.slice(0, 4)}****${beta.slice(-4)}`;
      const rows = await apiGet<Array<{ beta: string }>>(`api/token_list?dialog_id=${dialogId}`);
      expect(rows.map((r) => r.beta)).toContain(betaHint);
      await embed.getByTestId('share-link-hint').filter({ hasText: betaHint }).waitFor();
      await embed.getByText('Partial iframe', { exact: true }).click();
      await expect
        .poll(() => embed.getByTestId('embed-snippet').innerText(), POLL)
        .toContain('position: fixed');
      await embed.getByText('Browser extension', { exact: true }).click();
      await expect
        .poll(() => embed.getByTestId('embed-snippet').innerText(), POLL)
        .toContain('"manifest_version": 3');
      await page.keyboard.press('Escape');
      const visitor = await browser.newPage({ baseURL: server.url });
      await visitor.goto(`${shared.pathname}${shared.search}`);
      await visitor.getByRole('heading', { name: 'Energy helper' }).waitFor();
      await visitor.getByText("Hi! I'm your assistant. What can I do for you?").waitFor();
      // The visitor asks through the chat API with the embed token: a cited answer streams in and stays.
      const visitorBox = visitor.getByLabel('Your question');
      await visitorBox.fill('How cold can a heat pump work?');
      await visitorBox.press('Enter');
      const visitorAnswer = visitor.getByTestId('answer').last();
      await visitorAnswer.getByRole('button', { name: 'Citation 1' }).waitFor({ timeout: 30_000 });
      await visitorAnswer.locator('.streaming-cursor').waitFor({ state: 'detached', timeout: 30_000 });
      await expect.poll(() => visitorAnswer.innerText(), POLL).toContain('minus twenty degrees');
      await expect
        .poll(() => visitor.getByTestId('question').last().innerText(), POLL)
        .toContain('How cold can a heat pump work?');
      await visitor.close();
      // The signed-in session was not replaced by the embed token.
      expect(await token()).not.toBe(beta);

      // A second question the knowledge base knows nothing about: the empty response. Then it is deleted
      // with its answer after confirming.
      await box.fill('Is it loud?');
      await box.press('Enter');
      await page
        .getByTestId('answer')
        .nth(2)
        .getByRole('button', { name: 'Regenerate' })
        .waitFor({ timeout: 30_000 });
      await expect
        .poll(() => page.getByTestId('answer').nth(2).innerText(), POLL)
        .toContain('Sorry! No relevant content was found in the knowledge base!');
      await expect.poll(() => page.getByTestId('question').count(), POLL).toBe(2);
      await page.getByTestId('question').last().getByRole('button', { name: 'Delete' }).click();
      await page.locator('.ant-popconfirm:visible').getByRole('button', { name: 'Delete' }).click();
      await expect.poll(() => page.getByTestId('question').count()).toBe(1);
      conv = await apiGet<Conv>(`conversation/get?conversation_id=${conversationId}`);
      expect(conv.message.map((m) => m.role)).toEqual(['assistant', 'user', 'assistant']);
      expect(conv.reference).toHaveLength(1);

      // Stop: the answer stops streaming; the question and the part streamed so far are kept.
      await box.fill('How often should the heat pump be cleaned?');
      await box.press('Enter');
      await page.getByTestId('answer').last().locator('.streaming-cursor').waitFor();
      await page.getByRole('button', { name: /Stop$/ }).click();
      await page.getByText('Stopped: the answer so far was saved.').waitFor();
      await page.getByRole('button', { name: /Send$/ }).waitFor();
      await page.waitForTimeout(1500); // the stand-in would have finished by now
      conv = await apiGet<Conv>(`conversation/get?conversation_id=${conversationId}`);
      expect(conv.message.map((m) => m.role).slice(0, 4)).toEqual(['assistant', 'user', 'assistant', 'user']);
      expect(conv.message[3]?.content).toBe('How often should the heat pump be cleaned?');
      // The stopped answer (if any text had streamed) is a prefix of what the model would have said.
      expect(conv.message.length).toBeLessThanOrEqual(5);

      // Delete the conversation after confirming.
      await page
        .getByRole('button', { name: 'Actions for How cold can it get before a heat pump stops?' })
        .click();
      await page.getByRole('menuitem', { name: 'Delete' }).click();
      await page
        .getByRole('dialog', { name: 'Delete this conversation?' })
        .getByRole('button', { name: 'Delete' })
        .click();
      await toast('Deleted!');
      await page.getByText('No conversation yet.').waitFor();

      // Delete the assistant after confirming.
      await page.getByRole('button', { name: 'Actions for Energy helper' }).click();
      await page.getByRole('menuitem', { name: 'Delete' }).click();
      await page
        .getByRole('dialog', { name: 'Delete this assistant?' })
        .getByRole('button', { name: 'Delete' })
        .click();
      await toast('Deleted!');
      await page.getByText('Create an assistant over your knowledge bases to start chatting.').waitFor();
      expect(await apiGet<unknown[]>('dialog/list')).toEqual([]);
    },
  );

  it('searches the knowledge base through a search app: ranked chunks, a cited AI summary, related questions and a mind map', async () => {
    // A fresh page load: nothing the previous test left open stands in the way.
    await page.goto('/');
    await page.locator('header nav').getByRole('link', { name: 'Search' }).click();
    await page.waitForURL('**/search');
    await page.getByRole('heading', { name: 'Search apps' }).waitFor();
    // A new search app, then its settings: the knowledge base and the panels of the page.
    await page.getByTestId('create-search-app').click();
    const create = page.getByRole('dialog', { name: 'New search app' });
    await create.getByLabel('Name').fill('Energy search');
    await create.getByRole('button', { name: 'Save' }).click();
    await create.waitFor({ state: 'detached' });
    await page.getByTestId('search-app-Energy search').waitFor();
    await page.getByLabel('Settings').first().click();
    const drawer = page.getByTestId('search-settings');
    await choose(drawer.getByLabel('Knowledge bases to search'), 'Home energy');
    await page.keyboard.press('Escape');
    for (const name of ['AI summary', 'Related questions', 'Mind map']) {
      await drawer.getByRole('switch', { name }).click();
    }
    await page.getByRole('button', { name: 'Save' }).click();
    await toast('Settings saved.');
    await drawer.waitFor({ state: 'detached' });
    await page.getByTestId('search-app-Energy search').click();
    await page.waitForURL('**/search/*');
    await page.getByRole('heading', { name: 'Energy search' }).waitFor();
    await page.getByRole('searchbox', { name: 'Question' }).fill('How cold can a heat pump work?');
    await page.getByRole('searchbox', { name: 'Question' }).press('Enter');
    const summary = page.getByTestId('search-summary');
    await summary.getByRole('button', { name: 'Citation 1' }).waitFor({ timeout: 30_000 });
    await summary.getByText('minus twenty degrees', { exact: false }).waitFor();
    // Once the summary ends it carries its reference: the citation shows the chunk.
    await summary.locator('.streaming-cursor').waitFor({ state: 'detached', timeout: 30_000 });
    await summary.getByRole('button', { name: 'Citation 1' }).click();
    await page
      .getByTestId('citation-chunk')
      .getByText('minus twenty degrees Celsius', { exact: false })
      .waitFor();
    await summary
      .getByRole('list', { name: 'Sources' })
      .getByRole('button', { name: 'heat-pumps.md' })
      .waitFor();
    await page.keyboard.press('Escape');
    const chunks = page.getByTestId('search-chunk');
    await chunks.first().waitFor();
    await expect.poll(() => chunks.first().innerText(), POLL).toContain('heat-pumps.md');
    await page
      .getByRole('list', { name: 'Related questions' })
      .getByRole('button', { name: 'Heat pump maintenance' })
      .waitFor();
    const tree = page.getByRole('tree', { name: 'Mind map' });
    await tree.getByText('Heat pumps', { exact: true }).waitFor();
    await tree.getByText('Works down to minus twenty degrees').waitFor();
    // A related question is searched when clicked.
    await page
      .getByRole('list', { name: 'Related questions' })
      .getByRole('button', { name: 'Heat pump maintenance' })
      .click();
    await expect
      .poll(() => page.getByRole('searchbox', { name: 'Question' }).inputValue())
      .toBe('Heat pump maintenance');
    await summary.getByRole('button', { name: 'Citation 1' }).waitFor({ timeout: 30_000 });
  });
});
