import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { focusManager, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntdApp } from 'antd';
import type { JoinedTeam, TeamMember } from '@lectern/shared';
import '../../i18n';
import { TEAM_POLL_MS } from '../../api/tenant';
import { userKeys } from '../../api/user';
import TeamPage from './TeamPage';

/**
 * Open Team settings follow changes made in other sessions: while the window is visible the lists
 * are re-read every TEAM_POLL_MS, not while it is hidden, and at once when the window regains focus.
 * The server is a fake `fetch` whose answers change between the steps as another session would.
 */

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const member = (role: TeamMember['role']): TeamMember => ({
  id: 'm1',
  user_id: 'bob',
  role,
  status: '1',
  nickname: 'Bob',
  email: 'bob@example.com',
  avatar: null,
  is_active: '1',
  is_authenticated: '1',
  is_anonymous: '0',
  is_superuser: false,
  update_date: 'Thu, 26 Nov 2026 07:00:00 GMT',
  delta_seconds: 0,
});

const invitation: JoinedTeam = {
  tenant_id: 'carol',
  role: 'invite',
  nickname: 'Carol',
  email: 'carol@example.com',
  avatar: null,
  update_date: 'Thu, 26 Nov 2026 07:00:00 GMT',
  delta_seconds: 0,
};

let server: { members: TeamMember[]; joined: JoinedTeam[] };
let reads: string[];
let root: Root | null = null;
let host: HTMLDivElement;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
  server = { members: [member('invite')], joined: [invitation] };
  reads = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const url = String(input instanceof Request ? input.url : input);
    reads.push(url);
    const data = url.includes('/user/list') ? server.members : server.joined;
    return new Response(JSON.stringify({ code: 0, message: 'success', data }), {
      headers: { 'Content-Type': 'application/json' },
    });
  });
});

afterEach(async () => {
  act(() => root?.unmount());
  host?.remove();
  focusManager.setFocused(undefined);
  vi.useRealTimers();
  vi.restoreAllMocks();
  await new Promise((resolve) => setTimeout(resolve, 20));
});

async function mount() {
  host = document.createElement('div');
  document.body.appendChild(host);
  root = createRoot(host);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(userKeys.info, { id: 'alice', nickname: 'Alice' } as never);
  await act(async () => {
    root?.render(
      <QueryClientProvider client={client}>
        <AntdApp>
          <TeamPage />
        </AntdApp>
      </QueryClientProvider>,
    );
  });
  await advance(0);
}

/** Moves the fake clock, then lets the answers read by the poll (real I/O callbacks) reach the page. */
const advance = (ms: number) =>
  act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
    for (let i = 0; i < 10; i++) {
      await new Promise((resolve) => setImmediate(resolve));
      await vi.advanceTimersByTimeAsync(10);
    }
  });
const text = () => document.body.textContent ?? '';

describe('team settings', { timeout: 30_000 }, () => {
  it('refresh while open and visible, pause while hidden, and re-read on focus', async () => {
    await mount();
    expect(text()).toContain('Awaiting reply');
    expect(text()).toContain('Carol');

    // Bob accepts and Carol withdraws her invitation in other sessions: the next poll shows it.
    server = { members: [member('normal')], joined: [] };
    await advance(TEAM_POLL_MS);
    expect(text()).toContain('Active');
    expect(text()).not.toContain('Awaiting reply');
    expect(text()).toContain('No pending invitations');

    // Hidden window: no polling, whatever happens elsewhere.
    act(() => focusManager.setFocused(false));
    const readsWhileHidden = reads.length;
    server = { members: [], joined: [] };
    await advance(3 * TEAM_POLL_MS);
    expect(reads.length).toBe(readsWhileHidden);
    expect(text()).toContain('Bob');

    // Back to the window: the lists are re-read at once (Bob quit meanwhile).
    act(() => focusManager.setFocused(true));
    await advance(0);
    expect(reads.length).toBeGreaterThan(readsWhileHidden);
    expect(text()).not.toContain('Bob');
    expect(text()).toContain('No members yet');
  });
});
