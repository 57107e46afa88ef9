import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startMcpStandin, type McpStandin } from '../../apps/server/test/standins/index.js';
import { POLL, launchBrowser, registerAndSignIn, startServer, type RunningServer } from './helpers';

/**
 * Settings → MCP servers in the browser, against a local MCP server built with the official SDK:
 * add a server after testing the connection, browse its tools and run one, switch a tool off, import
 * a second server from JSON, export both as a file, and remove one after confirming.
 */

let mcp: McpStandin;
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  mcp = await startMcpStandin();
  server = await startServer();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await mcp?.close();
});

const token = (page: Page) => page.evaluate(() => localStorage.getItem('Authorization') ?? '');

async function servers(page: Page) {
  const res = await fetch(`${server.url}/v1/mcp_server/list`, {
    method: 'POST',
    headers: { Authorization: await token(page), 'Content-Type': 'application/json' },
    body: '{}',
  });
  const body = (await res.json()) as {
    data: {
      mcp_servers: Array<{ name: string; variables: { tools: Record<string, { enabled: boolean }> } }>;
    };
  };
  return body.data.mcp_servers;
}

describe('MCP servers in the browser', () => {
  it('adds, tests, browses, imports, exports and removes MCP servers', async () => {
    const context = await browser.newContext({
      reducedMotion: 'reduce',
      baseURL: server.url,
      viewport: { width: 1280, height: 900 },
      acceptDownloads: true,
    });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    await registerAndSignIn(page, {
      nickname: 'Ada',
      email: `ada.${Date.now()}@example.com`,
      password: 'mcp-password-1',
    });

    await page.goto('/user-setting/profile');
    await page.getByRole('link', { name: 'MCP servers' }).click();
    await page.waitForURL('**/user-setting/mcp');
    await page.getByText('No MCP servers yet. Add one or import a configuration.').waitFor();

    // Add: the connection test lists the tools before saving.
    await page.getByRole('button', { name: 'Add server' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add MCP server' });
    await dialog.getByLabel('Name').fill('Stand-in');
    await dialog.getByLabel('Server address').fill(mcp.streamableUrl);
    await dialog.getByRole('button', { name: 'Test connection' }).click();
    await dialog.getByText('Connected: the server lists 3 tools.').waitFor();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    const row = page.getByRole('row', { name: /Stand-in/ });
    await row.getByText('Tools: 3').waitFor();

    // Browse the tools, run one, switch one off.
    await row.getByRole('button', { name: 'Tools of Stand-in' }).click();
    const drawer = page.getByRole('dialog', { name: 'Tools of Stand-in' });
    await drawer.getByText('lookup — Look up').waitFor();
    await drawer.getByText('add', { exact: true }).click();
    await drawer.getByLabel('Arguments (JSON)').fill('{"a": 2, "b": 3}');
    await drawer.getByRole('button', { name: 'Run tool' }).click();
    await drawer.getByRole('status').getByText('5', { exact: true }).waitFor();
    await drawer.getByRole('switch', { name: 'Enable broken' }).click();
    await drawer.getByRole('button', { name: 'Save tool selection' }).click();
    await page.getByText('Tool selection saved').first().waitFor();
    await expect
      .poll(async () => (await servers(page))[0]?.variables.tools.broken?.enabled, POLL)
      .toBe(false);
    await drawer.getByRole('button', { name: 'Close' }).click();
    await drawer.waitFor({ state: 'detached' });

    // Import a second server from JSON.
    await page.getByRole('button', { name: 'Import' }).click();
    const importer = page.getByRole('dialog', { name: 'Import MCP servers' });
    await importer
      .getByLabel('Import MCP servers')
      .fill(JSON.stringify({ mcpServers: { Imported: { type: 'sse', url: mcp.sseUrl } } }));
    await importer.getByRole('button', { name: 'Import' }).click();
    await page.getByText('1 imported, 0 failed.').first().waitFor();
    await importer.waitFor({ state: 'detached' });
    await page
      .getByRole('row', { name: /Imported/ })
      .getByText('Tools: 3')
      .waitFor();

    // Export both as a file in the mcpServers format.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export all' }).click(),
    ]);
    const file = JSON.parse(fs.readFileSync((await download.path())!, 'utf8')) as {
      mcpServers: Record<string, { type: string; url: string }>;
    };
    expect(Object.keys(file.mcpServers).sort()).toEqual(['Imported', 'Stand-in']);
    expect(file.mcpServers.Imported).toMatchObject({ type: 'sse', url: mcp.sseUrl });

    // Remove one after confirming.
    await page.getByRole('button', { name: 'Delete Imported' }).click();
    await page.getByRole('tooltip').getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('row', { name: /Imported/ }).waitFor({ state: 'detached' });
    await expect.poll(async () => (await servers(page)).map((s) => s.name), POLL).toEqual(['Stand-in']);
    await context.close();
  }, 240_000); // one long flow on a shared, loaded machine
});
