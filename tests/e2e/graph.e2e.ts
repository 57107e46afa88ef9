import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { graphRagReply, startOpenAIStandin, type Standin } from '../../apps/server/test/standins/index.js';
import { clickUntilGone, toaster, watchPageErrors, whatIsShown } from './chat-setup';
import { POLL, launchBrowser, registerAndSignIn, startServer, type RunningServer } from './helpers';

/**
 * The knowledge graph tab as a new user meets it: register, add an OpenAI-compatible stand-in whose
 * chat model answers GraphRAG's record format (apps/server/test/standins/graphrag.ts), upload and
 * parse a short document, start the graph job from the tab and watch it to done, then search an
 * entity, read its description and relations, open its source chunk, and delete the graph.
 */

const email = `graph.${Date.now()}@example.com`;
const password = 'graph-password-123';

const DOC = [
  'Ada Lovelace worked with Charles Babbage on the Analytical Engine.',
  '',
  'Charles Babbage designed the Difference Engine for Cambridge University.',
  '',
  'Ada Lovelace wrote the first program for the Analytical Engine.',
].join('\n');

let standin: Standin;
let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  standin = await startOpenAIStandin({ embeddingDim: 64, reply: graphRagReply });
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

async function api<T>(path: string, body?: unknown): Promise<T> {
  const token = await page.evaluate(() => localStorage.getItem('Authorization'));
  const res = await fetch(`${server.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { Authorization: token ?? '', 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = (await res.json()) as { code: number; message: string; data: T };
  expect(answer.code, `${path}: ${answer.message}`).toBe(0);
  return answer.data;
}

/**
 * The stand-in's chat and embedding models as the tenant's defaults, through the API: the model
 * settings page has its own browser test, and this one has to stay short on a loaded machine.
 */
async function standinDefaults() {
  const ids: Record<string, string> = {};
  for (const [type, name] of [
    ['chat', 'standin-chat'],
    ['embedding', 'standin-embed'],
  ]) {
    await api('/v1/llm/add_llm', {
      llm_factory: 'OpenAI-API-Compatible',
      llm_name: name,
      model_type: type,
      api_base: `${standin.url}/v1`,
      api_key: 'sk-test',
    });
    const models = await api<Record<string, Array<{ llm_name: string }>>>(`/v1/llm/list?model_type=${type}`);
    ids[type] = `${models['OpenAI-API-Compatible'][0].llm_name}@OpenAI-API-Compatible`;
  }
  const tenant = await api<{ tenant_id: string }>('/v1/user/tenant_info');
  await api('/v1/user/set_tenant_info', {
    tenant_id: tenant.tenant_id,
    llm_id: ids.chat,
    embd_id: ids.embedding,
    asr_id: '',
    img2txt_id: '',
  });
}

/** A knowledge base with the pioneers document, uploaded and parsed through the dataset tab. */
async function buildPioneers() {
  await page.locator('header nav').getByRole('link', { name: 'Knowledge base' }).click();
  await page.getByRole('button', { name: 'Create knowledge base' }).first().click();
  await page.getByRole('dialog').getByLabel('Name').fill('Pioneers');
  await page.getByRole('dialog').getByLabel('Name').press('Enter');
  await page.waitForURL(/\/knowledge\/[0-9a-f]{32}\/dataset$/);
  await page.getByRole('button', { name: 'Upload files' }).click();
  const upload = page.getByRole('dialog', { name: 'Upload files' });
  await upload
    .locator('input[type=file]')
    .setInputFiles([{ name: 'pioneers.txt', mimeType: 'text/plain', buffer: Buffer.from(DOC) }]);
  await upload.getByRole('button', { name: 'Upload (1)' }).click();
  await page.getByText('Uploaded!').waitFor();
  await clickUntilGone(page, upload.getByRole('button', { name: 'Close' }).last(), upload);
  const row = page.locator('tr.ant-table-row', { hasText: 'pioneers.txt' });
  await row.locator('[data-run="3"]').waitFor({ timeout: 60_000 });
}

describe('knowledge graph tab in the browser', () => {
  it(
    'runs the graph job with live progress, searches an entity and opens its source chunk',
    { timeout: 180_000 },
    async () => {
      const toast = toaster(page);
      await registerAndSignIn(page, { nickname: 'Ada', email, password });
      await standinDefaults();
      await buildPioneers();

      await page.getByRole('tab', { name: 'Knowledge graph' }).click();
      await page.waitForURL(/\/graph$/);
      await page.getByText('No knowledge graph yet').waitFor();
      const job = page.getByRole('group', { name: 'Knowledge graph' });
      await expect.poll(() => job.getAttribute('data-state'), POLL).toBe('none');

      await job.getByRole('button', { name: 'Generate knowledge graph' }).click();
      await toast('Knowledge graph: started.');
      await expect
        .poll(() => job.getAttribute('data-state'), { timeout: 60_000 })
        .toBe('done')
        .catch(async (error: unknown) => {
          throw new Error(`graph job not done: ${await whatIsShown(page)}`, { cause: error });
        });
      await job.getByRole('button', { name: 'Log' }).click();
      const log = page.getByRole('list', { name: 'Job log' });
      await expect.poll(() => log.innerText(), POLL).toContain('Task done');
      await job.getByRole('button', { name: 'Log' }).click();

      // The finished job reloads the graph: drawn with WebGL, five entities of the document.
      const canvas = page.getByTestId('graph-canvas');
      await expect.poll(() => canvas.getAttribute('data-nodes'), POLL).toBe('5');
      await expect.poll(() => canvas.locator('canvas').count(), POLL).toBeGreaterThan(0);
      await page.getByText(/^5 entities · \d+ relations$/).waitFor();

      // Search an entity: the panel shows its description, relations and source chunk.
      const search = page.getByRole('combobox', { name: 'Search an entity' });
      await search.fill('lovel');
      await page.locator('.ant-select-item-option', { hasText: 'ADA LOVELACE' }).click();
      const panel = page.getByRole('region', { name: 'Entity ADA LOVELACE' });
      await expect
        .poll(() => panel.getByTestId('graph-entity-description').innerText(), POLL)
        .toContain('Ada Lovelace');
      const relations = panel.getByRole('list', { name: 'Relations of ADA LOVELACE' });
      await expect.poll(() => relations.innerText(), POLL).toContain('CHARLES BABBAGE');

      await panel.getByRole('button', { name: 'Source chunk 1' }).click();
      const chunk = page.getByRole('dialog', { name: 'Source chunk' });
      await expect
        .poll(() => chunk.getByTestId('graph-chunk-content').innerText(), POLL)
        .toContain('Ada Lovelace wrote the first program');
      await expect.poll(() => chunk.innerText(), POLL).toContain('pioneers.txt');
      await clickUntilGone(page, chunk.getByRole('button', { name: 'Close' }), chunk);

      // A related entity opens from the relations list.
      await relations.getByRole('button', { name: 'CHARLES BABBAGE' }).click();
      await page.getByRole('region', { name: 'Entity CHARLES BABBAGE' }).waitFor();

      // Delete the graph, confirmed: back to the empty state.
      await page.getByRole('button', { name: 'Delete graph' }).click();
      const confirm = page.getByRole('dialog', { name: 'Delete the knowledge graph?' });
      await clickUntilGone(page, confirm.getByRole('button', { name: 'Delete' }), confirm);
      await toast('Deleted!');
      await page.getByText('No knowledge graph yet').waitFor();
      expect(await whatIsShown(page)).toContain('"errors":[]');
    },
  );
});
