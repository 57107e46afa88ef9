import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { standinEmbedding, startOpenAIStandin, type Standin } from '../../apps/server/test/standins/index.js';
import { makePdf } from './fixtures/pdf';
import { POLL, launchBrowser, registerAndSignIn, startServer, type RunningServer } from './helpers';

/**
 * The chunks issue as a user meets it: register, create a knowledge base (its embedding model is a
 * stand-in OpenAI-compatible server, set up through the API), upload and parse a text file and a PDF in
 * the browser, open the text file's chunks from the documents table, meet the choose-a-chunk-first
 * prompt, edit one chunk (a new unique word), disable another, filter and search, see the chunk in the
 * document beside the list (text and PDF, with the highlighted position), then run a retrieval test
 * for the unique word and see the edited chunk with its hybrid, term and vector similarities.
 */

const email = `chunks.${Date.now()}@example.com`;
const password = 'chunks-password-123';
const PARSE_TIMEOUT = 90_000;
const UNIQUE = 'zephyrquartz';
const TOPICS = ['solar', 'wind', 'hydro', 'tidal'];
const DIM = 256;
const ADDED = ` The ${UNIQUE} array sits on the roof.`;

let server: RunningServer;
let browser: Browser;
let standin: Standin;

beforeAll(async () => {
  standin = await startOpenAIStandin({ embeddingDim: DIM });
  server = await startServer({ BUILTIN_MODEL_HUB: 'http://127.0.0.1:9/' });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await standin?.close();
});

/** One line per topic, each longer than 512 tokens, so the naive method makes one chunk per topic. */
function energyText(): string {
  return TOPICS.map((topic) =>
    Array.from(
      { length: 40 },
      (_, j) =>
        `The ${topic} plant number ${j + 1} reports steady output and careful maintenance for the season.`,
    ).join(' '),
  ).join('\n');
}

function cosine(a: number[], b: number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  a.forEach((x, i) => {
    dot += x * b[i];
    na += x * x;
    nb += b[i] * b[i];
  });
  return dot / Math.sqrt(na * nb);
}

