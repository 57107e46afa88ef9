import { afterEach, describe, expect, it, vi } from 'vitest';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import '../i18n';
import { ShareLinks, type ShareLinkRow } from './ShareLinks';

/**
 * The share-link list of the chat embed and search share dialogs: each link shows its beta hint (its
 * token when it has none), an empty list says so, and a delete asks first, then hands over that row.
 */

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const labels = {
  title: 'Links made',
  empty: 'No links yet',
  delete: 'Delete link',
  deleteConfirm: 'Links made with it stop working.',
};

let root: Root | null = null;
let host: HTMLDivElement;

afterEach(async () => {
  act(() => root?.unmount());
  root = null;
  host?.remove();
  await new Promise((resolve) => setTimeout(resolve, 20));
});

async function render(rows: ShareLinkRow[], onDelete: (row: ShareLinkRow) => Promise<void> = async () => {}) {
  host = document.createElement('div');
  document.body.appendChild(host);
  root = createRoot(host);
  await act(async () => {
    root!.render(<ShareLinks rows={rows} loading={false} labels={labels} onDelete={onDelete} />);
  });
}

const waitFor = async (find: () => Element | undefined | null): Promise<Element> => {
  for (let i = 0; i < 50; i++) {
    const found = find();
    if (found) return found;
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
  }
  throw new Error('not shown');
};

describe('ShareLinks', () => {
  it('lists each link by its beta hint, or its token without one, under the title', async () => {
    await render([
      { token: 'tok-1', beta: 'ab12…' },
      { token: 'tok-2', beta: null },
    ]);
    const hints = [...host.querySelectorAll('[data-testid="share-link-hint"]')].map((e) => e.textContent);
    expect(hints).toEqual(['ab12…', 'tok-2']);
    expect(host.textContent).toContain('Links made');
    expect(host.querySelectorAll('button[aria-label="Delete link"]')).toHaveLength(2);
  });

  it('says when there is no link', async () => {
    await render([]);
    expect(host.textContent).toContain('No links yet');
    expect(host.querySelector('[data-testid="share-link-hint"]')).toBeNull();
  });

  it('deletes a link only once the confirmation is accepted, with that link’s row', async () => {
    const onDelete = vi.fn(async () => {});
    const rows = [
      { token: 'tok-1', beta: 'ab12…' },
      { token: 'tok-2', beta: 'cd34…' },
    ];
    await render(rows, onDelete);
    const buttons = host.querySelectorAll<HTMLButtonElement>('button[aria-label="Delete link"]');
    await act(async () => buttons[1].click());
    const confirm = await waitFor(() =>
      [...document.body.querySelectorAll('.ant-popconfirm')].find((e) =>
        e.textContent?.includes('Links made with it stop working.'),
      ),
    );
    expect(onDelete).not.toHaveBeenCalled();
    const ok = [...confirm.querySelectorAll<HTMLButtonElement>('button')].find(
      (b) => b.textContent === 'Delete',
    );
    await act(async () => ok!.click());
    expect(onDelete).toHaveBeenCalledTimes(1);
    expect(onDelete).toHaveBeenCalledWith(rows[1]);
  });
});
