import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  startMcpStandin,
  startOpenAIStandin,
  type McpStandin,
  type OpenAIChatBody,
  type Standin,
} from '../../apps/server/test/standins/index.js';
import { textOf, type ChatScript } from '../../apps/server/test/standins/openai.js';
import { choose, watchPageErrors, whatIsShown } from './chat-setup';
import { POLL, launchBrowser, registerAndSignIn, startServer, type RunningServer } from './helpers';

/**
 * An Agent with two tools, built in the editor: CodeExec (JavaScript in the QuickJS sandbox) and the
 * `add` tool of an MCP server (a local server built with the official SDK, registered through the
 * API). The stand-in model asks for both in one round through function calling and answers with
 * what they returned; the run panel shows the answer, and its trace lists both calls with their
 * arguments and results.
 */

const FACTORY = 'OpenAI-API-Compatible';
const SCRIPT = 'function main() { return { result: 6 * 7 }; }';

let llm: Standin;
let mcp: McpStandin;
let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

/** Round one: call the CodeExec tool and the MCP `add` tool together; then answer with their results. */
function reply(body: OpenAIChatBody): ChatScript {
  const offered = (body.tools as Array<{ function: { name: string } }> | undefined) ?? [];
  const results = body.messages.filter((m) => m.role === 'tool').map((m) => textOf(m.content));
  const code = offered.find((t) => t.function.name.startsWith('execute_code'))?.function.name;
  const add = offered.find((t) => t.function.name === 'add')?.function.name;
  // The round after the calls offers no tools (the Agent's last round): answer from the results.
  if (results.length > 0) return { content: `Tool results: ${results.join(' and ')}.` };
  if (!code || !add) return { content: `Missing tools: offered ${offered.map((t) => t.function.name)}` };
  return {
    content: '',
    toolCalls: [
      { id: 'call_code', name: code, arguments: { lang: 'javascript', script: SCRIPT } },
      { id: 'call_mcp', name: add, arguments: { a: 20, b: 22 } },
    ],
  };
}

beforeAll(async () => {
  llm = await startOpenAIStandin({ reply });
  mcp = await startMcpStandin();
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
  await mcp?.close();
  await llm?.close();
});

beforeEach(() => {
  onTestFailed(async () => console.log(`page at the failure: ${await whatIsShown(page)}`));
});

const token = () => page.evaluate(() => localStorage.getItem('Authorization') ?? '');

