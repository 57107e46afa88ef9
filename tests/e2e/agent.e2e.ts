import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import {
  startOpenAIStandin,
  type OpenAIChatBody,
  type Standin,
} from '../../apps/server/test/standins/index.js';
import { textOf } from '../../apps/server/test/standins/openai.js';
import { DOC, choose, clickUntilGone, toaster, watchPageErrors, whatIsShown } from './chat-setup';
import { POLL, launchBrowser, registerAndSignIn, startServer, type RunningServer } from './helpers';

/**
 * The agent editor as a new user meets it: build Begin → Retrieval → Agent → Message from the
 * palette, run it and watch the answer stream in with the node states on the canvas; open a template,
 * change a prompt, reload and find it autosaved; restore the older version from the history.
 * The models (an OpenAI-compatible stand-in) and the knowledge base are set up through the API.
 */

const email = `agent.${Date.now()}@example.com`;
const password = 'agent-password-123';
const FACTORY = 'OpenAI-API-Compatible';
/** The answer, long enough (one streamed piece per word, 150 ms apart) to be seen arriving. */
const ANSWER_WORDS = 'Air-source heat pumps keep working down to minus twenty degrees Celsius';

let standin: Standin;
let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

/** The stand-in model: answers from the retrieved excerpt in the prompt, citing its ID. */
function reply(body: OpenAIChatBody): string {
  const prompt = body.messages.map((m) => textOf(m.content)).join('\n');
  const block = prompt.split('\nID: ').find((b) => b.includes('minus twenty'));
  if (!block) return `I could not find this in the knowledge base.`;
  const id = Number(block.match(/^\d+/)?.[0]);
  return `${ANSWER_WORDS} [ID:${id}]. Clean the outdoor unit once a year.`;
}

