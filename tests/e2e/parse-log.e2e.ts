import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { watchPageErrors } from './chat-setup';
import { makeDocx } from './fixtures/office';
import { POLL, launchBrowser, registerAndSignIn, startServer, type RunningServer } from './helpers';

/**
 * The parse log in the user's language (issue 11, item 12): a DOCX is parsed (keyword-only: no
 * embedding model can be loaded here), the user switches the interface to German in the header menu,
 * and the document's parse log shows the server's English lines in German, with their numbers; back
 * in English it reads as the server wrote it.
 */

const email = `parselog.${Date.now()}@example.com`;
const password = 'parse-log-123';
const PARSE_TIMEOUT = 90_000;

let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
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
});

const token = () => page.evaluate(() => localStorage.getItem('Authorization') ?? '');

async function api<T>(route: string, body: unknown): Promise<T> {
  const form = body instanceof FormData;
  const res = await fetch(`${server.url}/v1/${route}`, {
    method: 'POST',
    headers: { Authorization: await token(), ...(form ? {} : { 'Content-Type': 'application/json' }) },
    body: form ? body : JSON.stringify(body),
  });
  const parsed = (await res.json()) as { code: number; message: string; data: T };
  expect(parsed.code, parsed.message).toBe(0);
  return parsed.data;
}

describe('parse log', () => {
  it('shows the log of a parsed document in German', { timeout: 180_000 }, async () => {
    await registerAndSignIn(page, { nickname: 'Leser', email, password });
    const { kb_id: kbId } = await api<{ kb_id: string }>('kb/create', { name: 'Notizen' });
    const docx = await makeDocx([
      ['Heading1', 'Windkraft'],
      ['', 'Windräder wandeln die Bewegung der Luft in Strom um.'],
      ['Heading1', 'Speicher'],
      ['', 'Batterien speichern den Strom für windstille Tage.'],
    ]);
    const upload = new FormData();
    upload.append('kb_id', kbId);
    upload.append('file', new Blob([new Uint8Array(docx)]), 'wind.docx');
    const [doc] = await api<Array<{ id: string }>>('document/upload', upload);
    await api('document/run', { doc_ids: [doc.id], run: '1' });

    await page.goto(`/knowledge/${kbId}/dataset`);
    await page.locator(`[data-testid="status-${doc.id}"][data-run="3"]`).waitFor({ timeout: PARSE_TIMEOUT });

    // German from the header's language menu.
    await page.getByRole('button', { name: 'Language' }).first().click();
    await page.getByRole('menuitem', { name: 'Deutsch' }).click();
    await page.getByRole('button', { name: 'Analyseprotokoll von wind.docx' }).hover();
    const log = page.getByRole('list', { name: 'Analyseprotokoll' });
    await log.waitFor();
    const text = await log.innerText();
    expect(text).toContain('Parsen beginnt.');
    expect(text).toMatch(/DOCX geparst: \d+ Abschnitte\./);
    expect(text).toMatch(/\d+ Chunks erzeugt/);
    // No usable embedding model here: keyword-only, said in German (the cause is the server's own).
    expect(text).toContain('Nur-Stichwort-Indexierung: ');
    expect(text).toMatch(/Indexierung abgeschlossen \(\d+\.\d\d s\)\./);
    expect(text).toMatch(/Aufgabe erledigt \(\d+\.\d\d s\)/);
    // Nothing of the English log is left.
    expect(text).not.toContain('Start to parse.');
    expect(text).not.toContain('Task done');

    // Back in English, the same log reads as the server wrote it.
    await page.mouse.move(0, 0);
    await page.getByRole('button', { name: 'Sprache' }).first().click();
    await page.getByRole('menuitem', { name: 'English' }).click();
    await page.getByRole('button', { name: 'Parsing log of wind.docx' }).hover();
    await expect
      .poll(() => page.getByRole('list', { name: 'Parsing log' }).innerText(), POLL)
      .toContain('Start to parse.');
  });
});