async function api<T>(route: string, body: unknown): Promise<T> {
  const res = await fetch(`${server.url}/v1/${route}`, {
    method: 'POST',
    headers: { Authorization: await token(), 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const parsed = (await res.json()) as { code: number; message: string; data: T };
  expect(parsed.code, `${route}: ${parsed.message}`).toBe(0);
  return parsed.data;
}

const nodeForm = () => page.getByTestId('node-form');
const formItem = (label: string) =>
  nodeForm()
    .locator('.ant-form-item')
    .filter({ has: page.locator('.ant-form-item-label').getByText(label, { exact: true }) });
const paletteButton = (name: string) =>
  page.getByRole('navigation', { name: 'Components' }).getByTestId(`palette-${name}`);

describe('an Agent using CodeExec and an MCP tool, in the browser', () => {
  it(
    'runs both tools from the run panel and shows both calls in the trace',
    { timeout: 180_000 },
    async () => {
      await registerAndSignIn(page, {
        nickname: 'Grace',
        email: `grace.${Date.now()}@example.com`,
        password: 'tools-password-1',
      });
      await api('llm/add_llm', {
        llm_factory: FACTORY,
        llm_name: 'standin-chat',
        model_type: 'chat',
        api_base: llm.url,
        api_key: 'sk-test',
      });
      await api('mcp_server/create', {
        name: 'Calculator',
        url: mcp.streamableUrl,
        server_type: 'streamable-http',
      });

      // Begin → Agent (CodeExec + the Calculator's tools) → Message, from the palette.
      await page.locator('header nav').getByRole('link', { name: 'Agent' }).click();
      await page.waitForURL('**/agent');
      await page.getByTestId('create-agent').click();
      const gallery = page.getByRole('dialog', { name: 'Create an agent' });
      await gallery.getByRole('list', { name: 'Templates' }).waitFor();
      await page.getByTestId('template-blank').click();
      const naming = page.getByRole('dialog', { name: 'Name your agent' });
      await naming.getByLabel('Name').fill('Two tools');
      await naming.getByRole('button', { name: 'Create' }).click();
      await page.waitForURL(/\/agent\/[0-9a-f]{32}$/);
      await page.getByTestId('node-begin').click();
      await paletteButton('Agent').click();
      await page.getByTestId('node-Agent_0').waitFor();
      await expect.poll(() => nodeForm().getByLabel('Name').inputValue(), POLL).toBe('Agent_0');
      await choose(nodeForm().getByLabel('Model'), 'standin-chat');
      await formItem('Model').locator('.ant-select', { hasText: 'standin-chat' }).waitFor();
      await nodeForm().getByLabel('User prompt').fill('{sys.query}');
      await choose(formItem('Tools').locator('.ant-select input'), 'CodeExec');
      await page.keyboard.press('Escape');
      await formItem('Tools').locator('.ant-select', { hasText: 'CodeExec' }).waitFor();
      await choose(nodeForm().getByLabel('MCP servers'), 'Calculator'); // found by its name
      await page.keyboard.press('Escape');
      await formItem('MCP servers').locator('.ant-select', { hasText: 'Calculator' }).waitFor();
      const agentId = (await page.getByTestId('node-Agent_0').getAttribute('data-node-id')) as string;

      await paletteButton('Message').click();
      await page.getByTestId('node-Message_0').waitFor();
      const message = formItem('Message text');
      await message.getByRole('button', { name: 'Insert a variable' }).click();
      const picker = message.getByLabel('Choose a variable');
      await picker.fill('Agent_0 · content');
      await page.locator('.ant-select-item-option', { hasText: 'Agent_0 · content' }).first().waitFor();
      await picker.press('Enter');
      await expect
        .poll(() => nodeForm().getByLabel('Message text').inputValue(), POLL)
        .toBe(`{${agentId}@content}`);
      await expect
        .poll(() => page.getByTestId('save-state').evaluate((el) => el.textContent ?? ''), {
          timeout: 15_000,
        })
        .toMatch(/Saved at \d\d:\d\d:\d\d/);

      // Run from the run panel.
      const callsBefore = mcp.calls.length;
      await page.getByTestId('open-run').click();
      const panel = page.getByTestId('run-panel');
      const input = panel.getByTestId('run-input');
      await input.fill('What is 6 times 7, and 20 plus 22?');
      await input.press('Enter');
      const answer = panel.getByTestId('run-answer').last();
      try {
        await expect
          .poll(() => answer.innerText(), { timeout: 60_000 })
          .toMatch(/Tool results: .*"result": ?42.* and 42\./);
      } catch (error) {
        throw new Error(`no answer: ${await whatIsShown(page)}`, { cause: error });
      }
      await panel.getByTestId('run-send').waitFor();
      expect(mcp.calls.slice(callsBefore)).toEqual([{ name: 'add', args: { a: 20, b: 22 } }]);

      // The trace: the Agent's tool calls, each with its arguments and result.
      await panel.getByRole('tab', { name: 'Trace' }).click();
      const trace = panel.getByTestId('trace-view');
      await trace.getByRole('button', { name: 'Show tool calls' }).click();
      await trace.getByText('Agent_0', { exact: false }).first().click();
      const steps = trace.locator('pre').filter({ hasText: '"tool_name"' });
      await expect.poll(() => steps.count(), POLL).toBeGreaterThan(0);
      const shown = JSON.parse(await steps.first().innerText()) as Array<{
        tool_name: string;
        arguments: Record<string, unknown>;
        result: unknown;
        elapsed_time: number;
      }>;
      const codeCall = shown.find((s) => s.tool_name.startsWith('execute_code'));
      const mcpCall = shown.find((s) => s.tool_name === 'add');
      expect(codeCall?.arguments).toMatchObject({ lang: 'javascript', script: SCRIPT });
      expect(JSON.stringify(codeCall?.result)).toContain('42');
      expect(mcpCall).toMatchObject({ arguments: { a: 20, b: 22 }, result: '42' });
      expect(mcpCall!.elapsed_time).toBeGreaterThanOrEqual(0);
    },
  );
});