beforeAll(async () => {
  standin = await startOpenAIStandin({ embeddingDim: 64, reply, chunkDelayMs: 150 });
  server = await startServer();
  browser = await launchBrowser();
  context = await browser.newContext({
    reducedMotion: 'reduce',
    baseURL: server.url,
    viewport: { width: 1600, height: 960 },
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

beforeEach(() => {
  // a failure says what the page showed (toasts, dialogs, errors) and keeps a screenshot
  onTestFailed(async () => console.log(`page at the failure: ${await whatIsShown(page)}`));
});
const token = () => page.evaluate(() => localStorage.getItem('Authorization') ?? '');

async function api<T>(route: string, body?: unknown): Promise<T> {
  const form = body instanceof FormData;
  const res = await fetch(`${server.url}/v1/${route}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { Authorization: await token(), ...(form ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : form ? body : JSON.stringify(body),
  });
  const parsed = (await res.json()) as { code: number; message: string; data: T };
  expect(parsed.code, `${route}: ${parsed.message}`).toBe(0);
  return parsed.data;
}

/** Chat and embedding models of the stand-in, and a knowledge base of one parsed Markdown file. */
async function setUpModelsAndKnowledge(): Promise<void> {
  for (const [name, type] of [
    ['standin-chat', 'chat'],
    ['standin-embed', 'embedding'],
  ])
    await api('llm/add_llm', {
      llm_factory: FACTORY,
      llm_name: name,
      model_type: type,
      api_base: standin.url,
      api_key: 'sk-test',
    });
  const { kb_id } = await api<{ kb_id: string }>('kb/create', {
    name: 'Home energy',
    embd_id: `standin-embed@${FACTORY}`,
  });
  const upload = new FormData();
  upload.append('kb_id', kb_id);
  upload.append('file', new Blob([DOC], { type: 'text/markdown' }), 'heat-pumps.md');
  const [doc] = await api<Array<{ id: string }>>('document/upload', upload);
  await api('document/run', { doc_ids: [doc.id], run: '1' });
  await expect
    .poll(
      async () =>
        (await api<{ docs: Array<{ run: string }> }>(`document/list?kb_id=${kb_id}`, {})).docs[0]?.run,
      { timeout: 60_000, interval: 500 },
    )
    .toBe('3');
}

const nodeForm = () => page.getByTestId('node-form');
/** The autosave indicator: its state and text, e.g. "saved Saved at 10:42:07". */
const saveState = (): Promise<string> =>
  page.getByTestId('save-state').evaluate((el) => `${el.getAttribute('data-state')} ${el.textContent ?? ''}`);

/** Waits until the header says the last change was saved (not the "saved" shown on opening). */
async function waitSaved(): Promise<void> {
  await expect.poll(saveState, { timeout: 15_000 }).toMatch(/^saved .*Saved at \d\d:\d\d:\d\d/);
}

/** The palette button of a component; a click adds it after the selected node, connected. */
const paletteButton = (name: string) =>
  page.getByRole('navigation', { name: 'Components' }).getByTestId(`palette-${name}`);

/** Picks a variable with the "Insert a variable" button of the form item labelled `label`. */
async function insertVariable(item: Locator, option: string): Promise<void> {
  await item.getByRole('button', { name: 'Insert a variable' }).click();
  const picker = item.getByLabel('Choose a variable');
  await picker.fill(option);
  await page.locator('.ant-select-item-option', { hasText: option }).first().waitFor();
  await picker.press('Enter');
  await picker.waitFor({ state: 'detached' });
}

const formItem = (label: string) =>
  nodeForm()
    .locator('.ant-form-item')
    .filter({
      has: page.locator('.ant-form-item-label').getByText(label, { exact: true }),
    });

const nodeId = async (name: string) =>
  (await page.getByTestId(`node-${name}`).getAttribute('data-node-id')) as string;

/** Opens "Create agent", chooses a gallery card, names the agent and lands in its editor. */
async function createAgent(card: Locator, title: string | null): Promise<string> {
  await page.getByTestId('create-agent').click();
  const gallery = page.getByRole('dialog', { name: 'Create an agent' });
  await gallery.getByRole('list', { name: 'Templates' }).waitFor();
  await card.click();
  const naming = page.getByRole('dialog', { name: 'Name your agent' });
  const name = naming.getByLabel('Name');
  if (title !== null) await name.fill(title);
  const chosen = await name.inputValue();
  await clickUntilGone(page, naming.getByRole('button', { name: 'Create' }), naming);
  await page.waitForURL(/\/agent\/[0-9a-f]{32}$/);
  await page.getByTestId('node-begin').waitFor();
  return chosen;
}

describe('the agent editor in the browser', () => {
  it(
    'builds Begin → Retrieval → Agent → Message from the palette, runs it, streams the answer with node states',
    { timeout: 180_000 },
    async () => {
      await registerAndSignIn(page, { nickname: 'Ada', email, password });
      await setUpModelsAndKnowledge();

      await page.locator('header nav').getByRole('link', { name: 'Agent' }).click();
      await page.waitForURL('**/agent');
      await page.getByText('No agents yet. Start from a template or a blank canvas.').waitFor();
      await createAgent(page.getByTestId('template-blank'), 'Heat pump helper');
      await expect.poll(() => page.getByTestId('editor-title').innerText(), POLL).toBe('Heat pump helper');
      // Begin selected, each palette click adds the next component after the selected one.
      await page.getByTestId('node-begin').click();
      await expect.poll(() => nodeForm().getByLabel('Name').inputValue(), POLL).toBe('begin');
      await paletteButton('Retrieval').click();
      await page.getByTestId('node-Retrieval_0').waitFor();
      await expect.poll(() => nodeForm().getByLabel('Name').inputValue(), POLL).toBe('Retrieval_0');
      await choose(nodeForm().getByLabel('Knowledge bases'), 'Home energy');
      await page.keyboard.press('Escape'); // closes the dropdown
      await formItem('Knowledge bases').locator('.ant-select', { hasText: 'Home energy' }).waitFor();

      await paletteButton('Agent').click();
      await page.getByTestId('node-Agent_0').waitFor();
      await expect.poll(() => nodeForm().getByLabel('Name').inputValue(), POLL).toBe('Agent_0');
      await choose(nodeForm().getByLabel('Model'), 'standin-chat');
      await formItem('Model').locator('.ant-select', { hasText: 'standin-chat' }).waitFor();
      const userPrompt = nodeForm().getByLabel('User prompt');
      await userPrompt.fill('Question: {sys.query}\nExcerpts:\n');
      await insertVariable(formItem('User prompt'), 'Retrieval_0 · formalized_content');
      const retrievalId = await nodeId('Retrieval_0');
      await expect
        .poll(() => userPrompt.inputValue(), POLL)
        .toBe(`Question: {sys.query}\nExcerpts:\n{${retrievalId}@formalized_content}`);

      await paletteButton('Message').click();
      await page.getByTestId('node-Message_0').waitFor();
      await expect.poll(() => nodeForm().getByLabel('Name').inputValue(), POLL).toBe('Message_0');
      await insertVariable(formItem('Message text'), 'Agent_0 · content');
      const agentId = await nodeId('Agent_0');
      await expect
        .poll(() => nodeForm().getByLabel('Message text').inputValue(), POLL)
        .toBe(`{${agentId}@content}`);
      await waitSaved();
      const messageId = await nodeId('Message_0');
      // The saved DSL is the chain, in the shape the runtime reads.
      const canvasId = /\/agent\/([0-9a-f]{32})$/.exec(page.url())![1];
      const saved = await api<{
        dsl: { components: Record<string, { obj: { component_name: string }; downstream: string[] }> };
      }>(`canvas/get/${canvasId}`);
      const chain = ['begin', retrievalId, agentId, messageId];
      expect(Object.keys(saved.dsl.components).sort()).toEqual([...chain].sort());
      chain
        .slice(0, -1)
        .forEach((id, i) => expect(saved.dsl.components[id].downstream).toEqual([chain[i + 1]]));
      expect(saved.dsl.components[agentId].obj.component_name).toBe('Agent');
      // Run: the answer arrives piece by piece while the Agent runs; every node ends finished.
      await page.getByTestId('open-run').click();
      const panel = page.getByTestId('run-panel');
      await panel.getByText("Hi! I'm your assistant. What can I do for you?").waitFor();
      await page.evaluate(
        ({ agent }) => {
          const seen = { lengths: [] as number[], agentStates: [] as string[] };
          (window as unknown as { __runSeen: typeof seen }).__runSeen = seen;
          new MutationObserver(() => {
            const answers = document.querySelectorAll('[data-testid="run-answer"]');
            const last = answers.length > 1 ? answers[answers.length - 1] : null;
            const len = last?.textContent?.length ?? 0;
            if (len > 0 && len !== seen.lengths[seen.lengths.length - 1]) seen.lengths.push(len);
            const state = document
              .querySelector(`[data-testid="node-status-${agent}"]`)
              ?.getAttribute('data-status');
            if (state && state !== seen.agentStates[seen.agentStates.length - 1])
              seen.agentStates.push(state);
          }).observe(document.body, {
            subtree: true,
            childList: true,
            characterData: true,
            attributes: true,
          });
        },
        { agent: agentId },
      );
      const input = panel.getByTestId('run-input');
      await input.fill('How cold can it get for a heat pump?');
      await input.press('Enter');
      await panel
        .getByTestId('run-question')
        .filter({ hasText: 'How cold can it get for a heat pump?' })
        .waitFor();
      const answer = panel.getByTestId('run-answer').last();
      try {
        await expect
          .poll(() => answer.innerText(), { timeout: 30_000 })
          .toMatch(/minus twenty degrees Celsius \[1\]\. Clean the outdoor unit once a year\./);
      } catch (error) {
        throw new Error(`no streamed answer: ${await whatIsShown(page)}`, { cause: error });
      }
      await panel.getByTestId('run-send').waitFor(); // the run ended
      await answer.getByTestId('run-sources').getByText('heat-pumps.md').waitFor();
      for (const id of chain) {
        const badge = page.getByTestId(`node-status-${id}`);
        await expect.poll(() => badge.getAttribute('data-status'), POLL).toBe('finished');
        expect(await badge.innerText()).toMatch(/^\d+\.\d\d s$/);
      }
      const seen = await page.evaluate(
        () => (window as unknown as { __runSeen: { lengths: number[]; agentStates: string[] } }).__runSeen,
      );
      // Growing lengths, the first well short of the answer: it was shown as it streamed, not in one go.
      expect(seen.lengths.length).toBeGreaterThanOrEqual(3);
      expect(seen.lengths).toEqual([...seen.lengths].sort((a, b) => a - b));
      expect(seen.lengths[0]).toBeLessThan(seen.lengths[seen.lengths.length - 1] / 2);
      expect(seen.agentStates).toEqual(['running', 'finished']);
      await panel.getByText(/^Last run took \d+\.\d\d s\.$/).waitFor();
      // The trace lists each component of the run.
      await panel.getByRole('tab', { name: 'Trace' }).click();
      for (const name of ['Retrieval_0', 'Agent_0', 'Message_0'])
        await panel.getByRole('tabpanel').getByText(name, { exact: false }).first().waitFor();
    },
  );

  it(
    'opens a template, changes a prompt, reloads and finds it autosaved; restores the older version',
    { timeout: 150_000 },
    async () => {
      await page.goto('/agent');
      await page.getByTestId('create-agent').waitFor();
      const title = await createAgent(
        page.getByRole('listitem').filter({ hasText: 'Knowledge Base Chatbot' }).locator('.ant-card'),
        null,
      );
      expect(title).toBe('Knowledge Base Chatbot');
      await page.getByTestId('node-Answer from knowledge').click();
      const system = () => nodeForm().getByLabel('System prompt');
      await expect.poll(() => system().inputValue(), POLL).toContain('answers only from the knowledge base');
      const original = await system().inputValue();
      const edited = original.replace('Keep the answer short', 'Keep the answer to two sentences');
      expect(edited).not.toBe(original);
      await system().fill(edited);
      await waitSaved();
      // Reload: the change is there.
      await page.reload();
      await page.getByTestId('node-Answer from knowledge').click();
      await expect.poll(() => system().inputValue(), POLL).toBe(edited);
      await expect.poll(saveState, POLL).toMatch(/^saved/);
      // Versions: the newest is the edit, the oldest the template as created. Restore the oldest.
      await page.getByTestId('open-versions').click();
      const drawer = page.getByRole('dialog', { name: 'Versions' });
      const items = drawer.getByTestId('version-item');
      await expect.poll(() => items.count(), POLL).toBeGreaterThanOrEqual(2);
      const before = await items.count();
      await expect.poll(() => items.first().innerText(), POLL).toContain('(current)');
      await items.last().click();
      await drawer.getByRole('img', { name: /^Preview of Knowledge Base Chatbot_/ }).waitFor();
      await drawer.getByTestId('version-restore').click();
      const confirm = page.locator('.ant-popconfirm').filter({ hasText: 'Put this version on the canvas?' });
      await clickUntilGone(page, confirm.getByRole('button', { name: 'OK' }), drawer);
      await toaster(page)('Version restored.');
      await page.getByTestId('node-Answer from knowledge').click();
      await expect.poll(() => system().inputValue(), POLL).toBe(original);
      await waitSaved();
      // The restored version is the newest one now, and it is what a reload shows.
      const canvasId = /\/agent\/([0-9a-f]{32})$/.exec(page.url())![1];
      const versions = await api<Array<{ id: string }>>(`canvas/getlistversion/${canvasId}`);
      expect(versions.length).toBe(before + 1);
      const stored = await api<{
        dsl: { components: Record<string, { obj: { params: { sys_prompt?: string } } }> };
      }>(`canvas/get/${canvasId}`);
      const agent = Object.entries(stored.dsl.components).find(([id]) => id.startsWith('Agent:'))![1];
      expect(agent.obj.params.sys_prompt).toBe(original);
    },
  );
});