async function api<T>(
  page: Page,
  path: string,
  body?: unknown,
): Promise<{ code: number; message: string; data: T }> {
  const token = await page.evaluate(() => localStorage.getItem('Authorization'));
  const res = await fetch(`${server.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { Authorization: token ?? '', 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await res.json()) as { code: number; message: string; data: T };
}

const docRow = (page: Page, name: string): Locator =>
  page.locator('tr.ant-table-row', { has: page.getByTestId('doc-name').getByText(name, { exact: true }) });

const card = (page: Page, text: string): Locator => page.getByTestId('chunk-card').filter({ hasText: text });

describe('chunks and retrieval testing in the browser', () => {
  it('opens a parsed document’s chunks, edits, disables and searches them, then finds the edit by retrieval', async () => {
    const context = await browser.newContext({
      reducedMotion: 'reduce',
      baseURL: server.url,
      viewport: { width: 1500, height: 950 },
    });
    const page = await context.newPage();
    await registerAndSignIn(page, { nickname: 'Ada', email, password });

    // A knowledge base created in the browser, its embedding model set to the stand-in (API, setup only).
    await page.locator('header nav').getByRole('link', { name: 'Knowledge base' }).click();
    await page.getByRole('button', { name: 'Create knowledge base' }).first().click();
    await page.getByRole('dialog').getByLabel('Name').fill('Chunk lab');
    await page.getByRole('dialog').getByLabel('Name').press('Enter');
    await page.waitForURL(/\/knowledge\/[0-9a-f]{32}\/dataset$/);
    const kbId = /knowledge\/([0-9a-f]{32})\//.exec(page.url())![1];
    const added = await api(page, '/v1/llm/add_llm', {
      llm_factory: 'OpenAI-API-Compatible',
      llm_name: 'stand-in-embedder',
      model_type: 'embedding',
      api_base: `${standin.url}/v1`,
      api_key: 'sk-test',
    });
    expect(added.code, added.message).toBe(0);
    const models = await api<Record<string, Array<{ llm_name: string }>>>(
      page,
      '/v1/llm/list?model_type=embedding',
    );
    const embedder = models.data['OpenAI-API-Compatible'][0].llm_name;
    const updated = await api(page, '/v1/kb/update', {
      kb_id: kbId,
      name: 'Chunk lab',
      description: '',
      parser_id: 'naive',
      embd_id: `${embedder}@OpenAI-API-Compatible`,
    });
    expect(updated.code, updated.message).toBe(0);
    await page.reload();

    // Upload a text file and a PDF, parsed on creation.
    const pdf = makePdf([
      [
        'Photovoltaic panels convert sunlight into electricity.',
        'Inverters turn direct current into alternating current.',
      ],
    ]);
    await page.getByRole('button', { name: 'Upload files' }).click();
    const upload = page.getByRole('dialog', { name: 'Upload files' });
    await upload.locator('input[type=file]').setInputFiles([
      { name: 'energy.txt', mimeType: 'text/plain', buffer: Buffer.from(energyText()) },
      { name: 'panels.pdf', mimeType: 'application/pdf', buffer: pdf },
    ]);
    await upload.getByLabel('Parse on creation').check(); // on by default
    await upload.getByRole('button', { name: 'Upload (2)' }).click();
    await page.getByText('Uploaded!').waitFor();
    await upload.locator('.ant-modal-footer').getByRole('button', { name: 'Close' }).click();
    for (const name of ['energy.txt', 'panels.pdf']) {
      await docRow(page, name).locator('[data-run="3"]').waitFor({ timeout: PARSE_TIMEOUT });
    }

    // The document name leads to its chunks: one per topic, the file's text beside them.
    await docRow(page, 'energy.txt').getByRole('link', { name: 'energy.txt' }).click();
    await page.waitForURL(/\/knowledge\/[0-9a-f]{32}\/dataset\/[0-9a-f]{32}\/chunks$/);
    await page.getByRole('heading', { name: 'Chunks of energy.txt' }).waitFor();
    // Each topic line is longer than the 512-token budget, so the naive method cuts it once or more.
    const totalText = page.getByText(/^Total chunks: \d+$/);
    await totalText.waitFor();
    const total = Number(/\d+/.exec(await totalText.innerText())![0]);
    expect(total).toBeGreaterThanOrEqual(TOPICS.length);
    for (const topic of TOPICS) await card(page, `The ${topic} plant number 1 `).waitFor();
    await expect.poll(() => page.getByTestId('chunk-card').count(), POLL).toBe(total);
    const hydroChunks = await card(page, 'hydro').count();
    await page.getByTestId('text-preview').waitFor();

    // Bulk actions with nothing selected ask to choose a chunk first.
    await page.getByRole('button', { name: /Bulk actions/ }).click();
    await page.getByRole('menuitem', { name: 'Disable' }).click();
    await page.getByText('Please select a chunk first.').waitFor();

    // Selecting a chunk marks its passage in the document text.
    const tidal = card(page, 'The tidal plant number 1 ');
    const tidalText = (await tidal.getByTestId('chunk-content').innerText()).replace(/\s+/g, ' ');
    await tidal.click();
    const marked = page.getByTestId('text-preview').getByTestId('chunk-highlight');
    await expect.poll(async () => (await marked.innerText()).replace(/\s+/g, ' ')).toBe(tidalText.trim());

    // Edit the solar chunk: a unique word at the end.
    const solar = card(page, 'The solar plant number 1 ');
    await solar.getByRole('button', { name: /^Edit chunk/ }).click();
    const editor = page.getByRole('dialog', { name: 'Edit chunk' });
    const content = editor.getByLabel('Content');
    await expect.poll(() => content.inputValue()).toContain('The solar plant number 1 reports');
    await content.press('ControlOrMeta+End');
    await content.pressSequentially(ADDED);
    await editor.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Modified!').waitFor();
    await editor.waitFor({ state: 'hidden' });
    await card(page, UNIQUE).waitFor();

    // Disable the wind chunk with its switch.
    const wind = card(page, 'The wind plant number 1 ');
    const windId = await wind.getAttribute('data-chunk-id');
    await wind.getByRole('switch', { name: /^Enable chunk/ }).click();
    await expect.poll(() => wind.getAttribute('data-enabled')).toBe('0');

    // The status filter: disabled shows only the wind chunk; enabled the other three; all four again.
    const filter = page.getByLabel('Chunk status');
    await filter.getByText('Disabled', { exact: true }).click();
    await page.getByText('Total chunks: 1').waitFor();
    await card(page, 'The wind plant number 1 ').waitFor();
    await filter.getByText('Enabled', { exact: true }).click();
    await page.getByText(`Total chunks: ${total - 1}`).waitFor();
    await expect.poll(() => card(page, 'The wind plant number 1 ').count(), POLL).toBe(0);
    await filter.getByText('All', { exact: true }).click();
    await page.getByText(`Total chunks: ${total}`).waitFor();

    // Keyword search: only the hydro chunks, their hits highlighted.
    const search = page.getByLabel('Search chunks');
    await search.fill('hydro');
    await search.press('Enter');
    await page.getByText(`Total chunks: ${hydroChunks}`).waitFor();
    const found = page.getByTestId('chunk-card');
    await expect.poll(() => found.count(), POLL).toBe(hydroChunks);
    for (const c of await found.all()) expect(await c.locator('em').first().innerText()).toBe('hydro');
    await search.fill('');
    await search.press('Enter');
    await page.getByText(`Total chunks: ${total}`).waitFor();

    // Retrieval testing: the unique word finds the edited chunk, with its three similarities.
    await page.getByRole('link', { name: 'Chunk lab' }).click();
    await page.getByRole('tab', { name: 'Retrieval testing' }).click();
    await page.getByRole('textbox', { name: 'Question' }).fill(UNIQUE);
    // The UI starts at threshold 0.2, which is also the cosine floor of the vector part (API.md §19.3);
    // at 0 every candidate's cosine counts, so the vector similarity shown is the plain cosine.
    const threshold = page.getByRole('spinbutton', { name: 'Similarity threshold' });
    expect(Number(await threshold.inputValue())).toBe(0.2);
    expect(
      Number(await page.getByRole('spinbutton', { name: 'Keyword similarity weight' }).inputValue()),
    ).toBe(0.7);
    await threshold.fill('0');
    await page.getByRole('button', { name: /\bTest$/ }).click();
    const hit = page.getByTestId('retrieval-hit').first();
    await hit.waitFor();
    await expect.poll(() => page.getByTestId('retrieval-hit').count(), POLL).toBe(1);
    await expect
      .poll(() => hit.getByTestId('hit-content').locator('em').first().innerText(), POLL)
      .toBe(UNIQUE);
    await hit.getByText('energy.txt').waitFor();
    const pct = async (id: string) => Number(/(-?[\d.]+)%/.exec(await hit.getByTestId(id).innerText())![1]);
    expect(await pct('term-similarity')).toBe(100);
    // The vector part is the cosine of the question's and the chunk's stand-in embeddings
    // (chunk = 0.1·name + 0.9·content), computed here independently.
    const stored = await api<{ content_with_weight: string }>(
      page,
      `/v1/chunk/get?chunk_id=${await hit.getAttribute('data-chunk-id')}`,
    );
    expect(stored.data.content_with_weight.endsWith(ADDED)).toBe(true);
    const q = standinEmbedding(UNIQUE, DIM);
    const name = standinEmbedding('energy.txt', DIM);
    const body = standinEmbedding(stored.data.content_with_weight.replace(/\s+/g, ' ').trim(), DIM);
    const chunkVec = name.map((x, i) => 0.1 * x + 0.9 * body[i]);
    const vector = await pct('vector-similarity');
    expect(Math.abs(vector - 100 * cosine(q, chunkVec))).toBeLessThan(0.01);
    // Hybrid = 0.3·vector + 0.7·term with the UI's keyword weight 0.7.
    expect(Math.abs((await pct('hybrid-similarity')) - (0.3 * vector + 0.7 * 100))).toBeLessThan(0.02);
    await expect.poll(() => page.getByTestId('keyword-only').count(), POLL).toBe(0);
    // The disabled chunk is never retrieved (the rest of the wind line, if it was cut, still is).
    await page.getByRole('textbox', { name: 'Question' }).fill('wind');
    await page.getByRole('button', { name: /\bTest$/ }).click();
    await expect
      .poll(async () =>
        (await page.getByTestId('hit-content').allInnerTexts()).every((x) => x.includes('wind')),
      )
      .toBe(true);
    await expect
      .poll(() => page.locator(`[data-testid="retrieval-hit"][data-chunk-id="${windId}"]`).count(), POLL)
      .toBe(0);

    // The PDF's chunk is drawn on its rendered page.
    await page.getByRole('tab', { name: 'Dataset' }).click();
    await docRow(page, 'panels.pdf').getByRole('link', { name: 'panels.pdf' }).click();
    await page.getByRole('heading', { name: 'Chunks of panels.pdf' }).waitFor();
    await page.getByTestId('pdf-page').first().waitFor({ timeout: 30_000 });
    await page.getByTestId('chunk-card').first().click();
    const mark = page.getByTestId('pdf-preview').getByTestId('chunk-highlight').first();
    await mark.waitFor();
    const box = await mark.boundingBox();
    expect(box!.width).toBeGreaterThan(20);
    expect(box!.height).toBeGreaterThan(5);
    // The page canvas was painted (pdf.js ran), not left blank.
    const painted = await page
      .getByTestId('pdf-page')
      .first()
      .locator('canvas')
      .evaluate((c: HTMLCanvasElement) => {
        const data = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
        let dark = 0;
        for (let i = 0; i < data.length; i += 4) if (data[i] < 128 && data[i + 3] > 0) dark++;
        return dark;
      });
    expect(painted).toBeGreaterThan(50);
    await context.close();
  });
});
