import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { POLL, launchBrowser, makePng, startServer, type RunningServer } from './helpers';

/**
 * Teams in the browser (SPEC §2, §4, §6; API.md §3) with two accounts in two browser contexts. The
 * owner's knowledge base and its document are set up over the API; every sharing step is done in
 * the UI: the owner switches the knowledge base to "Team" and invites the member by e-mail in the
 * Team tab; the member accepts in its own session, finds the shared knowledge base (with the owner's
 * name and picture) and its document, then leaves the team and the knowledge base disappears.
 */

const password = 'team-password-123';
const stamp = Date.now();
const owner = { nickname: 'Olivia', email: `olivia.${stamp}@example.com` };
const member = { nickname: 'Mateo', email: `mateo.${stamp}@example.com` };

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

async function api<T>(token: string, route: string, body: unknown): Promise<T> {
  const res = await fetch(`${server.url}${route}`, {
    method: 'POST',
    headers: { Authorization: token, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as { code: number; message: string; data: T };
  expect(json.code, json.message).toBe(0);
  return json.data;
}

async function register(who: { nickname: string; email: string }): Promise<string> {
  const res = await fetch(`${server.url}/v1/user/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ ...who, password }),
  });
  expect(((await res.json()) as { code: number }).code).toBe(0);
  return res.headers.get('Authorization') ?? '';
}

/** A signed-in session of its own (cookies and storage are per context). */
async function session(token: string, path: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    reducedMotion: 'reduce',
    baseURL: server.url,
    viewport: { width: 1400, height: 900 },
  });
  const page = await context.newPage();
  await page.goto(`${path}?auth=${encodeURIComponent(token)}`);
  return { context, page };
}

/** Settings → Team through the account menu and the settings menu (no page load). */
async function openTeamSettings(page: Page, nickname: string) {
  await page.getByRole('button', { name: `Account menu for ${nickname}` }).click();
  await page.getByRole('menuitem', { name: 'User settings' }).click();
  await page.waitForURL('**/user-setting/profile');
  // The profile must have replaced the team page, so that Team mounts (and re-reads) afresh.
  await page.getByLabel('Username').waitFor();
  await page.getByRole('navigation', { name: 'User settings' }).getByRole('link', { name: 'Team' }).click();
  await page.waitForURL('**/user-setting/team');
}

/** Waits until no modal or popconfirm is open or closing any more. */
async function overlaysClosed(page: Page) {
  await expect
    .poll(() => page.locator('.ant-popover:not(.ant-popover-hidden), .ant-modal-wrap:visible').count(), POLL)
    .toBe(0);
}

describe('teams in the browser', () => {
  it('invites a second account, which accepts, sees the shared knowledge base, leaves and loses it', async () => {
    const ownerToken = await register(owner);
    const memberToken = await register(member);
    await api(ownerToken, '/v1/user/setting', {
      avatar: `data:image/png;base64,${makePng(32, 32).toString('base64')}`,
    });
    const { kb_id: kbId } = await api<{ kb_id: string }>(ownerToken, '/v1/kb/create', {
      name: 'Team handbook',
    });
    const form = new FormData();
    form.append('kb_id', kbId);
    form.append('file', new Blob(['Stand-up is at nine every weekday.']), 'rituals.txt');
    const up = await fetch(`${server.url}/v1/document/upload`, {
      method: 'POST',
      headers: { Authorization: ownerToken },
      body: form,
    });
    expect(((await up.json()) as { code: number }).code).toBe(0);

    // The owner shares the knowledge base with the team: Configuration → Permissions → Team.
    const o = await session(ownerToken, `/knowledge/${kbId}/configuration`);
    await o.page.getByRole('heading', { name: 'Team handbook' }).waitFor();
    await o.page.getByRole('radio', { name: 'Team' }).check();
    await o.page.getByRole('button', { name: 'Save' }).click();
    await o.page.getByText('Updated!').waitFor();

    // … and invites the member by e-mail in Settings → Team.
    await openTeamSettings(o.page, owner.nickname);
    await o.page.getByText('No members yet').waitFor();
    await o.page.getByLabel('E-mail of the person to invite').fill(member.email);
    await o.page.getByRole('button', { name: 'Invite' }).click();
    await o.page.getByText('Invitation sent').waitFor();
    const invitedRow = o.page.locator('tr.ant-table-row', { hasText: member.email });
    await invitedRow.getByText('Awaiting reply').waitFor();
    await invitedRow.getByText('Mateo', { exact: true }).waitFor();

    // Before answering, the member sees nothing of the owner's.
    const m = await session(memberToken, '/knowledge');
    await m.page.getByText('No knowledge base yet. Create one to upload and parse your documents.').waitFor();

    // The member accepts in its own session.
    await openTeamSettings(m.page, member.nickname);
    const invitation = m.page.locator('tr.ant-table-row', { hasText: owner.email });
    await invitation.getByRole('button', { name: 'Accept' }).click();
    await m.page.getByText('You joined the team').waitFor();
    await m.page.getByText('No pending invitations').waitFor();
    const joinedRow = m.page.locator('tr.ant-table-row', { hasText: owner.email });
    await joinedRow.getByRole('button', { name: 'Leave' }).waitFor();

    // The owner's member list, opened again, shows the member as active.
    await openTeamSettings(o.page, owner.nickname);
    await o.page.locator('tr.ant-table-row', { hasText: member.email }).getByText('Active').waitFor();

    // The shared knowledge base is in the member's list, with the owner's name and picture.
    await m.page.locator('header nav').getByRole('link', { name: 'Knowledge base' }).click();
    await m.page.waitForURL('**/knowledge');
    const card = m.page.getByRole('listitem').filter({ hasText: 'Team handbook' });
    await card.getByText('Olivia', { exact: true }).waitFor();
    await card.getByText('Team', { exact: true }).waitFor();
    await expect
      .poll(() => card.locator('img[src^="data:image/png"]').count(), POLL)
      .toBeGreaterThanOrEqual(1);
    // Not the owner: no delete menu.
    expect(await card.getByRole('button', { name: 'Actions for Team handbook' }).count()).toBe(0);

    // The member opens it and sees its document.
    await card.getByRole('link', { name: 'Team handbook' }).click();
    await m.page.waitForURL(`**/knowledge/${kbId}/dataset`);
    await m.page.getByTestId('doc-name').getByText('rituals.txt', { exact: true }).waitFor();

    // The member leaves the team (with a confirmation); the knowledge base disappears at once.
    await openTeamSettings(m.page, member.nickname);
    await m.page
      .locator('tr.ant-table-row', { hasText: owner.email })
      .getByRole('button', { name: 'Leave' })
      .click();
    await m.page.getByText('Leave the team of Olivia?').waitFor();
    await m.page.locator('.ant-popconfirm').getByRole('button', { name: 'Leave' }).click();
    await m.page.getByText('You left the team').waitFor();
    await overlaysClosed(m.page);
    await m.page.getByText('You have not joined another team').waitFor();

    await m.page.locator('header nav').getByRole('link', { name: 'Knowledge base' }).click();
    await m.page.waitForURL('**/knowledge');
    await m.page.getByText('No knowledge base yet. Create one to upload and parse your documents.').waitFor();
    expect(await m.page.getByText('Team handbook').count()).toBe(0);

    // The owner's list no longer has the member.
    await openTeamSettings(o.page, owner.nickname);
    await o.page.getByText('No members yet').waitFor();

    await m.context.close();
    await o.context.close();
    // Two cold page loads dominate: 116 s was measured at a load average of 22 on two cores.
  }, 240_000);
});
